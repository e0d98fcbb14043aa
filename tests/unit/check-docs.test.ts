import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkDocs } from "../../scripts/check-docs.mjs";

// Issue 41.5: the docs name only paths that exist, and every decision record says where it stands.
let root: string | undefined;

/** A small repository: the files named by `files` (a trailing / makes a folder), each with its text. */
function repo(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "check-docs-"));
  root = dir;
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    if (name.endsWith("/")) fs.mkdirSync(file, { recursive: true });
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    }
  }
  return dir;
}

afterEach(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe("check-docs", () => {
  it("reports exactly the path that does not exist", () => {
    const dir = repo({
      "server/index.ts": "",
      "README.md": "# Studio\n\nThe server is `server/index.ts`; the cache was `server/http/page-cache.server.ts`.\n",
    });
    expect(checkDocs(dir)).toEqual(["README.md:3 names server/http/page-cache.server.ts, which does not exist"]);
  });

  it("reads links from their file's folder, and lines, anchors, globs, placeholders and build output pass", () => {
    const dir = repo({
      "server/index.ts": "",
      "docs/decisions/001-one.md": "# 001: One\n\nStatus: Accepted.\n",
      "docs/guide.md": [
        "See `server/index.ts:12`, `server/index.ts#start`, [the record](decisions/001-one.md#context),",
        "`server/http/*`, `server/{a,b}/x.ts`, `docs/decisions/NNN-title.md`, `server/<name>.ts`, `server/…`,",
        "`build/index.js`, `dist/studio`, `data/app.db`, `node_modules/x/y.js`, `public/build/x.js`, and",
        "`DATA_DIR/storage`, `money.test.ts`, plain words: server/gone.ts.",
        "```sh",
        "node scripts/gone.mjs `server/gone.ts`",
        "```",
        "But [this link](decisions/002-two.md) and `app/` are missing, and `server/index.ts/` is not a folder.",
        "",
      ].join("\n"),
    });
    expect(checkDocs(dir)).toEqual([
      "docs/guide.md:8 names app/, which does not exist",
      "docs/guide.md:8 names server/index.ts/, which is not a folder",
      "docs/guide.md:8 names docs/decisions/002-two.md, which does not exist",
    ]);
  });

  it("names a top-level file that is not there", () => {
    const dir = repo({
      "package.json": "{}",
      "SECURITY.md": "`package.json` and `CHANGELOG.md` and `tsconfig.json`\n",
    });
    expect(checkDocs(dir)).toEqual([
      "SECURITY.md:1 names CHANGELOG.md, which does not exist",
      "SECURITY.md:1 names tsconfig.json, which does not exist",
    ]);
  });

  it("requires a decision record's title line and status, and the records its status names", () => {
    const dir = repo({
      "docs/decisions/001-one.md": "# 001: One\n\nStatus: Superseded by 002.\n",
      "docs/decisions/002-two.md": "# 002: Two\n\n## Context\n",
      "docs/decisions/003-three.md": "# 003: Three\n\nStatus: Accepted, amended by 001 and 009.\n",
      "docs/decisions/004-four.md": "# 004 — Four\n\nStatus: Accepted.\n",
    });
    expect(checkDocs(dir)).toEqual([
      "docs/decisions/002-two.md:3 has no Status line after its title (Status: Accepted., Status: Superseded by NNN. or Status: Accepted, amended by NNN.)",
      "docs/decisions/003-three.md:3 names decision 009, which does not exist",
      "docs/decisions/004-four.md:1 does not open with its title line (# 004: title)",
    ]);
  });

  it("passes on this repository's own docs", () => {
    const here = path.resolve(import.meta.dirname, "../..");
    expect(checkDocs(here)).toEqual([]);
  });
});
