/**
 * Pebble, Let's Encrypt's test certificate authority (Debian's `pebble`), started by a test with
 * pebble-challtestsrv as its DNS (every name answers 127.0.0.1): a real ACME server that checks
 * HTTP-01 challenges on `httpPort` of this machine. `directory` is its ACME directory; `caFile`
 * the certificate of its own HTTPS listener (NODE_EXTRA_CA_CERTS for the server that orders);
 * `root()` the root its certificates chain to (what a client trusts).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { freePort } from "./server";

function get(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on("error", reject);
  });
}

export async function startPebble(opts: { httpPort?: number } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pebble-"));
  const caFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"],
      ...["-keyout", path.join(dir, "key.pem"), "-out", caFile, "-subj", "/CN=localhost"],
      ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
    ],
    { stdio: "ignore" },
  );
  const [listen, management, tlsPort, dns, dnsManagement] = await Promise.all([1, 2, 3, 4, 5].map(() => freePort()));
  const httpPort = opts.httpPort ?? (await freePort());
  const config = path.join(dir, "pebble.json");
  fs.writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listen}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: caFile,
        privateKey: path.join(dir, "key.pem"),
        httpPort,
        tlsPort,
        ocspResponderURL: "",
        externalAccountBindingRequired: false,
      },
    }),
  );
  const children: ChildProcess[] = [];
  let output = "";
  const run = (cmd: string, args: string[], env: Record<string, string> = {}) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr?.on("data", (c: Buffer) => (output += c.toString()));
    children.push(child);
  };
  run("pebble-challtestsrv", [
    ...["-dns01", `127.0.0.1:${dns}`, "-http01", "", "-https01", "", "-tlsalpn01", ""],
    ...["-management", `127.0.0.1:${dnsManagement}`, "-defaultIPv4", "127.0.0.1", "-defaultIPv6", ""],
  ]);
  run("pebble", ["-config", config, "-dnsserver", `127.0.0.1:${dns}`], {
    PEBBLE_VA_NOSLEEP: "1",
    PEBBLE_WFE_NONCEREJECT: "0",
  });
  const ca = fs.readFileSync(caFile, "utf8");
  const directory = `https://127.0.0.1:${listen}/dir`;
  for (const deadline = Date.now() + 20_000; ;) {
    const up = await get(directory, ca).then(
      (r) => r.status === 200,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`pebble did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    directory,
    httpPort,
    caFile,
    output: () => output,
    /** The root pebble's certificates chain to (PEM). */
    root: async () => (await get(`https://127.0.0.1:${management}/roots/0`, ca)).body,
    close: async () => {
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null) return resolve();
              c.once("exit", () => resolve());
              c.kill("SIGTERM");
            }),
        ),
      );
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
