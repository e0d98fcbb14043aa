#!/usr/bin/env node
// The server's operating system, for tests/binary/readme.test.ts: the README's self-hosting
// commands that need a real VPS (a system user, scp to another machine, systemd, sudo) run against
// this instead, inside a sandbox folder that stands for `/` (env SANDBOX). Everything else the
// README runs (sha256sum, chmod, cat, openssl, curl, cp, mv, ls) is the real thing, and the
// binary is the real binary.
//
// Usage: host-shims.mjs TOOL ARGS... with TOOL one of useradd, chown, scp, systemctl, journalctl,
// sudo, systemd-run; `__supervise NAME` is the service manager's own process for one service.
//
// As systemd does: `systemctl start` returns at once (Type=simple) and the service's output goes
// to its journal; units are read at `daemon-reload`; the service gets only the unit's environment
// (EnvironmentFile, Environment) and starts in its WorkingDirectory; `stop` sends KillSignal and
// waits for the exit (TimeoutStopSec, then SIGKILL). The users named (User=, -u, --uid=) are not
// switched to: the test runs as one user, which owns the sandbox.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const SANDBOX = process.env.SANDBOX ?? "";
if (!SANDBOX) throw new Error("host-shims: SANDBOX is not set");
const run = path.join(SANDBOX, "run", "systemd");
fs.mkdirSync(run, { recursive: true });
const log = (/** @type {string} */ line) => fs.appendFileSync(path.join(run, "calls.log"), `${line}\n`);

/**
 * A path or value of the real machine, inside the sandbox; the unit's port, the test's free one.
 * @param {string} value
 */
function onHost(value) {
  return value
    .replace(/(^|[\s=])\/(srv|etc)\//g, `$1${SANDBOX}/$2/`)
    .replace(/^3000$/, process.env.STUDIO_TEST_PORT ?? "3000");
}

/**
 * KEY=VALUE lines as systemd reads an EnvironmentFile (comments and blanks skipped, quotes removed).
 * @param {string} file
 */
function envFile(file) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith("#")) continue;
    out[m[1]] = m[2].replace(/^"(.*)"$/, "$1").replace(/^'(.*)'$/, "$1");
  }
  return out;
}

/**
 * The environment a service or `sudo` starts from.
 * @returns {Record<string, string>}
 */
const baseEnv = () => ({
  PATH: "/usr/local/bin:/usr/bin:/bin",
  // The machine's trusted authorities (a test's ACME authority among them), as /etc/ssl would be.
  ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
});

/**
 * `env` as a child's environment (Remix's globals declare ProcessEnv with a NODE_ENV, which is the
 * unit's or the command's to set, if any).
 * @param {Record<string, string>} env
 */
const childEnv = (env) => /** @type {NodeJS.ProcessEnv} */ (env);

/** @param {string} name */
function unitPaths(name) {
  const unit = name.endsWith(".service") ? name : `${name}.service`;
  return {
    installed: path.join(SANDBOX, "etc", "systemd", "system", unit),
    loaded: path.join(run, unit),
    pid: path.join(run, `${unit}.pid`),
    exit: path.join(run, `${unit}.exit`),
    journal: path.join(run, `${unit}.journal`),
  };
}

/**
 * The [Service] section of a loaded unit: single keys, and every Environment= line.
 * @param {string} file
 */
function readUnit(file) {
  /** @type {Partial<Record<string, string>>} */
  const service = {};
  /** @type {Record<string, string>} */
  const environment = {};
  let section = "";
  for (const raw of fs.readFileSync(file, "utf8").split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    if (line.startsWith("[")) {
      section = line;
      continue;
    }
    if (section !== "[Service]") continue;
    const [key, ...rest] = line.split("=");
    const value = rest.join("=");
    if (key === "Environment") {
      const [k, ...v] = value.split("=");
      environment[k] = onHost(v.join("="));
    } else service[key] = onHost(value);
  }
  return { service, environment };
}

const alive = (/** @type {number} */ pid) => {
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== undefined && state !== "Z";
  } catch {
    return false;
  }
};

/** @param {string} name */
function start(name) {
  const p = unitPaths(name);
  if (!fs.existsSync(p.loaded)) {
    console.error(`Failed to start ${name}.service: Unit ${name}.service not found.`);
    return 5;
  }
  if (fs.existsSync(p.pid) && alive(Number(fs.readFileSync(p.pid, "utf8")))) return 0;
  fs.rmSync(p.exit, { force: true });
  fs.rmSync(p.pid, { force: true });
  const child = spawn(process.execPath, [process.argv[1], "__supervise", name], {
    detached: true,
    stdio: "ignore",
    env: process.env,
  });
  child.unref();
  // Type=simple: started once the process exists.
  for (let i = 0; i < 200 && !fs.existsSync(p.pid); i++) spawnSync("sleep", ["0.02"]);
  return fs.existsSync(p.pid) ? 0 : 1;
}

/** @param {string} name */
function stop(name) {
  const p = unitPaths(name);
  if (!fs.existsSync(p.pid)) return 0;
  const pid = Number(fs.readFileSync(p.pid, "utf8"));
  const { service } = readUnit(p.loaded);
  if (alive(pid)) {
    try {
      process.kill(pid, /** @type {NodeJS.Signals} */ (service.KillSignal ?? "SIGTERM"));
    } catch {
      // gone already
    }
  }
  const deadline = Date.now() + Number(service.TimeoutStopSec ?? 90) * 1000;
  while (!fs.existsSync(p.exit) && Date.now() < deadline) spawnSync("sleep", ["0.05"]);
  if (!fs.existsSync(p.exit)) {
    process.kill(pid, "SIGKILL");
    while (!fs.existsSync(p.exit)) spawnSync("sleep", ["0.05"]);
  }
  fs.rmSync(p.pid, { force: true });
  return 0;
}

/**
 * Each tool: its arguments in, its exit code out (null: the process goes on, as the supervisor).
 * @type {Record<string, (args: string[]) => number | null>}
 */
const tools = {
  useradd(args) {
    log(`useradd ${args.join(" ")}`);
    // As the real one does: the user in /etc/passwd (what `studio install` looks at).
    const name = args.at(-1);
    if (name)
      fs.appendFileSync(path.join(SANDBOX, "etc", "passwd"), `${name}:x:999:999::/srv/${name}:/usr/sbin/nologin\n`);
    return 0;
  },
  chown(args) {
    log(`chown ${args.join(" ")}`);
    const missing = args.filter((a) => a.startsWith("/") && !fs.existsSync(a));
    if (missing.length) {
      console.error(`chown: cannot access '${missing[0]}': No such file or directory`);
      return 1;
    }
    return 0;
  },
  scp(args) {
    const files = args.filter((a) => !a.startsWith("-"));
    const last = files.pop();
    if (!last) {
      console.error("usage: scp SOURCE... TARGET");
      return 1;
    }
    const target = last.replace(/^[^/:]+:/, "");
    for (const source of files) {
      if (!fs.existsSync(source)) {
        console.error(`scp: ${source}: No such file or directory`);
        return 1;
      }
      const to =
        target.endsWith("/") || fs.statSync(target, { throwIfNoEntry: false })?.isDirectory()
          ? path.join(target, path.basename(source))
          : target;
      fs.copyFileSync(source, to);
      fs.chmodSync(to, fs.statSync(source).mode & 0o777);
    }
    return 0;
  },
  systemctl(args) {
    log(`systemctl ${args.join(" ")}`);
    const [verb, ...rest] = args.filter((a) => a !== "--now" && a !== "--quiet");
    const now = args.includes("--now");
    const name = rest[0];
    switch (verb) {
      case "daemon-reload":
        for (const f of fs.readdirSync(path.join(SANDBOX, "etc", "systemd", "system")))
          if (f.endsWith(".service"))
            fs.copyFileSync(path.join(SANDBOX, "etc", "systemd", "system", f), path.join(run, f));
        return 0;
      case "enable":
        if (!fs.existsSync(unitPaths(name).loaded)) {
          console.error(`Failed to enable unit: Unit file ${name}.service does not exist.`);
          return 1;
        }
        return now ? start(name) : 0;
      case "start":
        return start(name);
      case "stop":
        return stop(name);
      case "restart":
        stop(name);
        return start(name);
      case "reload":
        if (name === "caddy") {
          // Caddy itself is not here; its config must at least be in place.
          if (!fs.existsSync(path.join(SANDBOX, "etc", "caddy", "Caddyfile"))) {
            console.error("caddy: /etc/caddy/Caddyfile: no such file");
            return 1;
          }
          return 0;
        }
        return stop(name) || start(name);
      default:
        console.error(`host-shims: systemctl ${verb} is not simulated`);
        return 1;
    }
  },
  journalctl(args) {
    const name = args[args.indexOf("-u") + 1];
    const { journal } = unitPaths(name);
    if (fs.existsSync(journal)) process.stdout.write(fs.readFileSync(journal));
    return 0;
  },
  sudo(args) {
    // sudo -u USER [VAR=value]... COMMAND...: a reset environment plus the variables given.
    let i = 0;
    if (args[i] === "-u") i += 2;
    const env = baseEnv();
    for (; i < args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]); i++) {
      const [k, ...v] = args[i].split("=");
      env[k] = v.join("=");
    }
    log(`sudo ${args.join(" ")}`);
    return spawnSync(args[i], args.slice(i + 1), { stdio: "inherit", env: childEnv(env) }).status ?? 1;
  },
  "systemd-run"(args) {
    // systemd-run [--quiet --pipe --wait --uid=U] [-p EnvironmentFile=F] [-E K=V]... COMMAND...
    const env = baseEnv();
    let i = 0;
    for (; i < args.length && args[i].startsWith("-"); i++) {
      if (args[i] === "-p") {
        const [k, ...v] = args[++i].split("=");
        if (k === "EnvironmentFile") Object.assign(env, envFile(v.join("=")));
      } else if (args[i] === "-E") {
        const [k, ...v] = args[++i].split("=");
        env[k] = v.join("=");
      }
    }
    log(`systemd-run ${args.join(" ")}`);
    return spawnSync(args[i], args.slice(i + 1), { stdio: "inherit", env: childEnv(env) }).status ?? 1;
  },
  __supervise([name]) {
    // The service manager for one service: starts ExecStart as the unit says, writes its pid,
    // records how it ended.
    const p = unitPaths(name);
    const { service, environment } = readUnit(p.loaded);
    const env = baseEnv();
    if (service.EnvironmentFile) Object.assign(env, envFile(service.EnvironmentFile.replace(/^-/, "")));
    Object.assign(env, environment);
    const out = fs.openSync(p.journal, "a");
    if (!service.ExecStart) throw new Error(`host-shims: ${name}.service has no ExecStart`);
    const [cmd, ...cmdArgs] = service.ExecStart.split(/\s+/);
    const child = spawn(cmd, cmdArgs, {
      cwd: service.WorkingDirectory ?? "/",
      env: childEnv(env),
      stdio: ["ignore", out, out],
    });
    child.once("spawn", () => fs.writeFileSync(p.pid, String(child.pid)));
    child.once("error", (e) => {
      fs.appendFileSync(p.journal, `${name}.service: ${e.message}\n`);
      fs.writeFileSync(p.exit, "error");
    });
    child.once("exit", (code, signal) => fs.writeFileSync(p.exit, signal ? `signal ${signal}` : `code ${code}`));
    return null;
  },
};

const [tool, ...args] = process.argv.slice(2);
if (!tools[tool]) {
  console.error(`host-shims: unknown tool ${tool}`);
  process.exit(2);
}
const code = tools[tool](args);
if (code !== null) process.exit(code);
