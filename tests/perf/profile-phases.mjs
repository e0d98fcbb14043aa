// Where a server's time went, from a V8 CPU profile (`node --cpu-prof`) of the production build:
// each sample is put in the phase of the nearest frame on its stack (from the running function
// outwards) that belongs to one, the bundle's frames read through its source map. Used by
// `npm run bench` for a cached page (docs/performance.md, issue 42.1).
import fs from "node:fs";
import { SourceMap } from "node:module";

/**
 * The phases of a cached request, in the order it meets them, and how a frame is recognised:
 * by the source file it comes from (the bundle's frames, mapped) or, for Node's own, by the
 * function and the module it is in.
 */
export const PHASES = [
  {
    phase: "admission (request line, proxy trust, gzip, ETag)",
    sources: [/server\/http\/trust-proxy/, /proxy-addr|ipaddr\.js/],
    functions: [/^(isSecure|trustedPeer|acceptsGzip|matchesEtag|requestLineRefusal|headerOf)$/],
  },
  { phase: "version check", sources: [/server\/db\/catalogue-version/, /better-sqlite3|kysely/] },
  { phase: "cache lookup", sources: [/server\/http\/page-cache/], functions: [/^(getCachedPage|cacheKeyFor)$/] },
  {
    phase: "headers (the precomputed head, the nonce, writeHead)",
    sources: [/server\/http\/security/],
    functions: [/^(createNonce|cachedPageHead|notModifiedHead|headerEnv|securityHeaders)$/],
    node: [/^(writeHead|_storeHeader|setHeader|processHeader|_implicitHeader|randomBytes|toString)$/],
  },
  {
    phase: "the server's own handler (server/index.ts)",
    sources: [/server\/index\.ts/],
  },
  { phase: "request log", sources: [/server\/log\.server/, /pino|sonic-boom|safe-stable-stringify|quick-format/] },
  {
    phase: "write (body and socket)",
    node: [
      /^(end|write|_send|_writeRaw|_writeGeneric|_writev|writevGeneric|writeGeneric|writev|writeBuffer|writeUtf8String|cork|uncork)$/,
    ],
  },
  {
    phase: "Node's HTTP (parse, socket events, keep-alive)",
    node: [
      /^(parserOnHeadersComplete|parserOnIncoming|parserOnBody|parserOnMessageComplete|onread|onStreamRead|resOnFinish|onFinish|emit|execute|socketOnData|IncomingMessage|ServerResponse)$/,
    ],
  },
];

/** A profile frame's source: the bundle's frames through its map, anything else by its URL. */
function sourceOf(frame, bundleUrl, map) {
  if (map && frame.url === bundleUrl) {
    const entry = map.findEntry(frame.lineNumber, frame.columnNumber);
    return { source: entry?.originalSource ?? "", name: entry?.name ?? frame.functionName };
  }
  return { source: frame.url, name: frame.functionName };
}

/**
 * The busy time of a profile by phase (idle left out): [{ phase, ms, share }], largest first,
 * then "garbage collection" and "other".
 * @param {string} profileFile a .cpuprofile
 * @param {string} bundle the server script the profile ran (its frames are mapped)
 * @param {string} mapFile its source map
 * @param {{ from: number, to: number }} [window] only the samples between these times (µs of the
 *   monotonic clock: `process.hrtime.bigint() / 1000n` of any process on the machine, as V8's)
 */
export function phasesOf(profileFile, bundle, mapFile, window) {
  const profile = JSON.parse(fs.readFileSync(profileFile, "utf8"));
  const map = fs.existsSync(mapFile) ? new SourceMap(JSON.parse(fs.readFileSync(mapFile, "utf8"))) : null;
  const bundleUrl = `file://${bundle}`;
  const parent = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** @type {Map<number, string>} */
  const phaseOfNode = new Map();
  const classify = (id) => {
    if (phaseOfNode.has(id)) return phaseOfNode.get(id);
    const node = byId.get(id);
    let phase;
    if (node.callFrame.functionName === "(idle)") phase = "idle";
    else if (node.callFrame.functionName === "(garbage collector)") phase = "garbage collection";
    else {
      const { source, name } = sourceOf(node.callFrame, bundleUrl, map);
      const isNode = source.startsWith("node:") || source === "";
      // A function named by a phase first (page-cache.server.ts also builds the head), then its file.
      const own = isNode
        ? PHASES.find((p) => p.node?.some((f) => f.test(name)))
        : (PHASES.find((p) => p.functions?.some((f) => f.test(name))) ??
          PHASES.find((p) => p.sources?.some((s) => s.test(source))));
      phase = own ? own.phase : parent.has(id) ? classify(parent.get(id)) : "other";
    }
    phaseOfNode.set(id, phase);
    return phase;
  };
  const time = new Map();
  /** Per phase, the self time of each function that ran in it (the top ones are printed). */
  const functions = new Map();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (window && (at < window.from || at > window.to)) return;
    const phase = classify(id);
    const us = profile.timeDeltas[i] ?? 0;
    time.set(phase, (time.get(phase) ?? 0) + us);
    const { source, name } = sourceOf(byId.get(id).callFrame, bundleUrl, map);
    const fn =
      `${name || "(anonymous)"} ${source.replace(/^.*node_modules\//, "").replace(/^.*?\/(app|server)\//, "$1/")}`.trim();
    const own = functions.get(phase) ?? new Map();
    functions.set(phase, own.set(fn, (own.get(fn) ?? 0) + us));
  });
  time.delete("idle");
  const busy = [...time.values()].reduce((a, b) => a + b, 0) || 1;
  return [...time.entries()]
    .map(([phase, us]) => ({
      phase,
      ms: Math.round(us / 1000),
      share: +(us / busy).toFixed(3),
      top: [...functions.get(phase).entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([fn, fus]) => `${fn} ${Math.round(fus / 1000)} ms`),
    }))
    .sort((a, b) => b.ms - a.ms);
}
