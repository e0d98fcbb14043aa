// The single binary's entry (`npm run build:binary` → dist/studio; scripts/build-binary.mjs bundles
// this file, the Remix build and the server into one CommonJS script for Node's single executable
// applications). `./studio` serves exactly as `npm start` does; `./studio migrate|seed|admin|backup|
// restore` are the operator commands of server/cli.ts; `--version` and `--help` print and exit.
//
// At run time the binary needs some files on disk: the better-sqlite3 addon (loaded with
// process.dlopen, which takes only a file), written at the start, and public/ (served by
// express.static, as under `npm start`), the packages read apart and the source map, each written
// at its first use (server/runtime-files.ts). They go once per build id into STUDIO_RUNTIME_DIR
// (default DATA_DIR/.runtime), into <runtime>/<build id>/; older builds' folders there are
// removed. They come from the binary's payload (server/binary-payload.js). See docs/decisions/012. The server's module is #build
// (package.json's imports: build/index.js, which esbuild bundles in).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { APP, openPayload } from "./binary-payload.js";

/** @typedef {import("./binary-payload.js").Payload} Payload */
/** @typedef {import("./binary-payload.js").BuildInfo} BuildInfo */

const usage = `usage: studio [command]

  (no command)                  serve on PORT (default 3000) with DATA_DIR (default ./data),
                                as \`npm start\` does
  migrate                       apply pending migrations
  seed [--force]                seed the sample templates if this data folder never had them
                                (--force: add the missing ones)
  admin grant EMAIL [--super]   make EMAIL an admin (or super admin), creating the user
  admin revoke EMAIL            take EMAIL's admin rights away
  admin login-link EMAIL        print a one-time sign-in link for admin EMAIL (10 minutes;
                                run with the server's APP_URL and SESSION_SECRET)
  backup [FILE]                 one file holding the database, the files and a manifest with
                                checksums (safe while the server runs); default BACKUP_DIR,
                                or DATA_DIR/backups
  restore FILE|s3:KEY           restore a backup (or the off-site copy KEY; s3:latest, the newest)
                                into DATA_DIR, database and files together (refused while the
                                server runs; what it replaces is kept)
  restore replica:latest|replica:TIME
                                restore the continuous replica REPLICA_URL names (to TIME, such
                                as replica:2027-01-05T10:00:00Z) into an empty DATA_DIR
  install --domain D --email E  as root on a fresh Debian or Ubuntu VPS: the studio user,
                                /srv/studio, /etc/studio.env, a hardened systemd service with
                                its own HTTPS certificate for D, started; prints the setup link
                                (--dry-run: what it would do; a second run changes nothing)
  --version                     print the release, the schema it migrates to, the build (git
                                commit and time) and the Node version it runs on
  --help                        print this help

environment: PORT, DATA_DIR, NODE_ENV, APP_URL, SESSION_SECRET, ... (see the README), and
STUDIO_RUNTIME_DIR: where the SQLite addon and public files are extracted once per build
(default DATA_DIR/.runtime; it must not be on a noexec mount).`;

const COMMANDS = new Set(["migrate", "seed", "admin", "backup", "restore", "install"]);

/**
 * What scripts/build-binary.mjs recorded: { id, commit, builtAt, node, betterSqlite3, addon, files }.
 * @param {Payload} payload
 * @returns {BuildInfo}
 */
function buildInfo(payload) {
  return JSON.parse(payload.bytes("build.json").toString("utf8"));
}

/**
 * The mount point holding `dir` when it is mounted noexec (from /proc/self/mountinfo), else null.
 * @param {string} dir
 */
function noexecMount(dir) {
  try {
    const real = fs.realpathSync(dir);
    let best = null;
    for (const line of fs.readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
      const fields = line.split(" ");
      if (fields.length < 6) continue;
      const mountPoint = fields[4].replace(/\\040/g, " ");
      const inside = real === mountPoint || real.startsWith(mountPoint === "/" ? "/" : `${mountPoint}/`);
      if (inside && (!best || mountPoint.length >= best.mountPoint.length))
        best = { mountPoint, options: fields[5].split(",") };
    }
    return best?.options.includes("noexec") ? best.mountPoint : null;
  } catch {
    return null;
  }
}

/** The payload's gzipped Litestream (issue 45.1), and where it goes in the runtime folder. */
const LITESTREAM_ASSET = "litestream.gz";
/** The bundle's source map in the payload, read at the first error a stack is logged for. */
const APP_MAP = "app.js.map";

class RuntimeError extends Error {}

/**
 * The runtime folder <runtimeRoot>/<build id>/ with the SQLite addon in it, and `place`, which puts
 * any other file of the payload there at its first use (public/, the packages read apart, the
 * source map: server/runtime-files.ts) and answers its path, or null for a name the payload does
 * not have. Each file is written under a temporary name and renamed, so a file under its name is
 * complete; a file a previous start wrote is used as it is. A first start writes the addon alone
 * (issue 42.4: all of them were some 7 MB in a hundred files, 40 ms of it).
 * @param {Payload} payload
 * @param {BuildInfo} info
 * @param {string} runtimeRoot
 */
function runtimeFolder(payload, info, runtimeRoot) {
  const dir = path.join(runtimeRoot, info.id);
  const fresh = !fs.existsSync(dir);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch (caught) {
    const error = /** @type {NodeJS.ErrnoException} */ (caught);
    throw new RuntimeError(
      `cannot create the runtime folder ${runtimeRoot} (${error.code ?? error.message}); set STUDIO_RUNTIME_DIR to a writable folder`,
    );
  }
  // Litestream is unpacked apart, only when replication needs it (extractLitestream).
  const names = new Set(info.files.filter((name) => name !== LITESTREAM_ASSET));
  /** @type {Set<string>} */
  const placed = new Set();
  /** @param {string} name */
  const place = (name) => {
    if (!names.has(name)) return null;
    const file = path.join(dir, name);
    if (placed.has(name)) return file;
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const tmp = `${file}.tmp-${process.pid}`;
      try {
        payload.copyTo(name, tmp, name === info.addon ? 0o755 : 0o644);
        fs.renameSync(tmp, file);
      } finally {
        fs.rmSync(tmp, { force: true });
      }
    }
    placed.add(name);
    return file;
  };
  place(info.addon);
  // Older builds' folders (and temporary folders a crash of an older version left) are no longer needed.
  if (fresh)
    for (const name of fs.readdirSync(runtimeRoot)) {
      if (name !== info.id && /^[0-9a-f]{16}(\.tmp-.*)?$/.test(name))
        fs.rmSync(path.join(runtimeRoot, name), { recursive: true, force: true });
    }
  return { dir, place };
}

/**
 * Litestream, unpacked into the runtime folder the first time a start replicates (REPLICA_URL set,
 * or `restore replica:…`): a start without replication never pays for its 30 MB.
 * @param {Payload} payload
 * @param {BuildInfo} info
 * @param {string} dir
 */
function extractLitestream(payload, info, dir) {
  const file = path.join(dir, "litestream");
  if (!info.files.includes(LITESTREAM_ASSET)) throw new RuntimeError("this build does not carry Litestream");
  if (fs.existsSync(file)) return file;
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, zlib.gunzipSync(payload.bytes(LITESTREAM_ASSET)), { mode: 0o755 });
  fs.renameSync(tmp, file);
  return file;
}

/**
 * Puts the runtime files in place and loads the SQLite addon from there (server/db/db.server.ts
 * reads STUDIO_SQLITE_ADDON). A folder on a noexec mount cannot hold a loadable addon: that is
 * said plainly, with the variable that moves it.
 * @param {Payload} payload
 * @param {BuildInfo} info
 */
async function prepareRuntime(payload, info) {
  const { dataDirFromEnv, provideRuntimeFiles } = await import("#build");
  const runtimeRoot = path.resolve(process.env.STUDIO_RUNTIME_DIR || path.join(dataDirFromEnv(), ".runtime"));
  const { dir, place } = runtimeFolder(payload, info, runtimeRoot);
  if (process.env.REPLICA_URL?.trim()) process.env.STUDIO_LITESTREAM = extractLitestream(payload, info, dir);
  // The payload stays open for the files put in place at their first use.
  provideRuntimeFiles(place);
  const addon = path.join(dir, info.addon);
  const noexec = noexecMount(dir);
  const moveIt = `set STUDIO_RUNTIME_DIR to a folder on a filesystem mounted with exec (for example /var/lib/studio/runtime) and start again`;
  if (noexec)
    throw new RuntimeError(
      `the runtime folder ${dir} is on ${noexec}, mounted noexec, so the SQLite addon cannot be loaded from it: ${moveIt}`,
    );
  process.env.STUDIO_SQLITE_ADDON = addon;
  const { sqliteNativeBinding } = await import("#build");
  try {
    sqliteNativeBinding();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/failed to map segment|operation not permitted|EPERM/i.test(message)) {
      throw new RuntimeError(
        `cannot load the SQLite addon ${addon} (${message}): its folder is probably on a noexec mount; ${moveIt}`,
      );
    }
    throw new RuntimeError(`cannot load the SQLite addon ${addon}: ${message}`);
  }
  return { publicDir: path.join(dir, "public"), sourceMap: () => place(APP_MAP) };
}

/**
 * @param {Payload} payload
 * @param {BuildInfo} info
 */
async function serve(payload, info) {
  // As server/main.js: no NODE_ENV means this machine, on the local defaults; NODE_ENV=production
  // is a deployment and requires its secrets.
  const localRun = !process.env.NODE_ENV;
  if (localRun) process.env.NODE_ENV = "production";
  const { publicDir, sourceMap } = await prepareRuntime(payload, info);
  const { build, start, mapStacksThrough } = await import("#build");
  // Logged stacks name app/ and server/ sources, not the bundle (scripts/build-binary.mjs).
  mapStacksThrough(sourceMap, APP.filename);
  await start({ build, publicDir, localRun, isDev: false });
}

/**
 * Runs `argv`'s command: the exit code, or null while the server runs.
 * @param {string[]} argv
 * @returns {Promise<number | null>}
 */
async function main(argv) {
  const [command] = argv;
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(usage);
    return 0;
  }
  const payload = openPayload();
  const info = buildInfo(payload);
  if (command === "--version" || command === "-v" || command === "version") {
    const { PRODUCT_VERSION, KNOWN_MIGRATIONS } = await import("#build");
    console.log(
      `studio ${PRODUCT_VERSION} (schema ${KNOWN_MIGRATIONS.length}, ${KNOWN_MIGRATIONS.at(-1)}; build ${info.id}, git ${info.commit}, built ${info.builtAt}) on Node ${process.version}, better-sqlite3 ${info.betterSqlite3}`,
    );
    return 0;
  }
  if (command !== undefined && !COMMANDS.has(command)) {
    console.error(usage);
    return 2;
  }
  // Setting the machine up: before any data folder is looked at (the installer makes it).
  if (command === "install") {
    const { runInstall } = await import("#build");
    return runInstall(argv.slice(1));
  }
  // Files private to the studio's user and group (data 0640, folders 0750; backups 0600).
  process.umask(0o027);
  // Run as the data folder's owner, or not at all: checked before the runtime is extracted into
  // it, so a refused run creates nothing (issue 33.5).
  const { dataDirFromEnv, otherOwnerRefusal, shellQuote } = await import("#build");
  const refusal = otherOwnerRefusal(dataDirFromEnv(), [process.execPath, ...argv].map(shellQuote).join(" "));
  if (refusal) {
    console.error(refusal);
    return 1;
  }
  if (command === undefined) {
    await serve(payload, info);
    return null;
  }
  await prepareRuntime(payload, info);
  const { runCli } = await import("#build");
  return runCli(argv, usage);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== null) process.exit(code);
  },
  (error) => {
    console.error(
      `[studio] ${error instanceof RuntimeError || !(error instanceof Error) ? (error.message ?? error) : error.stack}`,
    );
    process.exit(1);
  },
);
