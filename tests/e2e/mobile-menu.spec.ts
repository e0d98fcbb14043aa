import { expect, test, type Page } from "@playwright/test";
import { hydrated } from "../helpers/e2e";

test.use({ viewport: { width: 390, height: 844 } });

async function menuLinks(page: Page) {
  return (await page.getByRole("navigation", { name: "Mobile" }).getByRole("link").allInnerTexts()).map((t) =>
    t.trim(),
  );
}

// What the menu does with JavaScript starts once the page's script runs (after the first paint).
test.describe("mobile menu with JavaScript", () => {
  test("opens, lists Templates last, and closes on navigation", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const toggle = page.getByLabel("Toggle menu");
    const panel = page.getByRole("navigation", { name: "Mobile" });
    await expect(panel).toBeHidden();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await toggle.click();
    await expect(panel).toBeVisible();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(await menuLinks(page)).toEqual(["Home", "Work", "Packages", "Process", "Get started!", "Templates"]);
    await panel.getByRole("link", { name: "Packages" }).click();
    await expect(page).toHaveURL(/\/packages$/);
    await expect(panel).toBeHidden();
    await toggle.click();
    await expect(panel).toBeVisible();
    await toggle.click();
    await expect(panel).toBeHidden();
  });

  test("closes with Escape", async ({ page }) => {
    await page.goto("/work");
    await hydrated(page);
    await page.getByLabel("Toggle menu").click();
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  });
});

test.describe("mobile menu without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("opens and closes, and links navigate", async ({ page }) => {
    await page.goto("/");
    const toggle = page.getByLabel("Toggle menu");
    const panel = page.getByRole("navigation", { name: "Mobile" });
    await expect(panel).toBeHidden();
    await toggle.click();
    await expect(panel).toBeVisible();
    expect(await menuLinks(page)).toEqual(["Home", "Work", "Packages", "Process", "Get started!", "Templates"]);
    await toggle.click();
    await expect(panel).toBeHidden();
    await toggle.click();
    await panel.getByRole("link", { name: "Process" }).click();
    await expect(page).toHaveURL(/\/process$/);
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeHidden();
  });
});
