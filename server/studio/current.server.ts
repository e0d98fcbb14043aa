import { db } from "../db.server";
import { env } from "../env.server";
import { getStudio, type StudioContent } from "./studio.server";

/** The studio as the running app reads it (for loaders, actions and other adapters; services take it as an argument). */
export function currentStudio(): Promise<StudioContent> {
  return getStudio(db(), { studioEmail: env().STUDIO_EMAIL });
}
