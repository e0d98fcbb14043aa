import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

// /booking/success is only for a visitor whose booking was saved: its axe check is in booking-ending.spec.ts.
const PAGES = [
  "/",
  "/work",
  "/work/1",
  "/packages",
  "/process",
  "/templates",
  "/templates/atelier",
  "/booking",
  "/terms",
  "/privacy",
];

test.describe("accessibility", () => {
  for (const path of PAGES) {
    test(`no axe violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      await page.locator("html[data-hydrated]").waitFor();
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
        [],
      );
      await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
    });
  }
});

test("every home link goes where the spec says", async ({ page }) => {
  await page.goto("/");
  const main = page.locator("main");
  for (const href of [
    "/booking",
    "/packages",
    "/work",
    "/work/1",
    "/work/2",
    "/work/3",
    "/templates",
    "/booking?tier=custom",
  ]) {
    await expect(main.locator(`a[href="${href}"]`).first()).toBeVisible();
  }
  await expect(main.getByRole("complementary", { name: "Limited-time offer" })).toContainText("40% OFF");
  const teaser = main.locator('a[href^="/templates/"]');
  await expect(teaser).toHaveCount(4);
  await main.getByRole("link", { name: /Claim the offer/ }).click();
  await expect(page).toHaveURL(/\/booking/);
  await page.goto("/");
  await main.getByRole("link", { name: "Custom package details" }).click();
  await expect(page).toHaveURL(/\/booking\?tier=custom|\/booking\?step=1/);
  await expect(page.getByRole("radio", { name: /Custom/ })).toBeChecked();
});

test("the template teaser comes with the document, and on a client visit shows skeletons until loaded, then caches", async ({
  page,
}) => {
  await page.goto("/");
  // Server rendered with the document: the four cards, no skeleton and nothing fetched after.
  await expect(page.locator('main a[href^="/templates/"]')).toHaveCount(4);
  await expect(page.getByRole("list", { name: "Loading templates" })).toHaveCount(0);
  await page.locator("html[data-hydrated]").waitFor();
  expect(await page.evaluate(() => sessionStorage.getItem("featured_templates"))).toBeNull();

  // A client-side visit without a cached list: skeletons while the list is on its way.
  await page.getByRole("link", { name: "View packages" }).click();
  await expect(page).toHaveURL(/\/packages$/);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/_root\.data\?.*_index/, async (route) => {
    await held;
    await route.continue();
  });
  await page
    .getByRole("link", { name: /Studio Rowan/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/$/);
  const skeleton = page.getByRole("list", { name: "Loading templates" });
  await expect(skeleton.locator("li")).toHaveCount(4);
  release();
  await expect(skeleton).toHaveCount(0);
  await expect(page.locator('main a[href^="/templates/"]')).toHaveCount(4);
  const cached = await page.evaluate(() => JSON.parse(sessionStorage.getItem("featured_templates") ?? "null"));
  expect(cached.items).toHaveLength(4);

  // Within five minutes the next visit draws the cached list at once, without skeletons, even while
  // the server is still answering for the studio's words (issue 29: a save shows at the next load).
  await page.getByRole("link", { name: "View packages" }).click();
  await expect(page).toHaveURL(/\/packages$/);
  let releaseAgain!: () => void;
  const heldAgain = new Promise<void>((r) => (releaseAgain = r));
  await page.route(/\/_root\.data\?.*_index/, async (route) => {
    await heldAgain;
    await route.continue();
  });
  await page
    .getByRole("link", { name: /Studio Rowan/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('main a[href^="/templates/"]')).toHaveCount(4);
  await expect(page.getByRole("list", { name: "Loading templates" })).toHaveCount(0);
  releaseAgain();
  await expect(page.getByRole("heading", { name: "Fixed prices, no surprises" })).toBeVisible();
  await expect(page.locator('main a[href^="/templates/"]')).toHaveCount(4);
});

test("the home page shows the discounted Essentials price while the promotion is on", async ({ page }) => {
  await page.goto("/");
  const card = page.locator("article", { has: page.getByRole("heading", { name: "Essentials" }) });
  await expect(card).toContainText("$1,500");
  await expect(card.locator("s")).toHaveText("$2,500");
  await expect(card).toContainText("Allow us to showcase your website in our portfolio");
});

test("the packages calculator shows exact totals and keeps the selection", async ({ page }) => {
  await page.goto("/packages");
  await page.locator("html[data-hydrated]").waitFor();
  const total = page.getByTestId("calculator-total");
  await expect(total).toHaveText("$2,500");
  await page.getByRole("checkbox", { name: /^Additional page/ }).check();
  await page.getByRole("button", { name: "Increase quantity of Additional page" }).click();
  await page.getByRole("button", { name: "Increase quantity of Additional page" }).click();
  await expect(total).toHaveText("$3,250");
  await page.getByRole("checkbox", { name: /^Blog setup/ }).check();
  await expect(total).toHaveText("$3,750");
  await page.getByRole("checkbox", { name: /Yes! Feature my site/ }).check();
  await expect(total).toHaveText("$2,250");
  // The stepper at its minimum removes the add-on.
  for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Decrease quantity of Additional page" }).click();
  await expect(page.getByRole("checkbox", { name: /^Additional page/ })).not.toBeChecked();
  await expect(total).toHaveText("$1,800");
  // Choosing another package clears the add-ons.
  await page.getByRole("radio", { name: /Growth/ }).check();
  await expect(total).toHaveText("$8,500");
  await page.getByRole("checkbox", { name: /^Additional design concept/ }).check();
  await page.getByRole("button", { name: "Increase quantity of Additional design concept" }).click();
  await page.getByRole("button", { name: "Increase quantity of Additional design concept" }).click();
  await expect(total).toHaveText("$11,500");
  // Its maximum is 3: the stepper stops there.
  await expect(page.getByRole("button", { name: "Increase quantity of Additional design concept" })).toBeDisabled();
  await page.getByRole("checkbox", { name: /^CRM integration/ }).check();
  await expect(total).toHaveText("$13,500");
  const saved = await page.evaluate(() => JSON.parse(window.localStorage.getItem("packageSelection") ?? "null"));
  expect(saved).toMatchObject({
    packageId: "growth",
    selectedAddOns: ["additional-concept", "crm-integration"],
    addOnQuantities: { "additional-concept": 3, "crm-integration": 1 },
    packageTotal: 1350000,
  });
  await page.reload();
  await expect(total).toHaveText("$13,500");
  await page.getByRole("button", { name: "Continue to booking" }).click();
  await expect(page).toHaveURL(/tier=growth/);
  await expect(page.getByRole("radio", { name: /Growth/ })).toBeChecked();
});

test("SEO: unique titles, canonical URLs from APP_URL, sitemap and robots", async ({ page, request }) => {
  const titles = new Set<string>();
  for (const path of ["/", "/work", "/packages", "/process", "/templates", "/booking", "/terms", "/privacy"]) {
    await page.goto(path);
    titles.add(await page.title());
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      `http://localhost:${process.env.E2E_PORT}${path}`,
    );
    await expect(page.locator('meta[property="og:title"]')).toHaveCount(1);
  }
  expect(titles.size).toBe(8);
  const sitemap = await (await request.get("/sitemap.xml")).text();
  expect(sitemap).toContain(`http://localhost:${process.env.E2E_PORT}/templates/atelier`);
  expect(await (await request.get("/robots.txt")).text()).toContain("Sitemap:");
});
