/**
 * A real CalDAV server for tests: Radicale (Debian's `radicale` package, 3.x) started on a free
 * loopback port with its own folder (a temporary config, its collections, an htpasswd file with one
 * user and a plain password), stopped by `close()`. `mkcalendar` and `put` make calendars and
 * events as a calendar app does (MKCALENDAR and PUT over HTTP).
 *
 * Without Radicale installed, `startRadicale` throws saying how to install it: the CalDAV tests
 * fail rather than pass unseen. `SKIP_RADICALE=1` skips them (`radicaleSkipped`).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Whether the run asked to leave the Radicale tests out (SKIP_RADICALE=1). */
export const radicaleSkipped = process.env.SKIP_RADICALE === "1";

export type Radicale = {
  /** http://127.0.0.1:PORT */
  origin: string;
  user: string;
  password: string;
  /** The process's id (a test may stop it for a while: SIGSTOP, SIGCONT). */
  pid: number;
  /** Creates a calendar collection at `/user/name/` (MKCALENDAR), holding `components`; its URL. */
  mkcalendar: (name: string, components?: string[]) => Promise<string>;
  /** Writes one iCalendar object into a collection (PUT). */
  put: (calendarUrl: string, file: string, ics: string) => Promise<void>;
  /** Deletes a collection or an object (DELETE). */
  remove: (url: string) => Promise<void>;
  /**
   * Gives the user another password, as when the owner revokes an app password (Radicale reads
   * its htpasswd file at each request).
   */
  setPassword: (password: string) => void;
  /** Stops the server (SIGTERM, then SIGKILL after 2 s); safe to call twice. */
  close: () => Promise<void>;
};

/** How to run Radicale here: its command, else Python's module; null when neither is there. */
function radicaleCommand(): [string, string[]] | null {
  if (!spawnSync("radicale", ["--version"], { stdio: "ignore" }).error) return ["radicale", []];
  const python = spawnSync("python3", ["-c", "import radicale"], { stdio: "ignore" });
  if (!python.error && python.status === 0) return ["python3", ["-m", "radicale"]];
  return null;
}

const NOT_INSTALLED =
  "Radicale is not installed: the CalDAV tests need a real CalDAV server. Install it with " +
  "`apt-get install radicale` (Debian, Ubuntu), or set SKIP_RADICALE=1 to leave these tests out.";

export async function startRadicale({
  user = "owner",
  password = "app-pass-5521",
}: { user?: string; password?: string } = {}): Promise<Radicale> {
  const command = radicaleCommand();
  if (!command) throw new Error(NOT_INSTALLED);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "radicale-"));
  fs.writeFileSync(path.join(dir, "users"), `${user}:${password}\n`);
  // Port 0: the system picks a free port, which Radicale logs ("Listening on '[127.0.0.1]:PORT'").
  // No delay after a refused password (Radicale's default is 1 s), no web interface.
  fs.writeFileSync(
    path.join(dir, "config"),
    [
      "[server]",
      "hosts = 127.0.0.1:0",
      "[auth]",
      "type = htpasswd",
      `htpasswd_filename = ${path.join(dir, "users")}`,
      "htpasswd_encryption = plain",
      "delay = 0",
      "[rights]",
      "type = owner_only",
      "[storage]",
      `filesystem_folder = ${path.join(dir, "collections")}`,
      "[web]",
      "type = none",
      "[logging]",
      "level = info",
      "mask_passwords = True",
      "",
    ].join("\n"),
  );
  const [cmd, args] = command;
  // -C names the only configuration file read (not /etc/radicale/config, nor the user's).
  const child: ChildProcess = spawn(cmd, [...args, "-C", path.join(dir, "config")], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, HOME: dir },
  });
  let log = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // Never left running by a test process that ends without closing it.
  const orphan = () => child.kill("SIGKILL");
  process.once("exit", orphan);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error("Radicale did not start within 10 s")), 10_000);
    const onExit = (code: number | null, signal: string | null) =>
      fail(new Error(`Radicale exited before it was ready (${signal ?? code})`));
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      process.off("exit", orphan);
      fs.rmSync(dir, { recursive: true, force: true });
      reject(new Error(`${error.message}\n${log}`));
    };
    const onData = (chunk: Buffer) => {
      log += chunk.toString("utf8");
      const listening = /Listening on '?\[?127\.0\.0\.1\]?:(\d+)/.exec(log);
      if (listening && /server ready/i.test(log)) {
        clearTimeout(timer);
        child.off("exit", onExit);
        resolve(Number(listening[1]));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", (error) => fail(error));
    child.once("exit", onExit);
  });
  const origin = `http://127.0.0.1:${port}`;

  let current = password;
  const request = async (method: string, url: string, body?: string, contentType = "text/plain") => {
    const authorization = `Basic ${Buffer.from(`${user}:${current}`).toString("base64")}`;
    const res = await fetch(url, { method, body, headers: { authorization, "content-type": contentType } });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  };

  let closed = false;
  return {
    origin,
    user,
    password,
    pid: child.pid!,
    async mkcalendar(name, components = ["VEVENT"]) {
      const url = `${origin}/${user}/${name}/`;
      await request(
        "MKCALENDAR",
        url,
        `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop>
    <D:displayname>${name}</D:displayname>
    <C:supported-calendar-component-set>${components.map((c) => `<C:comp name="${c}"/>`).join("")}</C:supported-calendar-component-set>
  </D:prop></D:set>
</C:mkcalendar>`,
        "application/xml; charset=utf-8",
      );
      return url;
    },
    put: (calendarUrl, file, ics) => request("PUT", `${calendarUrl}${file}`, ics, "text/calendar; charset=utf-8"),
    remove: (url) => request("DELETE", url),
    setPassword(next) {
      fs.writeFileSync(path.join(dir, "users"), `${user}:${next}\n`);
      current = next;
    },
    async close() {
      if (closed) return;
      closed = true;
      process.off("exit", orphan);
      if (child.exitCode === null && child.signalCode === null) {
        // A stopped process (SIGSTOP) ignores SIGTERM until it runs again.
        child.kill("SIGCONT");
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
