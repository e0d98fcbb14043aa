// npm run lighthouse: Lighthouse (default config: mobile, simulated throttling) against the
// production build on the public pages, with budgets. Exits 1 when any budget is missed.
//   CHROMIUM_PATH   Chromium/Chrome binary (default /usr/bin/chromium)
//   LH_PAGES        comma-separated paths instead of the default four
//   LH_RUNS         runs per page (default 3, as Lighthouse advises); the run with the median performance
//                   score is the one reported (all scores are in the JSON line as perfRuns)
//   LH_REPORT_DIR   when set, each page's (median) report is written there as JSON and HTML
// Simulated throttling scales the main-thread work observed on this machine: on a busy or slow
// machine (low benchmarkIndex, shown in the JSON line) performance scores drop; use LH_RUNS=3+.
import fs from "node:fs";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ReportGenerator } from "lighthouse/report/generator/report-generator.js";
import { startServer } from "./server.mjs";

const PAGES = process.env.LH_PAGES
  ? process.env.LH_PAGES.split(",")
      .map((p) => p.trim())
      .filter(Boolean)
  : ["/", "/packages", "/booking", "/templates"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const BUDGET = { performance: 100, accessibility: 100, "best-practices": 100, seo: 100, cls: 0 };
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const chromePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const reportDir = process.env.LH_REPORT_DIR;
const RUNS = Math.max(1, Number(process.env.LH_RUNS ?? 3) || 1);

const score = (lhr, id) => {
  const s = lhr.categories[id]?.score;
  return s === null || s === undefined ? null : Math.round(s * 100);
};

/** Failing audits of a category that count towards its score, with what Lighthouse says about each. */
function failingAudits(lhr, categoryId) {
  const out = [];
  for (const ref of lhr.categories[categoryId].auditRefs) {
    const a = lhr.audits[ref.id];
    if (!a || ref.weight === 0 || a.score === null || a.score >= 1) continue;
    if (categoryId === "performance" && a.score >= 0.9) continue;
    const lines = [`[${ref.id}] ${a.title}${a.displayValue ? ` (${a.displayValue})` : ""}, score ${a.score}`];
    if (a.errorMessage) lines.push(`  error: ${a.errorMessage}`);
    if (a.explanation) lines.push(`  ${a.explanation}`);
    for (const item of (a.details?.items ?? []).slice(0, 10)) {
      const node = item.node ?? item.element;
      const parts = [];
      if (node?.selector) parts.push(node.selector);
      if (node?.snippet) parts.push(node.snippet.slice(0, 160));
      if (node?.explanation) parts.push(node.explanation.replace(/\s+/g, " "));
      for (const k of ["source", "description", "url", "directive", "severity", "failureTitle"]) {
        const v = item[k];
        if (typeof v === "string" && v) parts.push(`${k}: ${v}`);
        else if (v && typeof v === "object" && v.type === "source-location")
          parts.push(`${k}: ${v.url}:${v.line}:${v.column}`);
        else if (v && typeof v === "object" && v.type === "node") parts.push(`${k}: ${v.snippet ?? v.selector}`);
      }
      if (parts.length) lines.push(`  - ${parts.join(" | ")}`);
    }
    out.push(lines.join("\n"));
  }
  return out;
}

/** Elements behind any layout shift (CLS budget is 0). */
function layoutShifts(lhr) {
  const items = lhr.audits["layout-shifts"]?.details?.items ?? [];
  return items.map(
    (i) =>
      `  - ${i.node?.selector ?? "(unknown)"} score ${i.score?.toFixed?.(4) ?? i.score}${i.node?.snippet ? ` ${i.node.snippet.slice(0, 120)}` : ""}`,
  );
}

/** The run with the median performance score (the lower middle one for an even count). */
function medianRun(runs) {
  const failed = runs.find((r) => r.runtimeError || score(r, "performance") === null);
  if (failed) return failed;
  const sorted = runs.slice().sort((a, b) => score(a, "performance") - score(b, "performance"));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** One Lighthouse run in a fresh Chromium (default config: mobile, simulated throttling). */
async function runOnce(url) {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: CHROME_FLAGS, logLevel: "silent" });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: CATEGORIES,
    });
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    return result.lhr;
  } finally {
    chrome.kill();
  }
}

async function audit(base, pagePath) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    // A run can fail on its own (e.g. NO_NAVSTART on a busy machine): up to two more tries.
    let lhr = await runOnce(base + pagePath);
    for (
      let retry = 0;
      lhr.runtimeError && !/DOCUMENT_REQUEST|INVALID_URL|DNS_FAILURE/.test(lhr.runtimeError.code) && retry < 2;
      retry++
    ) {
      console.warn(`${pagePath}: ${lhr.runtimeError.code}, running again`);
      lhr = await runOnce(base + pagePath);
    }
    runs.push(lhr);
  }
  const lhr = runs.length > 1 ? medianRun(runs) : runs[0];
  if (reportDir) {
    fs.mkdirSync(reportDir, { recursive: true });
    const name = pagePath === "/" ? "home" : pagePath.replace(/^\/+/, "").replace(/[^\w-]+/g, "_");
    fs.writeFileSync(path.join(reportDir, `${name}.json`), JSON.stringify(lhr));
    fs.writeFileSync(path.join(reportDir, `${name}.html`), ReportGenerator.generateReportHtml(lhr));
  }
  return { lhr, perfRuns: runs.map((r) => score(r, "performance")) };
}

async function main() {
  const { base, stop } = await startServer({ prefix: "studio-lighthouse-" });
  const rows = [];
  const problems = [];
  try {
    for (const pagePath of PAGES) {
      const { lhr, perfRuns } = await audit(base, pagePath);
      const metric = (id) => lhr.audits[id]?.numericValue ?? null;
      const row = {
        page: pagePath,
        performance: score(lhr, "performance"),
        accessibility: score(lhr, "accessibility"),
        "best-practices": score(lhr, "best-practices"),
        seo: score(lhr, "seo"),
        cls: metric("cumulative-layout-shift") === null ? null : +metric("cumulative-layout-shift").toFixed(4),
        lcpMs: metric("largest-contentful-paint") === null ? null : Math.round(metric("largest-contentful-paint")),
        tbtMs: metric("total-blocking-time") === null ? null : Math.round(metric("total-blocking-time")),
        fcpMs: metric("first-contentful-paint") === null ? null : Math.round(metric("first-contentful-paint")),
        benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
        ...(RUNS > 1 ? { perfRuns } : {}),
        lighthouse: lhr.lighthouseVersion,
      };
      rows.push(row);
      if (lhr.runtimeError)
        problems.push(`${pagePath}: runtime error ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      for (const w of lhr.runWarnings ?? []) console.warn(`${pagePath}: warning: ${w}`);
      for (const c of CATEGORIES) {
        if (row[c] === null || row[c] < BUDGET[c]) {
          const audits = failingAudits(lhr, c);
          problems.push(
            `${pagePath}: ${c} ${row[c]} < ${BUDGET[c]}${audits.length ? "\n" + audits.map((a) => "  " + a.replace(/\n/g, "\n  ")).join("\n") : ""}`,
          );
        }
      }
      if (row.cls === null || row.cls > BUDGET.cls)
        problems.push(`${pagePath}: CLS ${row.cls} > ${BUDGET.cls}\n${layoutShifts(lhr).join("\n")}`);
    }
  } finally {
    await stop();
  }

  const cols = [
    ["page", 12, (r) => r.page],
    ["perf", 5, (r) => r.performance],
    ["a11y", 5, (r) => r.accessibility],
    ["best-pr", 8, (r) => r["best-practices"]],
    ["seo", 5, (r) => r.seo],
    ["CLS", 7, (r) => r.cls],
    ["LCP ms", 7, (r) => r.lcpMs],
    ["TBT ms", 7, (r) => r.tbtMs],
  ];
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(cols[i][1]) : String(c).padStart(cols[i][1]))).join("  ");
  console.log(line(cols.map((c) => c[0])));
  for (const r of rows) console.log(line(cols.map((c) => c[2](r) ?? "-")));
  console.log(
    JSON.stringify({
      lighthouse: rows[0]?.lighthouse,
      formFactor: "mobile",
      throttling: "simulate",
      runs: RUNS,
      budget: BUDGET,
      pages: rows.map(({ lighthouse: _v, ...r }) => r),
    }),
  );
  if (problems.length) {
    console.error(`\nBudget missed:\n${problems.join("\n")}`);
    process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
