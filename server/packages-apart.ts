import { createRequire } from "node:module";
import path from "node:path";
import { besideServer, runtimeFile } from "./runtime-files";

/**
 * Packages the built server reads from files of their own at their first use, instead of carrying
 * their code in its script: pdf-lib, node-forge and @signpdf (signed documents), Stripe's SDK,
 * nodemailer, SendGrid's SDK and tsdav. V8 holds a script's whole source for as long as the process
 * runs, the parts never called too, and a studio without SMTP or a CalDAV calendar never calls
 * those. `npm run build` writes one CommonJS bundle per group into build/apart/ (scripts/build.mjs);
 * the single binary puts each in its runtime folder at its first use (server/runtime-files.ts).
 * The build's `packages-apart` plugin
 * (scripts/server-bundle.mjs) turns each `import("stripe")` and the like into
 * `packageApart("stripe", "stripe")`; run from source (tests, `npm run dev`) the imports stay as
 * written. See docs/decisions/042-packages-apart.md.
 */

/** build/apart/: server/load-build.js's PACKAGES_DIR (not imported: that module loads the build). */
const PACKAGES_DIR = "apart";

const groups = new Map<string, Record<string, unknown>>();

function folder(): string {
  const found = process.env.STUDIO_PACKAGES_DIR || besideServer(`${PACKAGES_DIR}/`);
  if (found) return found;
  throw new Error(`build/${PACKAGES_DIR}/ is missing: run \`npm run build\`, or set STUDIO_PACKAGES_DIR to it`);
}

/** `name`'s exports, from the bundle of `group` (read once). */
export function packageApart(group: string, name: string): unknown {
  let loaded = groups.get(group);
  if (!loaded) {
    const file = runtimeFile(`${PACKAGES_DIR}/${group}.cjs`) ?? path.join(folder(), `${group}.cjs`);
    loaded = createRequire(import.meta.url)(file) as Record<string, unknown>;
    groups.set(group, loaded);
  }
  if (!(name in loaded)) throw new Error(`${name} is not in build/${PACKAGES_DIR}/${group}.cjs`);
  return loaded[name];
}
