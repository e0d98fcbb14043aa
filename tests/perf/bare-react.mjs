// The bench's bare-React reference: the same React tree the product renders for a page (the
// entry's `documentTree`), with the same data, rendered by `renderToString` alone and gzipped, on
// a plain node:http server in its own process, with the product's V8 flags. What it leaves out is
// what the product adds around React: the security headers and refusals, the request log, Remix's
// request handling (matching, loaders, the session) and the data it hands the browser.
//   DATA_DIR=… APP_URL=… SESSION_SECRET=… NODE_ENV=production node tests/perf/bare-react.mjs /a /b …
// The tree and its data are taken once per path from the production build (the module `npm start`
// loads, server/load-build.js: inline scripts carry its functions' text) on the
// product's data folder: Remix runs each page's loaders once, and its entry is replaced by one
// that keeps the context it is handed. Prints `bare-react listening on PORT`; GET /__html?path=P
// answers one render as plain HTML (the bench compares it with the product's page).
import crypto from "node:crypto";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import { loadServer } from "../../server/load-build.js";

const root = path.resolve(import.meta.dirname, "../..");
// The build carries its own React and Remix (decision 035): the tree is rendered with those.
const { build, renderToString, createRequestHandler } = (await loadServer(root)).server;
/** The entry's own tree (app/entry.server.tsx): the app under RemixServer, with the nonce context. */
const { documentTree } = build.entry.module;
const appUrl = process.env.APP_URL;

/** Remix's context for each path, as its entry is handed it (the loaders run once, here). */
const contexts = new Map();
let handed = null;
const probe = createRequestHandler(
  {
    ...build,
    entry: {
      ...build.entry,
      module: {
        ...build.entry.module,
        default: (_request, status, headers, context) => {
          handed = { status, headers, context };
          return new Response("");
        },
      },
    },
  },
  "production",
);
for (const p of process.argv.slice(2)) {
  handed = null;
  await probe(new Request(appUrl + p, { headers: { accept: "text/html" } }), { nonce: "", clientIp: "" });
  if (!handed) throw new Error(`${p}: Remix answered without rendering a document`);
  const type = handed.headers.get("content-type") ?? "text/html; charset=utf-8";
  contexts.set(p, { status: handed.status, type, context: handed.context });
}

/** One render: the entry's tree with renderToString. */
function render(p, nonce) {
  const { context } = contexts.get(p);
  // Hydration data is Remix's to serialize, not React's: the reference renders none.
  context.serverHandoffStream = undefined;
  context.renderMeta = {};
  return "<!DOCTYPE html>" + renderToString(documentTree(context, appUrl + p, nonce));
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (url.pathname === "/__html") {
    const p = url.searchParams.get("path") ?? "/";
    if (!contexts.has(p)) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    return res.end(render(p, "NONCE"));
  }
  const p = req.url ?? "/";
  const page = contexts.get(p);
  if (!page) return res.writeHead(404).end();
  const body = zlib.gzipSync(render(p, crypto.randomBytes(16).toString("base64")));
  res.writeHead(page.status, { "content-type": page.type, "content-encoding": "gzip", "content-length": body.length });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => console.log(`bare-react listening on ${server.address().port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
