/**
 * Hostile and malformed requests against the running production build (issue 16): each answer is
 * a 4xx, never a 5xx or a crash, and the server answers /healthz afterwards.
 */
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpVisitor, queryDb, sessionCookie, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Streams up to `total` bytes as a chunked body (no Content-Length) and resolves with the status
 * of the answer and how much had been sent when it came.
 */
function chunkedPost(
  path: string,
  type: string,
  total: number,
  first = "",
): Promise<{ status: number; sent: number; body: string }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: "POST",
        path,
        headers: { Origin: server.url, "Content-Type": type, "Transfer-Encoding": "chunked" },
      },
      (res) => {
        answered = true;
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, sent, body }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (answered) return;
      // The server closed the connection on a body it refused before its answer could be read
      // (it answers at once, without reading, then closes): status 0, with what had been sent.
      if (error.code === "ECONNRESET" || error.code === "EPIPE") {
        answered = true;
        resolve({ status: 0, sent, body: "" });
      } else reject(error);
    });
    const chunk = Buffer.alloc(64 * 1024, "a");
    if (first) {
      req.write(first);
      sent += first.length;
    }
    const pump = () => {
      while (!answered && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!answered) req.end();
    };
    pump();
    setTimeout(() => {
      if (!answered) reject(new Error(`no answer after ${sent} bytes`));
    }, 60_000).unref();
  });
}

async function healthy() {
  const res = await fetch(`${server.url}/healthz`);
  expect(res.status).toBe(200);
}

describe("bodies are counted while they stream, whatever their framing", () => {
  it("a 25 MB chunked booking step is refused with 413 long before it is all sent", async () => {
    const before = rssMb(server.proc.pid!);
    const r = await chunkedPost(
      "/booking?index&step=1",
      "application/x-www-form-urlencoded",
      25 * 1024 * 1024,
      "name=",
    );
    expect(r.status).toBe(413);
    expect(r.sent).toBeLessThan(25 * 1024 * 1024);
    expect(rssMb(server.proc.pid!) - before).toBeLessThan(30);
    await healthy();
  });

  it.each([
    ["the Stripe webhook", "/webhooks/stripe", "application/json"],
    ["the magic-link request", "/auth/email", "application/x-www-form-urlencoded"],
    ["a data request for a booking step", "/booking.data?index&step=1", "application/x-www-form-urlencoded"],
  ])("150 MB chunked to %s: 413, memory flat", async (_name, path, type) => {
    const before = rssMb(server.proc.pid!);
    const r = await chunkedPost(path, type, 150 * 1024 * 1024);
    expect(r.status).toBe(413);
    expect(r.sent).toBeLessThan(150 * 1024 * 1024);
    expect(rssMb(server.proc.pid!) - before).toBeLessThan(30);
    await healthy();
  });

  it("150 MB chunked to a tRPC mutation of a signed-out buyer: refused without reading it all", async () => {
    const before = rssMb(server.proc.pid!);
    const r = await chunkedPost("/api/trpc/checkout.create", "application/json", 150 * 1024 * 1024);
    // 401 at once, without reading; a loaded host can see the close before the answer (0).
    expect([0, 401, 413]).toContain(r.status);
    expect(r.sent).toBeLessThan(150 * 1024 * 1024);
    expect(rssMb(server.proc.pid!) - before).toBeLessThan(30);
    await healthy();
  });

  it("the upload step's limit applies to its data request too (/booking.data)", async () => {
    // A 2 MB file posted to the step-5 data request is within the route's limit: the whole body is
    // sent and read, and whatever the step makes of it (there is no draft here), it is not a 413.
    const boundary = "x";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nupload\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG_BYTES,
      Buffer.alloc(2 * 1024 * 1024 - PNG_BYTES.length, 1),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${server.url}/booking.data?index&step=5`, {
      method: "POST",
      headers: { Origin: server.url, "Content-Type": `multipart/form-data; boundary=${boundary}` },
      body,
      redirect: "manual",
    });
    await res.arrayBuffer();
    expect(res.status).not.toBe(413);
    expect(res.status).toBeLessThan(500);
    await healthy();
  });
});

/** A raw HTTP/1.1 request (any method, any request target); resolves with the status line's code and the body. */
function raw(requestText: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, "127.0.0.1", () => socket.end(requestText));
    let data = "";
    socket.on("data", (c) => (data += c.toString()));
    socket.on("end", () =>
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0),
        text: data.split("\r\n\r\n").slice(1).join("\r\n\r\n"),
      }),
    );
    socket.on("error", reject);
  });
}

describe("bad requests get a 4xx with a clear message, never a 5xx", () => {
  const bodies = [
    ["text/plain", "name=Ada"],
    ["application/json", '{"name":"Ada"}'],
    ["multipart/form-data", "--x\r\n"],
  ] as const;
  const paths = [
    "/booking?index&step=1",
    "/booking?index&step=5",
    "/booking.data?index&step=2",
    "/auth/email",
    "/auth/callback",
    "/setup?token=forged",
  ];
  for (const p of paths) {
    it.each(bodies)(`%s posted to ${p}`, async (type, body) => {
      const res = await fetch(`${server.url}${p}`, {
        method: "POST",
        headers: { Origin: server.url, "Content-Type": type },
        body,
        redirect: "manual",
      });
      expect(res.status).toBe(415);
      expect(await res.text()).toContain("send the form as application/x-www-form-urlencoded or multipart/form-data");
    });
  }

  it.each([
    ["TRACE /", "TRACE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405],
    ["PUT /booking", "PUT /booking HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 405],
    ["GET *", "GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400],
    [
      "an absolute-URL request line",
      "GET http://evil.example/admin HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
      400,
    ],
    ["a scheme-relative target", "GET //evil.example/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400],
  ])("%s", async (_name, request, status) => {
    const r = await raw(request);
    expect(r.status).toBe(status);
    expect(r.text.length).toBeGreaterThan(0);
  });

  it("logged no stack trace for any of them, and still answers", async () => {
    expect(server.output()).not.toMatch(/(\n|\\n)\s+at .+\(.+:\d+:\d+\)/);
    await healthy();
  });
});

/**
 * Sends `first` (headers) and its body on one kept-alive connection, reads the answer, then asks
 * for /healthz on the same connection. Resolves with both answers (the second is null when the
 * server said `Connection: close`, as a client then opens a new connection).
 */
function keepAliveSequence(
  first: string,
  body: Buffer,
): Promise<{ first: number; firstClose: boolean; second: number | null; error?: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, "127.0.0.1");
    let buf = Buffer.alloc(0);
    let phase: 1 | 2 = 1;
    let firstStatus = 0;
    let firstClose = false;
    /** One whole response at the start of `buf` (Content-Length framed), or null while incomplete. */
    const takeResponse = (): { status: number; close: boolean } | null => {
      const end = buf.indexOf("\r\n\r\n");
      if (end < 0) return null;
      const head = buf.subarray(0, end).toString("latin1");
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (buf.length < end + 4 + length) return null;
      buf = buf.subarray(end + 4 + length);
      return {
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        close: /\r\nconnection:\s*close/i.test(head),
      };
    };
    socket.on("data", (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      const r = takeResponse();
      if (!r) return;
      if (phase === 1) {
        firstStatus = r.status;
        firstClose = r.close;
        if (r.close) {
          socket.destroy();
          return resolve({ first: firstStatus, firstClose, second: null });
        }
        phase = 2;
        socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
      } else {
        socket.destroy();
        resolve({ first: firstStatus, firstClose, second: r.status });
      }
    });
    socket.on("error", (error) =>
      firstStatus ? resolve({ first: firstStatus, firstClose, second: null, error: error.message }) : reject(error),
    );
    socket.on("close", () =>
      resolve({ first: firstStatus, firstClose, second: null, error: "closed without Connection: close" }),
    );
    socket.write(first);
    socket.write(body);
    setTimeout(() => resolve({ first: firstStatus, firstClose, second: null, error: "timed out" }), 15_000).unref();
  });
}

describe("a refusal answered before the body is read leaves the kept-alive connection usable (issue 16.5)", () => {
  const body = Buffer.alloc(200 * 1024, "a");
  it.each([
    [
      "an admin upload by a signed-out visitor (401)",
      "/admin/upload?bucket=template-images",
      "multipart/form-data; boundary=x",
    ],
    ["a tRPC mutation by a signed-out visitor (401)", "/api/trpc/checkout.create", "application/json"],
    ["a booking file upload without a draft (409)", "/booking/files", "multipart/form-data; boundary=x"],
  ])("%s", async (_name, path, type) => {
    const r = await keepAliveSequence(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nOrigin: ${server.url}\r\nContent-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    expect(r.first).toBeGreaterThanOrEqual(400);
    expect(r.first).toBeLessThan(500);
    // Either the rest of the body was read and the connection serves the next request, or the
    // server said it closes the connection: never a reset of a connection it kept open.
    if (!r.firstClose) expect(r).toMatchObject({ second: 200 });
    expect(r.error).toBeUndefined();
  });

  it("a cross-site write refused with 403 says it closes the connection", async () => {
    const r = await keepAliveSequence(
      `POST /booking?index&step=1 HTTP/1.1\r\nHost: x\r\nOrigin: https://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    expect(r.first).toBe(403);
    expect(r.firstClose).toBe(true);
  });
});

describe("a slow body is cut off (issue 16.8)", { tags: ["slow"] }, () => {
  // The running build, for the real minute: the rule is wired in and answers in words. When it
  // answers (not before 60 s, well before Node's own limits) is shown on a driven clock in
  // tests/integration/slow-body.test.ts; here the test's 120 s timeout only bounds the wait.
  it("a booking step whose body trickles in gets the slow-body rule's 408 while it is still trickling", async () => {
    const declared = 100_000;
    const r = await new Promise<{ status: number; text: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      const socket = net.connect(server.port, "127.0.0.1", () => {
        socket.write(
          `POST /booking?index&step=1 HTTP/1.1\r\nHost: x\r\nOrigin: ${server.url}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${declared}\r\n\r\nname=`,
        );
        sent = 5;
      });
      // The client is the input here: one byte every 2 s, far below the 64 KB/s the rule asks for.
      const trickle = setInterval(() => (socket.write("a"), sent++), 2000);
      let data = "";
      socket.on("data", (c) => (data += c.toString()));
      socket.on("close", () => {
        clearInterval(trickle);
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0), text: data, sent });
      });
      socket.on("error", (error) => (data ? undefined : reject(error)));
    });
    // The product's answer (Node's own request timeout would send a bare 408 with no words), given
    // to a body far from complete.
    expect(r.status).toBe(408);
    expect(r.text).toContain("The request body arrived too slowly");
    expect(r.sent).toBeLessThan(declared);
    await healthy();
  }, 120_000);
});

describe("personal pages are never cached (issue 16.8)", () => {
  it.each([
    ["/admin for an admin", "/admin", "admin"],
    ["/admin for a buyer", "/admin", "buyer"],
    ["a template page for a signed-in buyer", "/templates/atelier", "buyer"],
    ["the dashboard data for a signed-in buyer", "/dashboard.data", "buyer"],
    ["the home page for a signed-in buyer", "/", "buyer"],
  ] as const)("%s: Cache-Control: private, no-store", async (_name, path, role) => {
    const cookie = await sessionCookie(server.dataDir, `${role}@example.com`, role);
    const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("/admin signed out is not cached either", async () => {
    const res = await fetch(`${server.url}/admin`, { redirect: "manual" });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });
});

/** A multipart body with one file part named `filename` (as a browser quotes it) and optional text fields. */
function multipartBody(
  boundary: string,
  filename: string,
  content: Buffer,
  fields: Record<string, string> = {},
): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const quoted = filename.replace(/"/g, "%22");
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${quoted}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return Buffer.concat(parts);
}

const PNG_BYTES = Buffer.concat([
  Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex"),
  Buffer.alloc(2048, 1),
]);

describe("file names as people write them are accepted (issue 16.6)", () => {
  it.each(["Logo; final.png", "brand=v2.png", "Café logo (final).png"])(
    "%s, uploaded with JavaScript and without",
    async (filename) => {
      const visitor = httpVisitor(server.url);
      await visitor.fillSteps(`names-${Math.random().toString(36).slice(2)}@example.com`);
      const boundary = "----studioBoundary7MA4YWxkTrZu0gW";
      const js = await fetch(`${server.url}/booking/files`, {
        method: "POST",
        headers: {
          Origin: server.url,
          Cookie: visitor.cookie,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
        },
        body: multipartBody(boundary, filename, PNG_BYTES),
      });
      const answer = (await js.json()) as { files?: { name: string }[]; error?: string };
      expect(answer.error).toBeUndefined();
      expect(js.status).toBe(200);
      expect(answer.files?.map((f) => f.name)).toEqual([filename]);

      const noJs = await fetch(`${server.url}/booking?index&step=5`, {
        method: "POST",
        redirect: "manual",
        headers: {
          Origin: server.url,
          Cookie: visitor.cookie,
          "Content-Type": `multipart/form-data; boundary=${boundary}`,
        },
        body: multipartBody(boundary, filename, PNG_BYTES, { intent: "upload" }),
      });
      expect(noJs.status).toBe(302);
      const drafts = queryDb<{ uploaded_files: string }>(
        server.dataDir,
        "select uploaded_files from booking_drafts where uploaded_files like ?",
        `%${filename.slice(0, 4)}%`,
      );
      const names = drafts.flatMap((d) => (JSON.parse(d.uploaded_files) as { name: string }[]).map((f) => f.name));
      expect(names.filter((n) => n === filename)).toHaveLength(2);
    },
  );
});

describe("uploads stream to disk (issue 16.10)", { tags: ["slow"] }, () => {
  /** Streams a 100 MB .zip to the admin upload and answers the status, the stored files and the peak RSS rise. */
  async function uploadArchive(
    cookie: string,
  ): Promise<{ status: number; files: { path: string; size: number }[]; rise: number }> {
    const boundary = "----studioArchiveBoundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="site.zip"\r\nContent-Type: application/zip\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const before = rssMb(server.proc.pid!);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.proc.pid!))), 25);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port: server.port,
          method: "POST",
          path: "/admin/upload?bucket=template-files&slug=big",
          headers: {
            Origin: server.url,
            Cookie: cookie,
            "Content-Type": `multipart/form-data; boundary=${boundary}`,
            "Content-Length": String(head.length + ARCHIVE_BYTES + tail.length),
          },
        },
        (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write(head);
      const zipStart = Buffer.alloc(1024 * 1024, 0);
      zipStart.set([0x50, 0x4b, 0x03, 0x04]);
      const zeros = Buffer.alloc(1024 * 1024, 0);
      let sent = 0;
      const pump = () => {
        while (sent < ARCHIVE_BYTES) {
          const piece = sent === 0 ? zipStart : zeros;
          sent += piece.length;
          if (!req.write(piece)) return void req.once("drain", pump);
        }
        req.end(tail);
      };
      pump();
    });
    clearInterval(sampler);
    const files =
      answer.status === 200 ? (JSON.parse(answer.body) as { files: { path: string; size: number }[] }).files : [];
    return { status: answer.status, files, rise: peak - before };
  }
  const ARCHIVE_BYTES = 100 * 1024 * 1024;

  it("a 100 MB template archive is stored whole and raises the server's RSS by under 30 MB", async () => {
    const cookie = await sessionCookie(server.dataDir, "owner@example.com", "admin");
    const rises: number[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await uploadArchive(cookie);
      expect(r.status).toBe(200);
      expect(r.files).toHaveLength(1);
      expect(r.files[0].size).toBe(ARCHIVE_BYTES);
      expect(fs.statSync(`${server.dataDir}/storage/template-files/${r.files[0].path}`).size).toBe(ARCHIVE_BYTES);
      rises.push(r.rise);
    }
    // Nothing left waiting in the upload folder.
    expect(fs.readdirSync(`${server.dataDir}/storage/.uploads`)).toEqual([]);
    console.log(
      `[adversarial] RSS rise while a 100 MB archive uploaded: first ${rises[0].toFixed(1)} MB, second ${rises[1].toFixed(1)} MB`,
    );
    // The first upload after start also loads what an upload needs; the second shows the steady state.
    expect(rises[1]).toBeLessThan(30);
    expect(rises[0]).toBeLessThan(45);
    await healthy();
  });
});
