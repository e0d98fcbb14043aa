import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { domainProblem, isEmailAddress } from "./env-rules";

/**
 * `studio install --domain D --email E` (issue 45.4): from a copied binary on a fresh Debian or
 * Ubuntu VPS, as root, to the setup page over HTTPS. It makes the `studio` user and /srv/studio,
 * copies the binary there, writes /etc/studio.env (0600, a generated SESSION_SECRET) and a
 * hardened systemd unit, starts the service, waits for https://D/healthz and prints the setup link.
 * Each step looks first: a second run with the same answers changes nothing and says so; a changed
 * answer rewrites its line and restarts. `--dry-run` prints what it would do. `--root DIR` installs
 * under DIR instead of / (an image being built, or the tests' sandbox). See decision 045.
 */
export const INSTALL_USAGE = `usage: studio install --domain studio.example.com --email owner@example.com
                      [--dry-run] [--root DIR] [--acme-directory URL] [--https-port N] [--http-port N]`;

const UNIT = `[Unit]
Description=Studio (studio site, template shop and booking flow)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=studio
Group=studio
WorkingDirectory=/srv/studio
EnvironmentFile=/etc/studio.env
Environment=NODE_ENV=production
Environment=DATA_DIR=/srv/studio/data
Environment=MALLOC_ARENA_MAX=2
ExecStart=/srv/studio/studio
KillSignal=SIGTERM
TimeoutStopSec=15
Restart=on-failure
RestartSec=2
# Files private to the studio; 80 and 443 without root, and no other privilege.
UMask=0027
AmbientCapabilities=CAP_NET_BIND_SERVICE
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectControlGroups=yes
RestrictSUIDSGID=yes
LockPersonality=yes
ReadWritePaths=/srv/studio/data

[Install]
WantedBy=multi-user.target
`;

type Options = {
  domain: string;
  email: string;
  dryRun: boolean;
  root: string;
  acmeDirectory?: string;
  httpsPort?: number;
  httpPort?: number;
};

class InstallError extends Error {}

function parseArgs(argv: string[]): Options {
  const value = (flag: string) => {
    // Given twice, the last one counts (as most commands take it).
    const i = argv.lastIndexOf(flag);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (!v || v.startsWith("--")) throw new InstallError(`${flag} needs a value\n${INSTALL_USAGE}`);
    return v;
  };
  const known = ["--domain", "--email", "--root", "--acme-directory", "--https-port", "--http-port"];
  for (const arg of argv)
    if (arg.startsWith("--") && !known.includes(arg) && arg !== "--dry-run")
      throw new InstallError(`unknown option ${arg}\n${INSTALL_USAGE}`);
  const domain = value("--domain");
  const email = value("--email");
  if (!domain || !email) throw new InstallError(INSTALL_USAGE);
  const bad = domainProblem(domain);
  if (bad) throw new InstallError(bad.replace(/^DOMAIN/, "--domain"));
  if (!isEmailAddress(email)) throw new InstallError(`--email must be an email address, got '${email}'`);
  const port = (flag: string) => {
    const v = value(flag);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 65535)
      throw new InstallError(`${flag} must be a number from 1 to 65535, got '${v}'`);
    return Number(v);
  };
  const acmeDirectory = value("--acme-directory");
  // A line of /etc/studio.env: an https URL and nothing else (no space, no line break).
  if (acmeDirectory && !/^https:\/\/[^\s]+$/.test(acmeDirectory))
    throw new InstallError(`--acme-directory must be an https URL, got '${acmeDirectory}'`);
  return {
    domain: domain.toLowerCase(),
    email,
    dryRun: argv.includes("--dry-run"),
    root: path.resolve(value("--root") ?? "/"),
    acmeDirectory,
    httpsPort: port("--https-port"),
    httpPort: port("--http-port"),
  };
}

/** KEY=VALUE lines, in order, comments kept. */
function envLines(text: string): string[] {
  return text.split("\n").filter((line, i, all) => line !== "" || i < all.length - 1);
}

/** The env file with `values` set (replacing their lines, else added), the rest kept as it was. */
export function withSettings(existing: string | null, values: Record<string, string | undefined>): string {
  const lines = existing
    ? envLines(existing)
    : ["# The studio's settings (studio install; see the README's Configuration). Readable by root only."];
  for (const [key, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const i = lines.findIndex((l) => l.startsWith(`${key}=`));
    if (i >= 0) lines[i] = `${key}=${v}`;
    else lines.push(`${key}=${v}`);
  }
  return `${lines.join("\n")}\n`;
}

const sha256 = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** One TLS request to the local server by its public name: its status, or null while there is none. */
function healthz(domain: string, port: number): Promise<number | null> {
  return new Promise((resolve) => {
    // Read here, not imported: the server's bundle hoists every import of a built-in to its top,
    // and only `studio install` gets here (issue 42.4).
    const req = process
      .getBuiltinModule("node:https")
      .get(
        { host: "127.0.0.1", port, path: "/healthz", servername: domain, headers: { Host: domain }, timeout: 5_000 },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? null);
        },
      );
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(null));
  });
}

export async function runInstall(argv: string[], binary = process.execPath): Promise<number> {
  let opts: Options;
  try {
    opts = parseArgs(argv);
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  if (opts.root === "/" && process.getuid?.() !== 0) {
    console.error("studio install sets up a user, /srv/studio and a systemd service: run it as root (sudo)");
    return 1;
  }
  const at = (p: string) => path.join(opts.root, p);
  const say = (line: string) => console.log(`${opts.dryRun ? "would: " : ""}${line}`);
  const run = (cmd: string, args: string[]) => {
    if (opts.dryRun) return say(`${cmd} ${args.join(" ")}`);
    const r = spawnSync(cmd, args, { stdio: ["ignore", "inherit", "inherit"] });
    if (r.status !== 0)
      throw new InstallError(`${cmd} ${args.join(" ")} failed (${r.error?.message ?? `exit ${r.status}`})`);
  };
  let changed = 0;
  try {
    // 1. The user and its folders.
    const passwd = fs.existsSync(at("/etc/passwd")) ? fs.readFileSync(at("/etc/passwd"), "utf8") : "";
    if (!/^studio:/m.test(passwd)) {
      run("useradd", ["--system", "--home", "/srv/studio", "--shell", "/usr/sbin/nologin", "studio"]);
      say("made the system user studio");
      changed++;
    }
    if (!fs.existsSync(at("/srv/studio/data"))) {
      if (!opts.dryRun) fs.mkdirSync(at("/srv/studio/data"), { recursive: true, mode: 0o750 });
      run("chown", ["-R", "studio:studio", at("/srv/studio")]);
      say("made /srv/studio/data, the studio user's");
      changed++;
    }
    // 2. The binary, unless the same one is there.
    const installed = at("/srv/studio/studio");
    const binaryChanged = !fs.existsSync(installed) || sha256(installed) !== sha256(binary);
    if (binaryChanged) {
      if (!opts.dryRun) {
        fs.copyFileSync(binary, `${installed}.new`);
        fs.chmodSync(`${installed}.new`, 0o755);
        fs.renameSync(`${installed}.new`, installed);
      }
      say(`copied ${binary} to /srv/studio/studio`);
      changed++;
    }
    // 3. The settings: a secret made once, the answers set.
    const envFile = at("/etc/studio.env");
    const before = fs.existsSync(envFile) ? fs.readFileSync(envFile, "utf8") : null;
    const hasSecret = before !== null && /^SESSION_SECRET=.{32,}$/m.test(before);
    const after = withSettings(before, {
      DOMAIN: opts.domain,
      ACME_EMAIL: opts.email,
      ...(hasSecret ? {} : { SESSION_SECRET: crypto.randomBytes(32).toString("hex") }),
      ACME_DIRECTORY: opts.acmeDirectory,
      HTTPS_PORT: opts.httpsPort?.toString(),
      HTTP_PORT: opts.httpPort?.toString(),
    });
    const envChanged = after !== before;
    if (envChanged) {
      if (!opts.dryRun) {
        fs.mkdirSync(path.dirname(envFile), { recursive: true });
        fs.writeFileSync(envFile, after, { mode: 0o600 });
        fs.chmodSync(envFile, 0o600);
      }
      say(
        `wrote /etc/studio.env (0600${hasSecret ? "" : ", a new SESSION_SECRET"}): DOMAIN=${opts.domain}, ACME_EMAIL=${opts.email}`,
      );
      changed++;
    }
    // 4. The service.
    const unitFile = at("/etc/systemd/system/studio.service");
    const unitChanged = !fs.existsSync(unitFile) || fs.readFileSync(unitFile, "utf8") !== UNIT;
    if (unitChanged) {
      if (!opts.dryRun) {
        fs.mkdirSync(path.dirname(unitFile), { recursive: true });
        fs.writeFileSync(unitFile, UNIT, { mode: 0o644 });
      }
      say("wrote /etc/systemd/system/studio.service (hardened: its own user, a read-only system, 80 and 443 only)");
      run("systemctl", ["daemon-reload"]);
      changed++;
    }
    if (binaryChanged || envChanged || unitChanged) run("systemctl", ["restart", "studio"]);
    run("systemctl", ["enable", "--now", "studio"]);
    if (opts.dryRun) {
      console.log(
        changed ? `${changed} step(s) to do; nothing done (--dry-run)` : "nothing to do: studio is installed as asked",
      );
      return 0;
    }
    // 5. Up over HTTPS (the first certificate takes a few seconds), then the setup link.
    const port = opts.httpsPort ?? 443;
    const origin = `https://${opts.domain}${port === 443 ? "" : `:${port}`}`;
    const deadline = Date.now() + 120_000;
    let status: number | null = null;
    while (Date.now() < deadline && status === null) {
      status = await healthz(opts.domain, port);
      if (status === null) await new Promise((r) => setTimeout(r, 250));
    }
    if (status === null) {
      console.error(
        `the service runs but ${origin}/healthz did not answer over HTTPS within 2 minutes: see \`journalctl -u studio\` (does ${opts.domain} point to this server, and do ports 80 and 443 reach it?)`,
      );
      return 1;
    }
    console.log(
      changed
        ? `installed: ${origin} answers (/healthz ${status})`
        : `nothing changed: studio is installed and running at ${origin}`,
    );
    const journal = spawnSync("journalctl", ["-u", "studio", "--no-pager"], { encoding: "utf8" }).stdout ?? "";
    const link = [...journal.matchAll(/https:\/\/[^\s"]*\/setup\?token=[^\s"]+/g)].at(-1)?.[0];
    if (link) console.log(`Open the setup link within 24 hours to name the studio and become its admin:\n${link}`);
    else console.log(`Sign in at ${origin}/admin (the studio has its admin already).`);
    return 0;
  } catch (error) {
    if (!(error instanceof InstallError)) throw error;
    console.error(`install stopped: ${error.message}`);
    return 1;
  }
}
