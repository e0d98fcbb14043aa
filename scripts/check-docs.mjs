// @ts-check
// Docs that cannot drift (issue 41.5): README.md, SECURITY.md and every markdown file under docs/
// may name only repository paths that exist, and every decision record says where it stands.
//
//   node scripts/check-docs.mjs     exit 0 when the docs hold, else exit 1 with one line per problem:
//   FILE:LINE names PATH, which does not exist
//
// A repository path is a backticked word, or a markdown link's target, that starts with one of the
// repository's top-level folders (app/, server/, tests/, ...) or is a top-level file's name
// (package.json, README.md, ...). A trailing `:line` or `#anchor` is allowed. Not checked: globs
// (`*`, `{a,b}`), placeholders (`<bucket>`, `…`, `...`, `NNN`), what the build or a run makes
// (build/, dist/, node_modules/, data/, .cache/, public/build/), fenced code blocks (commands, logs,
// the README's folder map). A link's target is read from the linking file's folder, like GitHub does.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The top-level folders a docs path may start with (besides any other folder at the top). */
const TOP_FOLDERS = ["app", "server", "tests", "scripts", "migrations", "public", "deploy", "docs", ".ci"];

/** Made at build or run time: named by the docs, never in a checkout. */
const GENERATED = ["build/", "dist/", "node_modules/", "data/", ".cache/", "public/build/"];

/** Names that mean a top-level file even when it is not there (the usual ones). */
const TOP_FILE =
  /^(?:[A-Z][A-Z0-9_-]*\.md|LICENSE|Dockerfile|package(?:-lock)?\.json|tsconfig(?:\.[\w-]+)?\.json|[\w-]+\.config\.[cm]?[jt]s|remix\.env\.d\.ts|\.(?:gitignore|dockerignore|prettierrc\.json|prettierignore|npmrc|nvmrc))$/;

/** A glob or a placeholder: a pattern for many paths, or a name left for the reader to fill in. */
const PATTERN = /[*?{}<>]|…|\.\.\.|NNN/;

const STATUS = /^Status: (?:Accepted\.|Superseded by (\d{3})\.|Accepted, amended by (\d{3}(?:(?:, | and )\d{3})*)\.)$/;

/**
 * The markdown files the check reads, relative to root: README.md, SECURITY.md, docs/**.
 * @param {string} root
 * @returns {string[]}
 */
export function docFiles(root) {
  const files = ["README.md", "SECURITY.md"].filter((f) => fs.existsSync(path.join(root, f)));
  /** @param {string} dir */
  const walk = (dir) => {
    const abs = path.join(root, dir);
    if (!fs.existsSync(abs)) return;
    for (const entry of fs.readdirSync(abs, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) files.push(rel);
    }
  };
  walk("docs");
  return files;
}

/**
 * The path-like words of one line outside fenced blocks: each backticked word and each link target.
 * @param {string} line
 * @returns {{ token: string, link: boolean }[]}
 */
function candidates(line) {
  /** @type {{ token: string, link: boolean }[]} */
  const found = [];
  const code = /(`+)([^`]+?)\1/g;
  for (const m of line.matchAll(code)) {
    for (const word of m[2].split(/\s+/)) if (word) found.push({ token: word, link: false });
  }
  const outsideCode = line.replace(code, "");
  for (const m of outsideCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    found.push({ token: m[1], link: true });
  }
  return found;
}

/**
 * What a word names in the repository, relative to root, or null when it names nothing to check.
 * @param {string} word
 * @param {boolean} link
 * @param {string} fromDir the folder of the file that names it (links are read from there)
 * @param {(name: string) => boolean} isTopFolder
 * @returns {string | null}
 */
function repoPath(word, link, fromDir, isTopFolder) {
  let p = word.replace(/^[("']+/, "").replace(/[)"',;.]+$/, "");
  if (link) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(p) || p.startsWith("#") || p.startsWith("//")) return null;
    p = p.replace(/#.*$/, "");
    if (!p) return null;
    p = p.startsWith("/") ? p.slice(1) : path.posix.normalize(path.posix.join(fromDir, p));
    if (p.startsWith("../")) return p;
  } else {
    p = p.replace(/#.*$/, "").replace(/(?::\d+)+$/, "");
    if (p.startsWith("./")) p = p.slice(2);
  }
  if (!p || PATTERN.test(p)) return null;
  if (GENERATED.some((g) => p === g.slice(0, -1) || p.startsWith(g))) return null;
  const slash = p.indexOf("/");
  if (slash === -1) return TOP_FILE.test(p) ? p : null;
  if (!isTopFolder(p.slice(0, slash))) return null;
  return /^[\w.@$[\]+/-]+$/.test(p) ? p : null;
}

/**
 * Checks the docs under root; returns one line per problem, empty when they hold.
 * @param {string} root the repository's folder
 * @returns {string[]}
 */
export function checkDocs(root) {
  const tops = new Set(TOP_FOLDERS);
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) if (entry.isDirectory()) tops.add(entry.name);
  /** @param {string} name */
  const isTopFolder = (name) => tops.has(name);
  /** @type {Map<string, fs.Stats | null>} */
  const seen = new Map();
  /** @param {string} rel */
  const stat = (rel) => {
    if (!seen.has(rel)) seen.set(rel, fs.statSync(path.join(root, rel), { throwIfNoEntry: false }) ?? null);
    return seen.get(rel);
  };

  /** @type {string[]} */
  const problems = [];
  for (const file of docFiles(root)) {
    const lines = fs.readFileSync(path.join(root, file), "utf8").split("\n");
    const fromDir = path.posix.dirname(file);
    let fence = "";
    lines.forEach((line, i) => {
      const opens = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (opens && opens[1][0] === fence[0] && opens[1].length >= fence.length) fence = "";
        return;
      }
      if (opens) {
        fence = opens[1];
        return;
      }
      for (const { token, link } of candidates(line)) {
        const p = repoPath(token, link, fromDir, isTopFolder);
        if (p === null) continue;
        const found = p.startsWith("../") ? null : stat(p.replace(/\/$/, "") || ".");
        if (!found) problems.push(`${file}:${i + 1} names ${p}, which does not exist`);
        else if (p.endsWith("/") && !found.isDirectory())
          problems.push(`${file}:${i + 1} names ${p}, which is not a folder`);
      }
    });
    if (/^docs\/decisions\/\d{3}-[^/]*\.md$/.test(file)) problems.push(...checkDecision(root, file, lines));
  }
  return problems;
}

/**
 * A decision record opens with `# NNN: title` (NNN its file's number), then its Status line;
 * a record it names as superseding or amending it exists.
 * @param {string} root
 * @param {string} file
 * @param {string[]} lines
 * @returns {string[]}
 */
function checkDecision(root, file, lines) {
  const number = path.posix.basename(file).slice(0, 3);
  if (!new RegExp(`^# ${number}: \\S`).test(lines[0] ?? "")) {
    return [`${file}:1 does not open with its title line (# ${number}: title)`];
  }
  let at = 1;
  while (at < lines.length && lines[at].trim() === "") at++;
  const status = STATUS.exec(lines[at] ?? "");
  if (!status) {
    return [
      `${file}:${at + 1} has no Status line after its title (Status: Accepted., Status: Superseded by NNN. or Status: Accepted, amended by NNN.)`,
    ];
  }
  const named = [...(status[1] ?? status[2] ?? "").matchAll(/\d{3}/g)].map((m) => m[0]);
  const records = fs.readdirSync(path.join(root, "docs/decisions"));
  return named
    .filter((n) => n === number || !records.some((r) => r.startsWith(`${n}-`) && r.endsWith(".md")))
    .map((n) => `${file}:${at + 1} names decision ${n}, which ${n === number ? "is itself" : "does not exist"}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const problems = checkDocs(root);
  for (const problem of problems) console.log(problem);
  if (problems.length > 0) {
    console.error(`check:docs: ${problems.length} problem${problems.length === 1 ? "" : "s"} in the docs`);
    process.exit(1);
  }
}
