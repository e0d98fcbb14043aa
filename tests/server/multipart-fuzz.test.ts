/**
 * Malformed multipart bodies against every route that reads one (issue 40.1), on the running
 * production build: a body cut off at every byte of a part, of a part's headers and of the
 * boundary; empty and missing file names; many parts; huge part headers; and random damage
 * (fast-check). Each is answered with a 4xx, the server keeps serving, and after the whole file
 * the process that served it is the first one it started.
 *
 * `npm test` cuts each body at every 10th byte (each route from another even first byte, so the five
 * routes together cut at every even byte of the part they share), sends every 14th cut chunked and
 * runs FUZZ_RUNS random damages (default 40); the slow suite (`npm run test:slow`) cuts at every
 * byte and runs 20 times the damages.
 */
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpVisitor, sessionCookie, startServer, type RunningServer } from "../helpers/server";

let server: RunningServer;
let firstPid: number;
let draftCookie: string;
let adminCookies: string[];
let sent = 0;
/** The next of several admins: each has its own upload limit (200 per 10 minutes). */
const adminCookie = () => adminCookies[sent % adminCookies.length];

beforeAll(async () => {
  server = await startServer();
  firstPid = server.proc.pid!;
  const visitor = httpVisitor(server.url);
  // The wizard's first four steps: the draft the upload routes need.
  await visitor.fillSteps("fuzz@example.com");
  draftCookie = visitor.cookie;
  adminCookies = await Promise.all(
    Array.from({ length: 8 }, (_, i) => sessionCookie(server.dataDir, `owner${i}@example.com`, "admin")),
  );
});

afterAll(async () => {
  // No restart: the process that served every request is still the first one.
  expect(server.proc.pid).toBe(firstPid);
  expect(server.proc.exitCode).toBeNull();
  expect(server.proc.signalCode).toBeNull();
  // Every error was handled where it was made: none reached the process's last line.
  expect(server.output()).not.toContain("escaped while request");
  await server?.stop();
});

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

type Route = { name: string; path: string; cookie: () => string; fileField: string; fields: Record<string, string> };

/** Every route that reads a multipart body, with the file field it keeps. */
const ROUTES: Route[] = [
  { name: "the upload zone", path: "/booking/files", cookie: () => draftCookie, fileField: "files", fields: {} },
  {
    name: "step 5 without JavaScript",
    path: "/booking?index&step=5",
    cookie: () => draftCookie,
    fileField: "files",
    fields: { intent: "next" },
  },
  {
    name: "step 5's data request",
    path: "/booking.data?index&step=5",
    cookie: () => draftCookie,
    fileField: "files",
    fields: { intent: "upload" },
  },
  {
    name: "the console's upload",
    path: "/admin/upload?bucket=template-images&slug=fuzz",
    cookie: adminCookie,
    fileField: "files",
    fields: {},
  },
  {
    name: "Settings, Case studies",
    path: "/admin/settings?section=caseStudies",
    cookie: adminCookie,
    fileField: "newImages",
    fields: { section: "caseStudies", intent: "save" },
  },
];

const BOUNDARY = "----fuzzboundary7MA4YWxkTrZu0gW";

type Part = { name: string; filename?: string | null; type?: string; body: Buffer | string; rawHeaders?: string };

function part(p: Part): Buffer {
  const disposition =
    p.rawHeaders ??
    `Content-Disposition: form-data; name="${p.name}"${p.filename === undefined ? "" : p.filename === null ? "; filename" : `; filename="${p.filename}"`}` +
      (p.type ? `\r\nContent-Type: ${p.type}` : "");
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\n${disposition}\r\n\r\n`),
    Buffer.from(p.body),
    Buffer.from("\r\n"),
  ]);
}

function body(parts: Part[], close = true): Buffer {
  return Buffer.concat([...parts.map(part), Buffer.from(close ? `--${BOUNDARY}--\r\n` : "")]);
}

/**
 * Posts raw bytes with node:http (fetch would not send a body this broken, nor huge headers):
 * answers the status, 0 when the server closed the connection without one.
 */
function post(route: Route, bytes: Buffer, chunked = false): Promise<number> {
  sent++;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        method: "POST",
        path: route.path,
        agent: false,
        headers: {
          Origin: server.url,
          Cookie: route.cookie(),
          // A client address of its own each time (trusted from loopback): the per-client upload
          // limits would otherwise answer 429 without reading the body.
          "X-Forwarded-For": `10.${(sent >> 16) & 255}.${(sent >> 8) & 255}.${sent & 255}`,
          "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
          ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(bytes.length) }),
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") resolve(0);
      else reject(error);
    });
    req.end(bytes);
  });
}

async function alive() {
  expect(server.proc.exitCode, server.output().slice(-3000)).toBeNull();
  expect(server.proc.signalCode, server.output().slice(-3000)).toBeNull();
  const res = await fetch(`${server.url}/healthz`);
  expect(res.status).toBe(200);
}

/** A valid body: a text field, a file part the route skips (another name), then one it keeps. */
function wholeBody(route: Route): Buffer {
  return body([
    ...Object.entries(route.fields).map(([name, value]) => ({ name, body: value })),
    { name: "other", filename: "skipped.png", type: "image/png", body: PNG },
    { name: route.fileField, filename: "logo.png", type: "image/png", body: PNG },
  ]);
}

/** Statuses a malformed body may get: a 4xx (or a redirect of the form back to its step). */
const refused = (status: number) => status >= 400 && status < 500;

/**
 * Every `step`th prefix of the route's body short of the closing boundary, from `first`: each cuts a
 * part, its headers or a boundary. Each is answered with a 4xx, and the server keeps serving.
 */
async function cutOff(route: Route, step: number, first = 0) {
  const whole = wholeBody(route);
  const statuses = new Map<number, number>();
  const end = whole.length - `--${BOUNDARY}--\r\n`.length;
  for (let cut = first; cut < end; cut += step) {
    const status = await post(route, whole.subarray(0, cut));
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    expect(
      refused(status),
      `cut at ${cut} of ${whole.length}: ${status} ${server.proc.signalCode ? server.output().slice(-4000) : ""}`,
    ).toBe(true);
  }
  await alive();
}

describe.each(ROUTES)("$name", (route) => {
  it("a body cut off at every 10th byte (parts, part headers, boundary) is a 4xx, and the server keeps serving", async () => {
    await cutOff(route, 10, (2 * ROUTES.indexOf(route)) % 10);
  });

  it(
    "a body cut off at every byte (parts, part headers, boundary) is a 4xx, and the server keeps serving",
    { tags: ["slow"] },
    async () => {
      await cutOff(route, 1);
    },
  );

  it("the same cut-off bodies sent chunked", async () => {
    const whole = wholeBody(route);
    for (let cut = 0; cut < whole.length - 40; cut += 14) {
      const status = await post(route, whole.subarray(0, cut), true);
      expect(refused(status), `chunked, cut at ${cut}: ${status}`).toBe(true);
    }
    await alive();
  });

  it("empty and missing file names, many parts, huge part headers: never a 5xx", async () => {
    const cases: [string, Buffer][] = [
      ["an empty file name", body([{ name: route.fileField, filename: "", body: PNG }])],
      ["a file name without a value", body([{ name: route.fileField, filename: null, body: PNG }])],
      ["an empty file name, cut off", body([{ name: route.fileField, filename: "", body: PNG }], false)],
      ["a skipped part, cut off", body([{ name: "other", filename: "x.png", body: PNG }], false)],
      [
        "500 file parts",
        body(
          Array.from({ length: 500 }, (_, i) => ({
            name: i % 2 ? "other" : route.fileField,
            filename: `${i}.png`,
            body: PNG,
          })),
        ),
      ],
      [
        "500 file parts, cut off",
        body(
          Array.from({ length: 500 }, (_, i) => ({ name: "x", filename: `${i}.png`, body: PNG })),
          false,
        ),
      ],
      [
        "a 200 KB part header",
        body([
          {
            name: route.fileField,
            rawHeaders: `Content-Disposition: form-data; name="${route.fileField}"; filename="${"a".repeat(200_000)}.png"`,
            body: PNG,
          },
        ]),
      ],
      ["a part with no headers", body([{ name: "", rawHeaders: "", body: "x" }])],
      ["a header without a colon", body([{ name: "", rawHeaders: "Content-Disposition form-data", body: "x" }])],
      ["only the closing boundary", Buffer.from(`--${BOUNDARY}--\r\n`)],
      [
        "another boundary",
        Buffer.from(
          `--other\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\n\r\nx\r\n--other--\r\n`,
        ),
      ],
    ];
    for (const [name, bytes] of cases) {
      const status = await post(route, bytes);
      expect(status, name).toBeGreaterThanOrEqual(200);
      expect(status, name).toBeLessThan(500);
    }
    await alive();
  });

  it("random damage to a valid body: never a 5xx, never a crash", async () => {
    await randomDamage(route, Number(process.env.FUZZ_RUNS ?? 40));
  });

  it("random damage, the long run", { tags: ["slow"] }, async () => {
    await randomDamage(route, 20 * Number(process.env.FUZZ_RUNS ?? 40));
  });
});

async function randomDamage(route: Route, numRuns: number) {
  {
    const whole = wholeBody(route);
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            at: fc.nat({ max: whole.length - 1 }),
            bytes: fc.uint8Array({ maxLength: 8 }),
            drop: fc.nat({ max: 16 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.nat({ max: whole.length }),
        async (edits, cut) => {
          let bytes: Buffer = Buffer.from(whole);
          for (const e of edits)
            bytes = Buffer.concat([bytes.subarray(0, e.at), Buffer.from(e.bytes), bytes.subarray(e.at + e.drop)]);
          const status = await post(route, bytes.subarray(0, Math.min(cut + 40, bytes.length)));
          return status >= 200 && status < 500;
        },
      ),
      { numRuns },
    );
    await alive();
  }
}
