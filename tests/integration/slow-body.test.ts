/**
 * The slow-body rule of server/http/remix-handler.ts (issue 16.8) on a driven clock: a body still
 * arriving after SLOW_BODY_MS (60 s) at less than SLOW_BODY_MIN_RATE on average gets 408 and its
 * connection closes; one that keeps up goes on. The request is real (a socket to an express app
 * with the product's handler and a one-route Remix build); only Date and setInterval are faked, so
 * the minute passes at once. tests/server/adversarial.test.ts trickles a body to the running
 * production build for the real minute (npm run test:slow).
 */
import http from "node:http";
import net from "node:net";
import type { ServerBuild } from "@remix-run/node";
import express, { type Response as ExpressResponse } from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createRemixHandler, SLOW_BODY_MIN_RATE, SLOW_BODY_MS } from "../../server/http/remix-handler";

/** One resource route, POST /upload, whose action reads the whole body and says how much it got. */
const build = {
  mode: "production",
  entry: { module: { default: () => new Response("no documents here", { status: 500 }) } },
  routes: {
    root: { id: "root", path: "", module: {} },
    "routes/upload": {
      id: "routes/upload",
      parentId: "root",
      path: "upload",
      module: {
        action: async ({ request }: { request: Request }) =>
          new Response(`read ${(await request.arrayBuffer()).byteLength} bytes`, {
            headers: { "Content-Type": "text/plain" },
          }),
      },
    },
  },
  assets: { entry: { module: "/build/entry.js", imports: [] }, routes: {}, url: "/build/manifest.js", version: "1" },
  publicPath: "/build/",
  assetsBuildDirectory: "public/build",
  future: {},
  isSpaMode: false,
} as unknown as ServerBuild;

let server: http.Server;
let port = 0;
/** The response of each request as the handler got it (headersSent tells whether it was answered). */
const responses: ExpressResponse[] = [];

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    responses.push(res);
    next();
  });
  const remix = createRemixHandler(build, "production");
  app.use((req, res) => void remix(req, res, { loadContext: {}, bodyLimit: 50 * 1024 * 1024, secure: false }));
  server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

afterEach(() => {
  vi.useRealTimers();
  responses.length = 0;
});

/** Opens a POST /upload declaring `length` bytes, sends `first`; resolves the socket and its eventual answer. */
async function upload(length: number, first: Buffer) {
  const socket = net.connect(port, "127.0.0.1");
  let data = "";
  socket.on("data", (c: Buffer) => (data += c.toString("latin1")));
  const closed = new Promise<{ status: number; text: string }>((resolve) =>
    socket.on("close", () =>
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text: data.split("\r\n\r\n")[1] ?? "" }),
    ),
  );
  socket.on("error", () => {});
  socket.write(
    `POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`,
  );
  socket.write(first);
  // The handler has the request (and its body counter has started) once the middleware saw it.
  await expect.poll(() => responses.length, { timeout: 10_000 }).toBe(1);
  return { socket, res: responses[0], answer: closed };
}

describe("a body that arrives too slowly (issue 16.8)", () => {
  it("is the 60 s rule: SLOW_BODY_MS is a minute, SLOW_BODY_MIN_RATE 64 KB/s", () => {
    expect(SLOW_BODY_MS).toBe(60_000);
    expect(SLOW_BODY_MIN_RATE).toBe(64 * 1024);
  });

  it("is still being read a second before the minute, and gets 408 in words just after it", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    const { socket, res, answer } = await upload(100_000, Buffer.from("a".repeat(100)));
    await vi.advanceTimersByTimeAsync(SLOW_BODY_MS - 1000);
    expect(res.headersSent).toBe(false);
    socket.write("a"); // a trickle: still far below the rate
    await vi.advanceTimersByTimeAsync(2000);
    expect(res.headersSent).toBe(true);
    const { status, text } = await answer;
    expect(status).toBe(408);
    expect(text).toContain("The request body arrived too slowly. Please try again.");
  });

  it("keeps reading past the minute a body that averages the rate, and hands all of it to the route", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
    const seconds = SLOW_BODY_MS / 1000 + 5;
    const total = SLOW_BODY_MIN_RATE * (seconds + 5);
    const { socket, res, answer } = await upload(total, Buffer.alloc(SLOW_BODY_MIN_RATE * seconds, 1));
    // Everything sent so far has reached the handler's counter before the clock moves on.
    await new Promise<void>((r) => socket.write("", () => r()));
    await expect
      .poll(() => (res.req.socket?.bytesRead ?? 0) >= SLOW_BODY_MIN_RATE * seconds, { timeout: 10_000 })
      .toBe(true);
    await vi.advanceTimersByTimeAsync(seconds * 1000);
    expect(res.headersSent).toBe(false);
    socket.end(Buffer.alloc(total - SLOW_BODY_MIN_RATE * seconds, 1));
    const { status, text } = await answer;
    expect(status).toBe(200);
    expect(text).toContain(`read ${total} bytes`);
  });
});
