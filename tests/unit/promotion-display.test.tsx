import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EssentialsPrice } from "../../app/components/marketing/PromoPrice";
import { promotions } from "../../app/content/promotions";

describe("the Essentials price on the home page", () => {
  it("shows the struck-through original, the discounted price, the badge and the text while the promotion is enabled", () => {
    const html = renderToStaticMarkup(createElement(EssentialsPrice, { promotions }));
    expect(html).toContain("40% OFF");
    expect(html).toMatch(/<s[^>]*>\$2,500<\/s>/);
    expect(html).toContain("$1,500");
    expect(html).toContain("Allow us to showcase your website in our portfolio");
  });

  it("shows the normal price when the promotion is disabled", () => {
    const disabled = promotions.map((p) => ({ ...p, enabled: false }));
    const html = renderToStaticMarkup(createElement(EssentialsPrice, { promotions: disabled }));
    expect(html).toContain("$2,500");
    expect(html).not.toMatch(/<s[ >]/);
    expect(html).not.toContain("40% OFF");
    expect(html).not.toContain("$1,500");
  });
});
