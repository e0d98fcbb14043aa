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
