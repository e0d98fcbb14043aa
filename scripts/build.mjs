// `npm run build`: Remix's production build with source maps for the SERVER only (decision 027).
// Remix's classic compiler has one switch for both builds (`--sourcemap`); the browser's maps
// would publish the app's sources under /build, so they are removed here with the comments that
// name them. build/index.js.map stays beside the server bundle (scripts/build-binary.mjs composes
// the binary's map from it), and build/index.product.js.map is that map reduced to the product's
// own code, which the log maps the stacks it writes through under `npm start` (server/main.js):
// Node's own source maps (--enable-source-maps) parse the whole map at the first stack they
// format, some 25 MB more RSS for as long as the server runs.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { productMap } from "./product-map.mjs";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const remix = path.join(root, "node_modules", "@remix-run", "dev", "dist", "cli.js");
const result = spawnSync(process.execPath, [remix, "build", "--sourcemap"], {
  cwd: root,
  encoding: "utf8",
  stdio: ["ignore", "inherit", "pipe"],
});
// Remix warns that `--sourcemap` publishes the server's code: not so once the browser maps are gone.
process.stderr.write(result.stderr.replace(/^.*source maps enabled in production[\s\S]*?^┗\n/mu, ""));
if (result.status !== 0) process.exit(result.status ?? 1);

const client = path.join(root, "public", "build");
let removed = 0;
for (const entry of fs.readdirSync(client, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  if (file.endsWith(".map")) {
    fs.rmSync(file);
    removed++;
  } else if (/\.(js|css)$/.test(file)) {
    const text = fs.readFileSync(file, "utf8");
    const stripped = text.replace(/\n?(\/\/# sourceMappingURL=\S+|\/\*# sourceMappingURL=\S+ \*\/)\s*$/, "\n");
    if (stripped !== text) fs.writeFileSync(file, stripped);
  }
}
if (!fs.existsSync(path.join(root, "build", "index.js.map"))) throw new Error("build/index.js.map was not written");
productMap(path.join(root, "build", "index.js.map"), path.join(root, "build", "index.product.js.map"));
console.log(
  `server source map: build/index.js.map (product code: build/index.product.js.map); ${removed} browser source maps removed from public/build`,
);
