/**
 * Automatic HTTPS on the production build (issue 45.3): with DOMAIN, the server gets a certificate
 * from an ACME authority (Pebble, started here, its DNS answering 127.0.0.1 for every name) and
 * serves it; a TLS client that trusts Pebble's root (and nothing else) accepts it; port 80 answers
 * the challenges and sends everything else to https; a restart serves the kept certificate at once.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import tls from "node:tls";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort, queryDb, startedDataDir } from "../helpers/server";
import { spawnBuild } from "../helpers/server-data-template";
import { startPebble } from "../helpers/pebble";
import { until } from "../helpers/until";

let pebble: Awaited<ReturnType<typeof startPebble>>;
let root = "";
beforeAll(async () => {
  pebble = await startPebble();
  root = await pebble.root();
}, 60_000);
afterAll(async () => {
  await pebble?.close();
});

/** The production build with DOMAIN=studio.test, HTTP_PORT where Pebble checks, HTTPS_PORT free. */
async function startHttps(dataDir: string, httpsPort: number) {
  const proc = spawnBuild({
    port: await freePort(),
    url: `https://studio.test:${httpsPort}`,
    dataDir,
    env: {
      DOMAIN: "studio.test",
      ACME_EMAIL: "owner@studio.test",
      ACME_DIRECTORY: pebble.directory,
      HTTPS_PORT: String(httpsPort),
      HTTP_PORT: String(pebble.httpPort),
      // The server trusts Pebble's own HTTPS listener, as it would a private authority's.
      NODE_EXTRA_CA_CERTS: pebble.caFile,
    },
  });
  let out = "";
  proc.stdout?.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr?.on("data", (c: Buffer) => (out += c.toString()));
  const exited = new Promise((r) => proc.once("exit", r));
  return { proc, output: () => out, stop: () => (proc.kill("SIGTERM"), exited) };
}

/** A TLS handshake as a browser that trusts only Pebble's root makes it: the certificate, or the refusal. */
function handshake(port: number): Promise<{ authorized: boolean; serial?: string; error?: string }> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: "127.0.0.1", port, servername: "studio.test", ca: root }, () => {
      const cert = socket.getPeerX509Certificate();
      resolve({ authorized: socket.authorized, serial: cert?.serialNumber });
      socket.end();
    });
    socket.on("error", (error) => resolve({ authorized: false, error: error.message }));
  });
}

function get(port: number, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(
        {
          host: "127.0.0.1",
          port,
          path,
          servername: "studio.test",
          headers: { Host: `studio.test:${port}` },
          ca: root,
        },
        (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      )
      .on("error", reject);
  });
}

it("gets its certificate from the authority, serves the site over it with HSTS, redirects http, and keeps it across a restart", async () => {
  const dataDir = startedDataDir();
  const httpsPort = await freePort();
  const first = await startHttps(dataDir, httpsPort);
  try {
    const served = await until(
      "a certificate the client trusts",
      async () => {
        const h = await handshake(httpsPort);
        return h.authorized ? h : null;
      },
      30_000,
    );
    const home = await get(httpsPort, "/");
    expect(home.status).toBe(200);
    expect(home.body).toContain("</html>");
    expect(home.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    // Port 80: everything else goes to https://DOMAIN, whatever Host the request names.
    const redirect = await fetch(`http://127.0.0.1:${pebble.httpPort}/packages?from=ad`, {
      redirect: "manual",
      headers: { Host: "evil.example" },
    });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get("location")).toBe(`https://studio.test:${httpsPort}/packages?from=ad`);
    const kept = queryDb<{ value: string }>(dataDir, "select value from studio_flags where key = 'acme_certificate'");
    expect(JSON.parse(kept[0].value)).toMatchObject({ domain: "studio.test", directory: pebble.directory });
    expect(new crypto.X509Certificate(JSON.parse(kept[0].value).cert).serialNumber).toBe(served.serial);
    expect(first.output()).toMatch(/\[acme\] new certificate for studio\.test until \d{4}-/);
    await first.stop();

    // Restarted: the same certificate at once, no new order.
    const second = await startHttps(dataDir, httpsPort);
    try {
      const again = await until("the kept certificate", async () => {
        const h = await handshake(httpsPort);
        return h.authorized ? h : null;
      });
      expect(again.serial).toBe(served.serial);
      expect(second.output()).not.toContain("new certificate");
    } finally {
      await second.stop();
    }
  } finally {
    if (first.proc.exitCode === null) await first.stop();
  }
});

it("refuses a DOMAIN it cannot use at start, naming it, and writes nothing", async () => {
  const cases: [Record<string, string>, string][] = [
    [{ DOMAIN: "https://studio.example.com/" }, "DOMAIN must be a host name such as studio.example.com"],
    [{ DOMAIN: "studio.example.com" }, "DOMAIN needs ACME_EMAIL"],
    [{ ACME_EMAIL: "owner@studio.example.com" }, "ACME_EMAIL is set without DOMAIN"],
    [
      { DOMAIN: "studio.example.com", ACME_EMAIL: "o@studio.example.com", APP_URL: "https://other.example.com" },
      "APP_URL must be https://studio.example.com with DOMAIN=studio.example.com",
    ],
  ];
  for (const [env, message] of cases) {
    const dataDir = fs.mkdtempSync(`${process.env.TMPDIR ?? "/tmp"}/studio-https-bad-`);
    const proc = spawnBuild({ port: await freePort(), url: env.APP_URL ?? "", dataDir, env });
    let out = "";
    proc.stderr?.on("data", (c: Buffer) => (out += c.toString()));
    const code = await new Promise((r) => proc.once("exit", r));
    expect(code, JSON.stringify(env)).toBe(1);
    expect(out, JSON.stringify(env)).toContain(message);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  }
});
