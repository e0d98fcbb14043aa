import crypto from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import https from "node:https";
import tls from "node:tls";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { certificates, storedCertificate, type Certificates } from "../../server/acme/certificates.server";
import { tlsServers } from "../../server/http/tls-servers.server";
import { freshDb, type TestDb } from "../helpers/db";
import { startPebble } from "../helpers/pebble";

// Issue 45.3: a certificate ordered from a real ACME authority (Pebble, started here) by the HTTP-01
// challenge, kept in the database, renewed when under 30 days remain, and a failing authority
// retried and told, never thrown.
let pebble: Awaited<ReturnType<typeof startPebble>>;
let challengeServer: http.Server;
let keeper: Certificates | null = null;
let t: TestDb | undefined;
const lines: string[] = [];
const log = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });

beforeAll(async () => {
  // The authority checks the challenge on this port: the plain listener of tlsServers answers it.
  const servers = tlsServers({
    onRequest: () => {},
    logRequest: (_req, _res, handle) => handle(),
    domain: "studio.test",
    httpsPort: 443,
    certs: () => keeper,
  });
  challengeServer = servers.plain;
  await new Promise<void>((r) => challengeServer.listen(0, "127.0.0.1", () => r()));
  pebble = await startPebble({ httpPort: (challengeServer.address() as AddressInfo).port });
  // This process trusts Pebble's own HTTPS listener as the server would with NODE_EXTRA_CA_CERTS
  // (read only at a process's start).
  https.globalAgent.options.ca = [...tls.rootCertificates, fs.readFileSync(pebble.caFile, "utf8")];
}, 60_000);
afterAll(async () => {
  await pebble?.close();
  challengeServer?.close();
});
afterEach(async () => {
  keeper?.stop();
  keeper = null;
  await t?.close();
  t = undefined;
});

const serial = (pem: string) => new crypto.X509Certificate(pem).serialNumber;

describe("automatic HTTPS's certificate", () => {
  it("is ordered by HTTP-01, kept in the database, and renewed only once under 30 days remain", async () => {
    t = await freshDb();
    let clock = Date.now();
    const mails: string[] = [];
    keeper = certificates({
      db: t.db,
      domain: "studio.test",
      email: "owner@studio.test",
      directory: pebble.directory,
      log,
      keepsFailing: async (m) => mails.push(m),
      now: () => clock,
    });
    await keeper.check();
    const first = keeper.certificate();
    expect(first?.domain).toBe("studio.test");
    expect(keeper.context()).not.toBeNull();
    expect((await storedCertificate(t.db))?.cert).toBe(first?.cert);
    const firstSerial = serial(first!.cert);

    // 31 days left: nothing to do.
    clock = Date.parse(first!.notAfter) - 31 * 86_400_000;
    await keeper.check();
    expect(serial(keeper.certificate()!.cert)).toBe(firstSerial);

    // 29 days left: renewed, a new certificate from the authority, kept.
    clock = Date.parse(first!.notAfter) - 29 * 86_400_000;
    await keeper.check();
    const renewed = keeper.certificate()!;
    expect(serial(renewed.cert)).not.toBe(firstSerial);
    expect((await storedCertificate(t.db))?.cert).toBe(renewed.cert);
    expect(mails).toEqual([]);
  });

  it("says why when the authority cannot be reached, retries, and tells the studio after three failures", async () => {
    t = await freshDb();
    const mails: string[] = [];
    keeper = certificates({
      db: t.db,
      domain: "studio.test",
      email: "owner@studio.test",
      directory: "https://127.0.0.1:9/dir",
      log,
      keepsFailing: async (m) => mails.push(m),
    });
    for (let i = 0; i < 4; i++) await keeper.check();
    expect(keeper.context()).toBeNull();
    const said = lines.filter((l) => l.includes("could not get the certificate for studio.test"));
    expect(said.length).toBe(4);
    expect(said[0]).toContain(
      "from https://127.0.0.1:9/dir: the directory https://127.0.0.1:9/dir cannot be reached (ECONNREFUSED); trying again in 1 min",
    );
    expect(said[2]).toContain("trying again in 4 min");
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatch(/^The certificate for studio\.test could not be obtained: /);
  });
});
