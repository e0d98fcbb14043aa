/**
 * The request line the server writes itself (server/log.server.ts, issue 42.1) is the line pino
 * writes for the same request: the same keys in the same order, the same values, the message masked
 * the same way. Both loggers answer the same requests on one server; only the id, the time, the
 * duration and the byte count may differ.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createLogger, requestLogger } from "../../server/log.server";

const viaPino: string[] = [];
const direct: string[] = [];
const pinoLogger = createLogger("json", { write: (line: string) => void viaPino.push(line) });
const logPino = requestLogger(pinoLogger, null);
const logDirect = requestLogger(pinoLogger, { write: (line: string) => direct.push(line) });

let server: http.Server;
let base = "";
beforeAll(async () => {
  let n = 0;
  server = http.createServer((req, res) => {
    const log = n++ % 2 === 0 ? logPino : logDirect;
    log(req, res, () => {
      const status = Number(new URL(req.url ?? "/", "http://x").searchParams.get("status") ?? 200);
      if (req.url?.includes("abort")) return void req.socket.destroy();
      res.writeHead(status, { "Content-Type": "text/plain" });
      res.end("hello");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const TARGETS = [
  "/",
  "/templates/atelier?status=200",
  "/missing?status=404",
  "/broken?status=503",
  '/odd/"quoted"/\\back/%E2%9C%93?status=200',
  "/auth/verify?email=someone@example.com&status=302",
  "/unicode/%F0%9F%8E%A8?status=200",
];

/** A line with what differs between two answers to the same request set to placeholders. */
const comparable = (line: string) =>
  line
    .replace(/"time":"[^"]+"/, '"time":"T"')
    .replace(/"reqId":"[^"]+"/, '"reqId":"ID"')
    .replace(/"ms":\d+/, '"ms":0')
    .replace(/"bytes":\d+/, '"bytes":0');

it("writes the line pino writes, for every status and for paths that need escaping or masking", async () => {
  for (const target of TARGETS) {
    for (let i = 0; i < 2; i++) {
      const res = await fetch(base + target, { redirect: "manual" });
      await res.arrayBuffer();
    }
  }
  await new Promise((r) => setTimeout(r, 50));
  expect(direct).toHaveLength(TARGETS.length);
  expect(viaPino).toHaveLength(TARGETS.length);
  for (let i = 0; i < TARGETS.length; i++) {
    expect(direct[i].endsWith("\n")).toBe(true);
    expect(comparable(direct[i])).toBe(comparable(viaPino[i]));
    // A real time and a real id, where the placeholders went.
    const parsed = JSON.parse(direct[i]) as { time: string; reqId: string; level: number };
    expect(new Date(parsed.time).toISOString()).toBe(parsed.time);
    expect(parsed.reqId).toMatch(/^[0-9a-f-]{36}$/);
  }
  expect(direct.join("")).not.toContain("someone@example.com");
  expect(direct.map((l) => (JSON.parse(l) as { level: number }).level)).toEqual([30, 30, 40, 50, 30, 30, 30]);
});

it("marks a response the client left before it finished, as pino's line does", async () => {
  direct.length = 0;
  viaPino.length = 0;
  for (let i = 0; i < 2; i++) await fetch(`${base}/abort`).catch(() => undefined);
  await new Promise((r) => setTimeout(r, 50));
  expect(direct).toHaveLength(1);
  expect(viaPino).toHaveLength(1);
  expect(direct[0]).toContain('"aborted":true');
  expect(comparable(direct[0])).toBe(comparable(viaPino[0]));
});
