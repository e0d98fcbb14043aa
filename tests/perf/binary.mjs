// npm run bench:binary (after npm run build:binary): the figures issue 17 asks of the single
// binary, printed as a table and one JSON line:
// - the file size of dist/studio, and gzipped;
// - cold start: the binary copied alone into an empty folder, from spawn to the first 200 on `/`
//   (median of BENCH_STARTS runs, each in a new folder, migrations and the sample seed included),
//   side by side with a hello-world node:http server on the same runtime (the registry's Node the
//   binary embeds, from .cache/binary/, with the same V8 flags), started alternately (issue 42.4:
//   at most 4 times its start);
// - RSS after 200 rendered pages (the public pages, cached and not, and booking step 1), median of
//   BENCH_RSS_RUNS servers;
// - the uncached render throughput of /booking?step=1, the binary against `npm start`
//   (node server/main.js with the same V8 flags) in one run, alternating rounds.
// BENCH_CONNECTIONS, BENCH_SECONDS (per side, split into BENCH_ROUNDS rounds), BENCH_STARTS.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import url from "node:url";
import zlib from "node:zlib";
import autocannon from "autocannon";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../..");
const binary = path.join(root, "dist", "studio");
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const STARTS = Math.max(1, Number(process.env.BENCH_STARTS ?? 5));
const PAGES = [
  "/",
  "/packages",
  "/process",
  "/work",
  "/templates",
  "/templates/atelier",
  "/terms",
  "/privacy",
  "/booking?step=1",
  "/booking",
];

if (!fs.existsSync(binary)) {
  console.error("dist/studio is missing: run `npm run build:binary` first");
  process.exit(1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts `command` in `cwd` on a free port with its own DATA_DIR; resolves once `/` answers 200, with the time that took. */
async function launch(command, args, cwd) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-data-"));
  const started = process.hrtime.bigint();
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH, PORT: String(port), DATA_DIR: dataDir },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}: ${stderr}`);
    const ok = await fetch(`${base}/`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const startMs = Number(process.hrtime.bigint() - started) / 1e6;
  const stop = () =>
    new Promise((resolve) => {
      child.once("exit", resolve);
      child.kill("SIGTERM");
    }).finally(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return { base, child, startMs, stop };
}

function rssMb(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/**
 * Where the RSS is: the executable's own pages (Node's code, its ICU data, our blob: clean, read
 * from the file, dropped by the kernel under memory pressure) and the memory the process wrote
 * (V8's heap, Node's and SQLite's allocations: Private_Dirty).
 */
function rssParts(pid, executable) {
  let file = 0;
  let name = "";
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) name = mapping[1];
    else if (name === executable && line.startsWith("Rss:")) file += Number(line.split(/\s+/)[1]);
  }
  const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const written = Number(/Private_Dirty:\s+(\d+)/.exec(rollup)?.[1] ?? 0);
  return { executableMB: +(file / 1024).toFixed(1), writtenMB: +(written / 1024).toFixed(1) };
}

const median = (xs, by = (x) => x) => [...xs].sort((a, b) => by(a) - by(b))[Math.floor(xs.length / 2)];

/**
 * A new folder holding only a copy of the binary, as a self-hoster would start it. `synced`: the
 * copy is on the disk before it runs, as a deployed binary is (the cold starts are timed so). A
 * start that overlaps the copy's own write-back waits on it: the kernel holds a page fault on a
 * page being written, and the executable is 120 MB (about 150 ms more here). The RSS runs start
 * it unsynced, as before (a synced copy's clean pages in the page cache are mapped into the
 * process more eagerly: about 30 MB more RSS of the file itself, which the kernel drops first).
 */
function aloneInAFolder({ synced = false } = {}) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "studio-bench-bin-"));
  const copy = path.join(folder, "studio");
  fs.copyFileSync(binary, copy);
  if (synced) {
    const fd = fs.openSync(copy, "r+");
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  }
  fs.chmodSync(copy, 0o755);
  return folder;
}
const mb = (bytes) => +(bytes / 1e6).toFixed(1);

// 1. Size.
const size = fs.statSync(binary).size;
let gzipped = 0;
await new Promise((resolve, reject) => {
  fs.createReadStream(binary)
    .pipe(zlib.createGzip({ level: 9 }))
    .on("data", (c) => (gzipped += c.length))
    .on("end", resolve)
    .on("error", reject);
});

// 2. Cold start, alone in an empty folder each time, and the same runtime's hello-world between.
const nodeFlags = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
  .config.nodeFlags.split(/\s+/)
  .filter(Boolean);
const embedded = /on Node v(\d+\.\d+\.\d+)/.exec(
  (await import("node:child_process")).execFileSync(binary, ["--version"], { encoding: "utf8" }),
)?.[1];
const runtime = embedded ? path.join(root, ".cache", "binary", `node-v${embedded}`, "bin", "node") : null;
const helloWorld = "require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT));";
const starts = [];
const helloStarts = [];
for (let i = 0; i < STARTS; i++) {
  const folder = aloneInAFolder({ synced: true });
  const s = await launch("./studio", [], folder);
  starts.push(s.startMs);
  await s.stop();
  fs.rmSync(folder, { recursive: true, force: true });
  if (runtime && fs.existsSync(runtime)) {
    const h = await launch(runtime, [...nodeFlags, "-e", helloWorld], os.tmpdir());
    helloStarts.push(h.startMs);
    await h.stop();
  }
}

// 3. RSS after 200 rendered pages: the median of BENCH_RSS_RUNS servers, each in a new folder
// (one reading varies by a few MB); the last one stays up for the throughput runs.
const RSS_RUNS = Math.max(1, Number(process.env.BENCH_RSS_RUNS ?? 3));
const rssReadings = [];
let bin;
let folder;
for (let run = 0; run < RSS_RUNS; run++) {
  if (bin) {
    await bin.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
  folder = aloneInAFolder();
  bin = await launch("./studio", [], folder);
  for (let i = 0; i < 200; i++) {
    const res = await fetch(bin.base + PAGES[i % PAGES.length], { headers: { "accept-encoding": "gzip" } });
    await res.arrayBuffer();
  }
  await new Promise((r) => setTimeout(r, 500));
  rssReadings.push({
    rss: rssMb(bin.child.pid),
    parts: rssParts(bin.child.pid, fs.realpathSync(path.join(folder, "studio"))),
  });
}
const middle = median(rssReadings, (r) => r.rss);
const rss = middle.rss;
const parts = middle.parts;

// 4. Uncached render throughput of /booking?step=1: the binary against npm start, alternating rounds.
const npmStart = await launch(process.execPath, [...nodeFlags, "server/main.js"], root);
const target = "/booking?step=1";
const load = (base, duration) =>
  autocannon({ url: base + target, connections: CONNECTIONS, duration, headers: { "accept-encoding": "gzip" } });
await load(bin.base, 1);
await load(npmStart.base, 1);
const runs = { binary: [], npmStart: [] };
for (let i = 0; i < ROUNDS; i++) {
  runs.binary.push(await load(bin.base, SECONDS / ROUNDS));
  runs.npmStart.push(await load(npmStart.base, SECONDS / ROUNDS));
}
const rate = (rs) => rs.reduce((n, r) => n + r.requests.total, 0) / rs.reduce((t, r) => t + r.duration, 0);
const non2xx = [...runs.binary, ...runs.npmStart].reduce((n, r) => n + r.non2xx + r.errors, 0);
const binRps = rate(runs.binary);
const npmRps = rate(runs.npmStart);
await bin.stop();
await npmStart.stop();
fs.rmSync(folder, { recursive: true, force: true });

const result = {
  node: (await import("node:child_process")).execFileSync(binary, ["--version"], { encoding: "utf8" }).trim(),
  sizeMB: mb(size),
  gzippedMB: mb(gzipped),
  coldStartMs: Math.round(median(starts)),
  coldStartsMs: starts.map(Math.round),
  helloWorldStartMs: helloStarts.length ? Math.round(median(helloStarts)) : null,
  helloWorldStartsMs: helloStarts.map(Math.round),
  coldStartRatio: helloStarts.length ? +(median(starts) / median(helloStarts)).toFixed(2) : null,
  rssAfter200PagesMB: +rss.toFixed(1),
  rssReadingsMB: rssReadings.map((r) => +r.rss.toFixed(1)),
  rssParts: parts,
  bookingStep1: {
    binaryRps: Math.round(binRps),
    npmStartRps: Math.round(npmRps),
    ratio: +(binRps / npmRps).toFixed(2),
    non2xx,
  },
};
const goal = (ok) => (ok ? "met" : "not met");
console.log(`| figure | value | goal |
| --- | --- | --- |
| file size | ${result.sizeMB} MB | ≤ 100 MB: ${goal(result.sizeMB <= 100)} |
| gzipped | ${result.gzippedMB} MB | ≤ 40 MB: ${goal(result.gzippedMB <= 40)} |
| cold start to the first 200 on / (median of ${STARTS}) | ${result.coldStartMs} ms | ≤ 350 ms: ${goal(result.coldStartMs <= 350)} |
| the same runtime's hello-world (median of ${STARTS}, alternating) | ${result.helloWorldStartMs ?? "not measured (no .cache/binary runtime)"} ms | |
| cold start / hello-world | ${result.coldStartRatio ?? "-"} | ≤ 4: ${goal((result.coldStartRatio ?? Infinity) <= 4)} |
| RSS after 200 rendered pages (median of ${RSS_RUNS}) | ${result.rssAfter200PagesMB} MB | ≤ 110 MB: ${goal(result.rssAfter200PagesMB <= 110)} |
| of it, the executable's own pages / memory written | ${parts.executableMB} MB / ${parts.writtenMB} MB | (for reading the RSS) |
| /booking?step=1 uncached, binary vs npm start | ${result.bookingStep1.binaryRps} vs ${result.bookingStep1.npmStartRps} req/s (${result.bookingStep1.ratio}) | not slower: ${goal(result.bookingStep1.ratio >= 0.95)} |`);
console.log(JSON.stringify(result));
