/**
 * Screenshots for looking at what we build:
 *   npx tsx tests/helpers/screenshots.ts http://localhost:3000 out-dir / /packages ...
 * Each path at 390 px and 1280 px wide, full page, in the system Chromium. With SCREENSHOT_COOKIE
 * ("name=value", e.g. a signed session cookie) the pages are taken signed in.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";

const [base, outDir, ...paths] = process.argv.slice(2);
if (!base || !outDir || paths.length === 0) {
  console.error("usage: tsx tests/helpers/screenshots.ts BASE_URL OUT_DIR PATH...");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
for (const width of [390, 1280]) {
  const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
  const cookie = process.env.SCREENSHOT_COOKIE;
  if (cookie) {
    const at = cookie.indexOf("=");
    await context.addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url: base }]);
  }
  const page = await context.newPage();
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: "networkidle" });
    const name = `${width}-${p.replace(/[^a-z0-9]+/gi, "_") || "home"}.png`;
    await page.screenshot({ path: path.join(outDir, name), fullPage: true });
    console.log(path.join(outDir, name));
  }
  await context.close();
}
await browser.close();
