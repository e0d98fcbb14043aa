// npm run bench: the production build on loopback against two references, each in its own
// process: cached pages against a plain node:http server replaying the byte-identical responses
// (tests/perf/reference.mjs), rendered pages against the same React tree rendered by
// renderToString alone with the same data (tests/perf/bare-react.mjs). Prints a table and one
// JSON line. BENCH_CONNECTIONS, BENCH_SECONDS (per route and side, split into BENCH_ROUNDS
// alternating rounds), BENCH_WARMUP, BENCH_MIXED (requests of the memory run) and BENCH_ONLY
// (a comma-separated list of route names: measure only those, skip the memory run and the lists),
// BENCH_PROFILE (the cached route whose time is profiled by phase, default /templates/atelier; 0: none),
// BENCH_REPLICA_KILLS (the replica's loss window: how many kills, default 5; 0: none).
import fs from "node:fs";
import http from "node:http";
import zlib from "node:zlib";
import autocannon from "autocannon";
import { build as esbuild } from "esbuild";
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { SERVER_SCRIPT } from "../../server/load-build.js";
import { phasesOf } from "./profile-phases.mjs";
import { replicaLoss } from "./replica-loss.mjs";
import { startFlags, startServer } from "./server.mjs";

const root = path.resolve(import.meta.dirname, "../..");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const MIXED = Number(process.env.BENCH_MIXED ?? 100_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
/** The cached route whose time is profiled by phase ("0": none). */
const PROFILE = process.env.BENCH_PROFILE ?? "/templates/atelier";
function capture(url, extraHeaders = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": "gzip", ...extraHeaders } }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => {
          const headers = {};
          for (const [k, v] of Object.entries(res.headers)) {
            if (v === void 0 || ["date", "connection", "keep-alive", "transfer-encoding"].includes(k)) continue;
            headers[k] = Array.isArray(v) ? v.join(", ") : v;
          }
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        });
      })
      .on("error", reject);
  });
}
/** One autocannon run: CONNECTIONS connections for `duration` seconds, gzip accepted; `opts` adds or overrides. */
function load(url, duration, opts = {}) {
  return autocannon({ url, connections: CONNECTIONS, duration, headers: { "accept-encoding": "gzip" }, ...opts });
}

/**
 * Product and reference measured in alternating rounds (ROUNDS of SECONDS / ROUNDS each, after
 * a warm-up of each), so a machine that speeds up or slows down during the run (a shared host)
 * weighs on both alike. Returns the requests per second over all rounds, the mean p50 and the
 * worst p99 of the product's rounds, and the reference's requests per second.
 */
async function compare(productUrl, productOpts, referenceUrl, referenceOpts) {
  await load(productUrl, WARMUP, productOpts);
  await load(referenceUrl, WARMUP, referenceOpts);
  const p = [];
  const r = [];
  for (let i = 0; i < ROUNDS; i++) {
    p.push(await load(productUrl, SECONDS / ROUNDS, productOpts));
    r.push(await load(referenceUrl, SECONDS / ROUNDS, referenceOpts));
  }
  const rate = (runs) => runs.reduce((n, x) => n + x.requests.total, 0) / runs.reduce((t, x) => t + x.duration, 0);
  return {
    rps: rate(p),
    refRps: rate(r),
    p50: +(p.reduce((n, x) => n + x.latency.p50, 0) / p.length).toFixed(1),
    p99: Math.max(...p.map((x) => x.latency.p99)),
    errors: p.reduce((n, x) => n + x.errors + x.non2xx, 0),
  };
}
function rssKb(pid, field) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`${field}:\\s+(\\d+)`));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
function rssPeakKb(pid) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, "utf8").match(/VmHWM:\s+(\d+)/);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
/**
 * The largest modules in a route's JavaScript, from the client build's metafile (what esbuild put
 * in each chunk, minified): grouped by package (or by source file for the app's own), each with
 * its share of the route's gzipped weight (its minified share of each chunk times the chunk's
 * gzipped size).
 */
function largestModules(chunks, top = 5) {
  const metaFile = path.join(import.meta.dirname, "..", "..", "build", "metafile.js.json");
  if (!fs.existsSync(metaFile)) return [];
  const outputs = JSON.parse(fs.readFileSync(metaFile, "utf8")).outputs;
  const byModule = new Map();
  for (const [file, gzBytes] of chunks) {
    const out = outputs[`public${file}`];
    if (!out) continue;
    const minified = Object.values(out.inputs).reduce((n, i) => n + i.bytesInOutput, 0) || 1;
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.replace(/^.*?(app|server)\//, "$1/");
      byModule.set(pkg, (byModule.get(pkg) ?? 0) + (bytesInOutput / minified) * gzBytes);
    }
  }
  return [...byModule.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)}`);
}

async function assetsOf(base, html) {
  const js = /* @__PURE__ */ new Set();
  const css = /* @__PURE__ */ new Set();
  for (const m of html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/build\/[^"]+)"/g))
    (m[1].endsWith(".css") ? css : js).add(m[1]);
  for (const m of html.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/build\/[^"]+\.js)"/g)) js.add(m[1]);
  const size = async (p) => zlib.gzipSync(Buffer.from(await (await fetch(base + p)).arrayBuffer())).length;
  let jsBytes = 0;
  let cssBytes = 0;
  const chunks = [];
  for (const p of js) {
    const n = await size(p);
    chunks.push([p, n]);
    jsBytes += n;
  }
  for (const p of css) cssBytes += await size(p);
  return { jsKb: +(jsBytes / 1024).toFixed(1), cssKb: +(cssBytes / 1024).toFixed(1), largest: largestModules(chunks) };
}
/**
 * Starts a reference server (a script of tests/perf/) in its own process, as the product runs in
 * its own, so that neither shares a core with autocannon. Resolves once it prints its port.
 */
async function startChild(script, args, env = process.env, flags = []) {
  const child = spawn(process.execPath, [...flags, path.join(import.meta.dirname, script), ...args], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on (\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`${script} exited (${code})`)));
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  };
  return { port, stop };
}

/** tests/perf/reference.mjs replaying the captured responses. */
async function startReference(captured) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-ref-"));
  const file = path.join(dir, "captured.json");
  const json = {};
  for (const [name, c] of captured)
    json[name] = { status: c.status, headers: c.headers, body: c.body.toString("base64") };
  fs.writeFileSync(file, JSON.stringify(json));
  const child = await startChild("reference.mjs", [file]);
  return {
    port: child.port,
    stop: async () => {
      await child.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The HTML a browser is sent, with what differs by request or belongs to Remix's data transfer
 * set aside: nonces, the scripts after </html> that hand the loaders' data to the browser, and the
 * templates that hold the app's scripts until the first paint (app/entry.server.tsx).
 */
function markupOf(html) {
  return html
    .replace(/ nonce="[^"]*"/g, "")
    .replace(/<\/html>[\s\S]*$/, "</html>")
    .replace(/<template data-after-paint>|<\/template>(?:<script>\(function\(\)\{var me=[^<]*<\/script>)?/g, "");
}

/**
 * tests/perf/bare-react.mjs on the product's data folder, for `paths`, with the V8 flags of
 * `npm start` (the same heap as the product); fails when its markup of a page is not the
 * product's (the reference must render the same tree with the same data).
 */
async function startBareReact(env, base, paths) {
  const child = await startChild("bare-react.mjs", paths, env, startFlags());
  for (const p of paths) {
    const product = await (await fetch(base + p, { headers: { cookie: "bench=uncached" } })).text();
    const bare = await (await fetch(`http://127.0.0.1:${child.port}/__html?path=${encodeURIComponent(p)}`)).text();
    if (markupOf(product) !== markupOf(bare)) {
      await child.stop();
      throw new Error(`bare-react.mjs renders ${p} differently from the product: the reference is not the same tree`);
    }
  }
  return child;
}

/**
 * The timings the tests do not assert (decision 021), from tests/perf/lists.ts: the console's
 * lists with 5,000 bookings, the rate limiter with 60,000 clients, and a backup of 5,000 bookings
 * and 200 MB of files. The file is bundled by esbuild into build/ (its packages left to
 * node_modules) and run by Node: tsx cannot load a dependency of SendGrid's (async-function's
 * `module-sync` export). Echoes its lines and answers its JSON.
 */
async function listFigures() {
  const bundle = path.join(root, "build", ".bench-lists.mjs");
  await esbuild({
    entryPoints: [path.join(import.meta.dirname, "lists.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    outfile: bundle,
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "error",
  });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.once("close", (code) => {
      const lines = out.trim().split("\n");
      if (code !== 0) return reject(new Error(`tests/perf/lists.ts exited ${code}:\n${out}`));
      for (const line of lines.slice(0, -1)) console.log(line);
      resolve(JSON.parse(lines.at(-1)));
    });
  });
}

/**
 * Where a cached request's time goes (issue 42.1): a second server of the same build, started with
 * `--cpu-prof`, brought to the measured server's steady state (`steadyState`: every route for a
 * while), then under the same load on `pathname` for SECONDS after a warm-up; its profile, of the
 * measured seconds only, by phase (tests/perf/profile-phases.mjs). Printed as a table; returned.
 */
async function whereTheTimeGoes(pathname, steadyState) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-profile-"));
  const profiled = await startServer({
    prefix: "studio-bench-profiled-",
    flags: ["--cpu-prof", `--cpu-prof-dir=${dir}`],
  });
  let window;
  try {
    // The same steady state as the measured server's: every route answered for a while first.
    await load(profiled.base, WARMUP * 3, steadyState);
    await load(profiled.base + pathname, WARMUP);
    const from = Number(process.hrtime.bigint() / 1000n);
    const run = await load(profiled.base + pathname, SECONDS);
    window = { from, to: Number(process.hrtime.bigint() / 1000n), requests: run.requests.total };
  } finally {
    await profiled.stop();
  }
  const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error("the profiled server wrote no profile");
  const phases = phasesOf(
    path.join(dir, file),
    path.join(root, "build", SERVER_SCRIPT),
    path.join(root, "build", `${SERVER_SCRIPT}.map`),
    window,
  );
  fs.rmSync(dir, { recursive: true, force: true });
  const busy = phases.reduce((n, p) => n + p.ms, 0);
  console.log(
    `where a cached request's time goes (${pathname}, CPU profile of ${window.requests} requests, ${busy} ms busy, ${((busy * 1000) / window.requests).toFixed(1)} µs each):`,
  );
  for (const p of phases)
    console.log(
      `  ${p.phase.padEnd(56)} ${String(p.ms).padStart(6)} ms  ${(p.share * 100).toFixed(1).padStart(5)}%   ${p.top.join(", ")}`,
    );
  return phases.map(({ phase, ms, share }) => ({ phase, ms, share }));
}

async function main() {
  // Production build on a free port, fresh DATA_DIR, the V8 heap limits of `npm start`.
  const { base, env, server, stop } = await startServer({ prefix: "studio-bench-" });
  let refServer;
  let bareServer;
  try {
    const slug = "atelier";
    const routes = [
      { name: "/", path: "/" },
      { name: "/packages", path: "/packages" },
      { name: "/templates", path: "/templates" },
      { name: `/templates/${slug}`, path: `/templates/${slug}` },
      { name: "/ (uncached)", path: "/", uncached: true, rendered: true },
      { name: "/packages (uncached)", path: "/packages", uncached: true, rendered: true },
      { name: "/booking?step=1", path: "/booking?step=1", rendered: true },
      { name: "templates.list", path: "/api/trpc/templates.list" },
    ];
    const only = process.env.BENCH_ONLY?.split(",").map((s) => s.trim());
    const measured = only ? routes.filter((r) => only.includes(r.name)) : routes;
    const captured = /* @__PURE__ */ new Map();
    // A cookie makes a request "signed in" for the page cache, so it is rendered every time.
    const noCache = { cookie: "bench=uncached" };
    for (const r of routes) captured.set(r.name, await capture(base + r.path, r.uncached ? noCache : {}));
    refServer = await startReference(captured);
    const refPort = refServer.port;
    bareServer = await startBareReact(
      env,
      base,
      routes.filter((r) => r.rendered).map((r) => r.path),
    );
    const barePort = bareServer.port;
    // Steady state first: every server answers every route for a few seconds (JIT, caches, heap)
    // before anything is measured, so the first route measured is not also the coldest.
    const everyRoute = (extra, list = routes) => ({
      requests: list.map((r) => ({
        method: "GET",
        path: r.path,
        headers: { "accept-encoding": "gzip", "x-route": r.name, ...(r.uncached ? extra : {}) },
      })),
    });
    await load(base, WARMUP * 3, everyRoute(noCache));
    await load(`http://127.0.0.1:${refPort}`, WARMUP * 3, everyRoute({}));
    await load(
      `http://127.0.0.1:${barePort}`,
      WARMUP * 3,
      everyRoute(
        {},
        routes.filter((r) => r.rendered),
      ),
    );
    const rows = [];
    for (const r of measured) {
      // A page rendered at each request is measured against bare React; a cached one (and the
      // API) against the replay of its bytes.
      const refUrl = r.rendered ? `http://127.0.0.1:${barePort}${r.path}` : `http://127.0.0.1:${refPort}${r.path}`;
      const m = await compare(
        base + r.path,
        r.uncached ? { headers: { "accept-encoding": "gzip", ...noCache } } : {},
        refUrl,
        { headers: { "accept-encoding": "gzip", "x-route": r.name } },
      );
      const row = {
        route: r.name,
        rps: Math.round(m.rps),
        p50: m.p50,
        p99: m.p99,
        against: r.rendered ? "bare React" : "replay",
        refRps: Math.round(m.refRps),
        ratio: +(m.rps / m.refRps).toFixed(3),
        errors: m.errors,
        bytes: captured.get(r.name).body.length,
      };
      if (!r.path.startsWith("/api/"))
        Object.assign(row, await assetsOf(base, zlib.gunzipSync(captured.get(r.name).body).toString()));
      rows.push(row);
      console.log(
        `${String(row.route).padEnd(22)} rps=${String(row.rps).padStart(6)}  p50=${row.p50}ms  p99=${row.p99}ms  ${r.rendered ? "bare React" : "replay"}=${String(row.refRps).padStart(6)}  ratio=${row.ratio}  doc=${(row.bytes / 1024).toFixed(1)}KB gz` +
          (row.jsKb !== void 0 ? `  js=${row.jsKb}KB css=${row.cssKb}KB gz` : ""),
      );
      if (row.largest?.length) console.log(`${"".padEnd(22)} largest (KB gz): ${row.largest.join(", ")}`);
    }
    const profiled = PROFILE === "0" ? null : routes.find((r) => r.name === PROFILE && !r.rendered);
    const phases = profiled ? await whereTheTimeGoes(profiled.path, everyRoute(noCache)) : null;
    if (only) {
      console.log(JSON.stringify({ connections: CONNECTIONS, seconds: SECONDS, routes: rows, phases }));
      return;
    }
    const home = rows[0];
    const halfRate = { overallRate: Math.max(1, Math.round(home.rps / 2)) };
    await load(`${base}/`, WARMUP, halfRate);
    const half = await load(`${base}/`, SECONDS, halfRate);
    console.log(
      `/ at half of peak (${Math.round(home.rps / 2)} req/s): p50=${half.latency.p50}ms p99=${half.latency.p99}ms`,
    );

    // Memory after a long mixed run, each connection cycling through a visitor-like mix: mostly
    // public pages (cached), and one request in seven rendered each time (the booking wizard, an
    // unknown template's 404 page) or a tRPC query. Also an asset, a case study and the legal pages.
    const mixed = [
      "/",
      "/packages",
      "/templates",
      `/templates/${slug}`,
      "/work",
      "/work/1",
      "/process",
      "/",
      "/templates?category=portfolio",
      "/booking?step=1",
      "/terms",
      "/",
      "/packages",
      "/api/trpc/templates.list",
      "/templates/launchpad",
      "/privacy",
      "/work/2",
      "/templates/nope",
      "/",
      "/favicon.svg",
      "/packages",
    ];
    const mixedRun = await autocannon({
      url: base,
      connections: CONNECTIONS,
      amount: MIXED,
      headers: { "accept-encoding": "gzip" },
      requests: mixed.map((p) => ({ method: "GET", path: p })),
    });
    await new Promise((r) => setTimeout(r, 1000));
    const rssNow = rssKb(server.pid, "VmRSS");
    const rss = rssPeakKb(server.pid);
    console.log(
      `${mixedRun.requests.total} mixed requests (${mixedRun.non2xx} non-2xx, ${mixedRun.errors} errors) in ${mixedRun.duration}s: RSS after ${(rssNow / 1024).toFixed(1)} MB, peak RSS ${(rss / 1024).toFixed(1)} MB`,
    );
    const lists = await listFigures();
    const replica = await replicaLossWindow();
    console.log(
      JSON.stringify({
        connections: CONNECTIONS,
        seconds: SECONDS,
        routes: rows,
        halfPeakP99: half.latency.p99,
        phases,
        mixedRequests: mixedRun.requests.total,
        mixedErrors: mixedRun.errors,
        rssAfterMixedMb: +(rssNow / 1024).toFixed(1),
        peakRssMb: +(rss / 1024).toFixed(1),
        ...lists,
        replica,
      }),
    );
  } finally {
    await refServer?.stop();
    await bareServer?.stop();
    await stop();
  }
}
/**
 * What a dying VPS loses with continuous replication (issue 45.2): five kills of a server and its
 * Litestream while visitors book (tests/perf/replica-loss.mjs), the median loss window in ms.
 * BENCH_REPLICA_KILLS sets how many (0: none).
 */
async function replicaLossWindow() {
  const kills = Number(process.env.BENCH_REPLICA_KILLS ?? 5);
  if (!kills) return null;
  const runs = [];
  for (let i = 0; i < kills; i++) runs.push(await replicaLoss({ seconds: 4 }));
  const windows = runs.map((r) => r.windowMs).sort((a, b) => a - b);
  const medianMs = windows[Math.floor(windows.length / 2)];
  const late = runs.reduce((n, r) => n + r.missingOlderThan1s, 0);
  console.log(
    `replica loss window (median of ${kills} kills): ${medianMs} ms (each: ${runs.map((r) => r.windowMs).join(", ")} ms; ${runs.reduce((n, r) => n + r.acknowledged, 0)} bookings acknowledged, ${late} acknowledged over 1 s before a kill missing)`,
  );
  return { medianMs, windowsMs: runs.map((r) => r.windowMs), missingOlderThan1s: late };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
