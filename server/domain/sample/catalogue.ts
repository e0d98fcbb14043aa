import { catalogueFrom, type Catalogue } from "../catalogue";
import { samplePackages } from "./packages";
import { samplePromotion } from "../promotions";

/**
 * The sample studio's catalogue as pages read it: what a fresh data folder offers, and the prices
 * bookings made before issue 29 were made at. Server and tests only: browsers get the saved
 * catalogue from the loaders.
 */
export const sampleCatalogue: Catalogue = catalogueFrom({ packages: samplePackages, promotion: samplePromotion });
