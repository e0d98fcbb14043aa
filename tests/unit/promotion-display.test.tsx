import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PromoPrice } from "../../app/components/marketing/PromoPrice";
import { samplePackages } from "#domain/sample/packages";
import { samplePromotion } from "#domain/promotions";
import { catalogueFrom, getPackage } from "#domain/catalogue";
import { sampleCatalogue } from "#domain/sample/catalogue";

const essentials = (c = sampleCatalogue) => getPackage(c, "essentials")!;

describe("the Essentials price on the home page", () => {
  it("shows the struck-through original, the discounted price, the badge and the text while the promotion is enabled", () => {
    const html = renderToStaticMarkup(createElement(PromoPrice, { catalogue: sampleCatalogue, tier: essentials() }));
    expect(html).toContain("40% OFF");
    expect(html).toMatch(/<s[^>]*>\$2,500<\/s>/);
    expect(html).toContain("$1,500");
    expect(html).toContain("Allow us to showcase your website in our portfolio");
  });

  it("shows the normal price when the promotion is disabled", () => {
    const off = catalogueFrom({ packages: samplePackages, promotion: { ...samplePromotion, enabled: false } });
    const html = renderToStaticMarkup(createElement(PromoPrice, { catalogue: off, tier: essentials(off) }));
    expect(html).toContain("$2,500");
    expect(html).not.toMatch(/<s[ >]/);
    expect(html).not.toContain("40% OFF");
    expect(html).not.toContain("$1,500");
  });
});
