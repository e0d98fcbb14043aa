/**
 * What a browser downloads, from the production build (DESIGN.md §5: at most 110 KB of JavaScript,
 * gzipped, per public route). Counted as `npm run bench` counts it: every /build/*.js the page's
 * HTML names by <script src>, <link href> (modulepreload) or `import "…"`, each gzipped, summed.
 * And no server code among it: a module under server/ that app/ imports (a route's loader) is in
 * the browser's module graph, so anything it loads with `import()` became a chunk of the browser
 * build, and its packages went to the chunk every page shares (remix-auth-email-link took
 * @remix-run/server-runtime's request handler, sessions and cookies there: some 17 KB gzipped on
 * every page). package.json's `browser` field maps such modules to nothing.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingSteps, httpVisitor, startServer, type RunningServer } from "../helpers/server";

const root = path.resolve(import.meta.dirname, "../..");
const BUDGET_KB = 110;

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

async function javaScriptKb(html: string): Promise<number> {
  const files = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/build\/[^"]+\.js)"/g)) files.add(m[1]);
  for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/build\/[^"]+\.js)"/g)) files.add(m[1]);
  expect(files.size).toBeGreaterThan(0);
  let bytes = 0;
  for (const file of files) {
    const res = await fetch(`${server.url}${file}`);
    expect(res.status, file).toBe(200);
    bytes += zlib.gzipSync(Buffer.from(await res.arrayBuffer())).length;
  }
  return bytes / 1024;
}

describe("the browser build", () => {
  it(`loads at most ${BUDGET_KB} KB of JavaScript (gzipped) on every public route`, async () => {
    const visitor = httpVisitor(server.url);
    await visitor.fillSteps("budget@example.com");
    const pages: [string, string][] = [
      ["/", ""],
      ["/packages", ""],
      ["/templates", ""],
      ["/templates/atelier", ""],
      ["/booking?step=1", ""],
      // Step 6 with the draft that reached it (the calendar's step).
      [`/booking?step=${bookingSteps("x@example.com").length + 1}`, visitor.cookie],
    ];
    for (const [page, cookie] of pages) {
      const res = await fetch(`${server.url}${page}`, { headers: cookie ? { Cookie: cookie } : {} });
      expect(res.status, page).toBe(200);
      const kb = await javaScriptKb(await res.text());
      expect(kb, `${page}: ${kb.toFixed(1)} KB`).toBeLessThanOrEqual(BUDGET_KB);
    }
  });

  it("carries no server code: no server package, no module the server loads at its first use", () => {
    const meta = JSON.parse(fs.readFileSync(path.join(root, "build", "metafile.js.json"), "utf8")) as {
      outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
    };
    const serverOnly =
      /node_modules\/(remix-auth[^/]*|@web3-storage\/multipart-parser|set-cookie-parser|ical\.js|temporal-polyfill|tsdav|nodemailer|stripe)\/|@remix-run\/server-runtime\/dist\/esm\/(server|sessions|cookies)\.js|^server\/(auth|calendar|http|db|email|payments|documents)\//;
    const shipped = Object.entries(meta.outputs).flatMap(([output, { inputs }]) =>
      Object.entries(inputs)
        .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && serverOnly.test(input))
        .map(([input, { bytesInOutput }]) => `${input} (${bytesInOutput} bytes in ${output})`),
    );
    expect(shipped).toEqual([]);
  });
});
