import { expect, test } from "@playwright/test";
import { settled } from "../helpers/e2e";

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
    // A late recoverable error (React logs #418/#423 after hydrating) is logged by work React has
    // queued by then: it has run once the page is idle.
    await settled(page);
    expect(problems).toEqual([]);
  });
}

// The app's scripts are held in inert templates until the first frame is painted (decision 031),
// then put back where Remix wrote them: hydration finds Remix's own DOM.
test("the app's scripts wait for the first paint, then stand where Remix wrote them", async ({ page, request }) => {
  const html = await (await request.get("/packages", { headers: { cookie: "visit=1" } })).text();
  expect(html.match(/<template data-after-paint>/g)).toHaveLength(2);
  expect(html).toMatch(/<template data-after-paint><link rel="modulepreload"/);
  await page.goto("/packages");
  await page.locator("html[data-hydrated]").waitFor();
  // Hydrated (the marker above): the templates were put back and the helper is gone too.
  expect(await page.evaluate(() => document.body.innerHTML.includes("data-after-paint"))).toBe(false);
});
