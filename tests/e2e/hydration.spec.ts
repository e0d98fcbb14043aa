import { expect, test } from "@playwright/test";

// Hydration takes over the server's DOM as it is: no mismatch (React would throw the server's
// markup away and render again), no console error or warning on a first visit.
for (const path of ["/", "/templates", "/booking", "/packages"]) {
  test(`${path}: hydrates without a mismatch, an error or a warning`, async ({ page }) => {
    const problems: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.goto(path);
    await page.locator("html[data-hydrated]").waitFor();
    // Give a late recoverable error (React logs #418/#423 after hydrating) the time to appear.
    await page.waitForTimeout(300);
    expect(problems).toEqual([]);
  });
}
