import { expect, test } from "@playwright/test";
import { hydrated } from "../helpers/e2e";

const NAV = ["Home", "Work", "Packages", "Process", "Get started!"];
const ROUTES: { path: string; active: string | null }[] = [
  { path: "/", active: "Home" },
  { path: "/work", active: "Work" },
  { path: "/work/2", active: "Work" },
  { path: "/packages", active: "Packages" },
  { path: "/process", active: "Process" },
  { path: "/booking", active: "Get started!" },
  { path: "/templates", active: "Templates" },
  { path: "/terms", active: null },
  { path: "/privacy", active: null },
];

test.describe("desktop shell", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  for (const route of ROUTES) {
    test(`navigation order and active state on ${route.path}`, async ({ page }) => {
      const res = await page.goto(route.path);
      expect(res?.status()).toBe(200);
      const nav = page.getByRole("navigation", { name: "Main" });
      const labels = await nav.getByRole("link").allInnerTexts();
      expect(labels.map((l) => l.trim()).filter((l) => NAV.includes(l))).toEqual(NAV);
      // Templates is a separate link, after the main items.
      expect(labels.map((l) => l.trim())).toContain("Templates");
      const current = nav.locator('[aria-current="page"]');
      if (route.active) {
        await expect(current).toHaveCount(1);
        await expect(current).toHaveText(route.active);
      } else {
        await expect(current).toHaveCount(0);
      }
    });
  }

  test("Home is active only on exactly /", async ({ page }) => {
    await page.goto("/work");
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }),
    ).not.toHaveAttribute("aria-current", "page");
  });

  test("footer has the pages, connect links, the studio line and legal links", async ({ page }) => {
    await page.goto("/");
    const footer = page.locator("footer");
    await expect(footer).toContainText(
      "Boutique digital design for companies that care about details. Fixed-price packages, transparent process, quality-focused execution.",
    );
    await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
    const pages = footer.getByRole("navigation", { name: "Pages" });
    await expect(pages.getByRole("link")).toHaveText(["Home", "Work", "Packages", "Process"]);
    const connect = footer.getByRole("navigation", { name: "Connect" });
    await expect(connect.getByRole("link", { name: "Book Consultation" })).toHaveAttribute("href", "/booking");
    await expect(connect.locator('a[href^="mailto:"]')).toHaveCount(1);
    await expect(connect.locator('a[href^="http"]')).toHaveCount(1);
    await footer.getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Privacy");
    await page.locator("footer").getByRole("link", { name: "Terms of Service" }).click();
    await expect(page).toHaveURL(/\/terms$/);
  });

  test("the logo links home", async ({ page }) => {
    await page.goto("/process");
    await page.locator("header").getByRole("link", { name: /home/i }).first().click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("legal pages", () => {
  test("terms carry the date and the payment schedule", async ({ page }) => {
    await page.goto("/terms");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Terms of Service/);
    await expect(page.getByText("Last updated October 24, 2025")).toBeVisible();
    const text = await page.locator("main").innerText();
    expect(text).toMatch(/20-30%/);
    expect(text).toMatch(/50%/);
    expect(text).toMatch(/30-20%/);
  });

  test("privacy carries the date, retention periods and the age limit", async ({ page }) => {
    await page.goto("/privacy");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/Privacy Policy/);
    await expect(page.getByText("Last updated October 24, 2025")).toBeVisible();
    const text = await page.locator("main").innerText();
    expect(text).toMatch(/1 year/);
    expect(text).toMatch(/2 years/);
    expect(text).toMatch(/7 years/);
    expect(text).toMatch(/18/);
  });
});

test.describe("404", () => {
  test("unknown paths answer 404 with Go home and Go back", async ({ page }) => {
    await page.goto("/process");
    const res = await page.goto("/no-such-page-here");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("link", { name: "Go home" })).toHaveAttribute("href", "/");
    // Go back steps back in the history once the page's script runs (it loads after the first
    // paint); before that it is a link to the same-site referrer, here none: home.
    await hydrated(page);
    await page.getByRole("link", { name: "Go back" }).click();
    await expect(page).toHaveURL(/\/process$/);
    await page.goto("/no-such-page-here");
    await page.getByRole("link", { name: "Go home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("healthz answers 200 with its JSON while the database takes a write", async ({ request }) => {
    const res = await request.get("/healthz");
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", reason: null, version: "1.0.0" });
  });
});
