import { expect, test, type Page } from "@playwright/test";

/** Issue 21: what a visitor meets after the first page, at the width where it was seen. */

const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor();

test.describe("/packages on a phone (390 px)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the running total stays in view while add-ons change; names stay within two lines", async ({ page }) => {
    await page.goto("/packages");
    await hydrated(page);
    await page
      .getByRole("radio", { name: /Growth/ })
      .first()
      .check();
    const crm = page.getByRole("checkbox", { name: /^CRM integration/ });
    await crm.evaluate((e) => e.scrollIntoView({ block: "center" }));
    await crm.check();
    const sticky = page.getByTestId("calculator-sticky-total");
    await expect(sticky).toContainText("$10,500");
    await expect(sticky).toBeInViewport();
    // The estimate's own total is further down, out of view: the sticky one is what the visitor sees.
    await expect(page.getByTestId("calculator-total")).not.toBeInViewport();
    await page.getByRole("button", { name: "Increase quantity of Additional design concept" }).click();
    await expect(sticky).toContainText("$11,500");
    await expect(sticky).toBeInViewport();

    const lines = await page
      .locator('fieldset[data-tier="growth"] li label span.font-medium')
      .evaluateAll((names) =>
        names.map((n) => Math.round(n.getBoundingClientRect().height / parseFloat(getComputedStyle(n).lineHeight))),
      );
    expect(lines.length).toBeGreaterThan(3);
    for (const n of lines) expect(n).toBeLessThanOrEqual(2);
  });

  test("an add-on not chosen shows no quantity, only +; chosen, its quantity shows", async ({ page }) => {
    await page.goto("/packages");
    await hydrated(page);
    await page
      .getByRole("radio", { name: /Growth/ })
      .first()
      .check();
    const box = page.getByRole("spinbutton", { name: "Additional design concept quantity" });
    await expect(box).toBeHidden();
    await expect(page.getByRole("button", { name: "Decrease quantity of Additional design concept" })).toBeHidden();
    await page.getByRole("button", { name: "Increase quantity of Additional design concept" }).click();
    await expect(box).toBeVisible();
    await expect(box).toHaveValue("1");
    await page.getByRole("checkbox", { name: /^Additional design concept/ }).uncheck();
    await expect(box).toBeHidden();
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    test("ticking an add-on shows its quantity box (by CSS alone)", async ({ page }) => {
      await page.goto("/packages");
      await page
        .getByRole("radio", { name: /Growth/ })
        .first()
        .check();
      const box = page.getByRole("spinbutton", { name: "Additional design concept quantity" });
      await expect(box).toBeHidden();
      await page.getByRole("checkbox", { name: /^Additional design concept/ }).check();
      await expect(box).toBeVisible();
    });
  });
});

test.describe("/packages at 1280 px", () => {
  test.use({ viewport: { width: 1280, height: 900 } });
  test("the estimate sits beside the add-ons; no sticky bar", async ({ page }) => {
    await page.goto("/packages");
    await hydrated(page);
    await expect(page.getByTestId("calculator-sticky-total")).toBeHidden();
  });
});

/** Whether two elements' boxes overlap. */
async function overlap(a: ReturnType<Page["locator"]>, b: ReturnType<Page["locator"]>) {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error("not rendered");
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`details seen in screenshots at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("home: each case study's number is clear of its mock window; the offer says 'Limited time' once at most", async ({
      page,
    }) => {
      await page.goto("/");
      const arts = page.locator('[role="img"]:has([data-part="number"])');
      expect(await arts.count()).toBeGreaterThanOrEqual(3);
      for (const art of await arts.all()) {
        await art.scrollIntoViewIfNeeded();
        expect(await overlap(art.locator('[data-part="number"]'), art.locator('[data-part="window"]'))).toBe(false);
      }
      const banner = page.getByRole("complementary", { name: "Limited-time offer" });
      const text = (await banner.textContent()) ?? "";
      expect(text.match(/limited time/gi)?.length ?? 0).toBeLessThanOrEqual(1);
    });

    test("a case study: its art is not taller than the screen, metrics keep to one line, next and previous studies", async ({
      page,
    }) => {
      await page.goto("/work");
      const hrefs = await page
        .locator('main a[href^="/work/"]')
        .evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute("href")!))]);
      expect(hrefs.length).toBeGreaterThanOrEqual(3);
      await page.goto(hrefs[0]);
      const art = page.locator('[role="img"]:has([data-part="number"])');
      const box = await art.boundingBox();
      expect(box!.height).toBeLessThanOrEqual(viewport.width === 1280 ? 600 : 320);
      for (const dd of await page.locator("main dl dd").all()) {
        const lines = await dd.evaluate(
          (e) => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight),
        );
        expect(Math.round(lines), await dd.textContent()).toBe(1);
      }
      const more = page.getByRole("navigation", { name: "More case studies" });
      await expect(more.getByRole("link", { name: /Previous case study/ })).toHaveCount(0);
      await more.getByRole("link", { name: /Next case study/ }).click();
      await expect(page).toHaveURL(new RegExp(`${hrefs[1]}$`));
      await expect(more.getByRole("link", { name: /Previous case study/ })).toHaveAttribute("href", hrefs[0]);
    });

    test("/templates: titles in a row start level, a sale price beside the price, not above it", async ({ page }) => {
      test.skip(viewport.width < 640, "one card per row: nothing to line up");
      await page.goto("/templates");
      const cards = page.locator("main li.card");
      expect(await cards.count()).toBeGreaterThan(3);
      const rows = new Map<number, number[]>();
      for (const c of await cards.all()) {
        const [li, h3] = [await c.boundingBox(), await c.locator("h3").boundingBox()];
        if (!li || !h3) continue;
        const key = Math.round(li.y);
        rows.set(key, [...(rows.get(key) ?? []), Math.round(h3.y - li.y)]);
      }
      const sale = page.locator("main li.card:has(s)");
      expect(await sale.count()).toBeGreaterThan(0);
      for (const offsets of rows.values()) expect(Math.max(...offsets) - Math.min(...offsets)).toBeLessThanOrEqual(1);
      expect([...rows.values()].some((offsets) => offsets.length > 1)).toBe(true);
    });
  });
}
