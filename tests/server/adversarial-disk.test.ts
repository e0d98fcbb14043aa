/**
 * A full data disk (issue 16.4) against the running production build: the data folder is a small
 * tmpfs, filled up while visitors book and upload. Every answer is a success or a 507 in words
 * (never a 500, never "ENOSPC"), no partial file stays behind, and every acknowledged booking has
 * its two messages in the outbox. Needs root to mount a tmpfs; skipped with the reason otherwise.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillDisk, healthWhen, mountTmpfs } from "../helpers/disk";
import { httpVisitor, queryDb, sessionCookie, startServer, type RunningServer } from "../helpers/server";

const MESSAGE =
  "The studio's server has run out of storage space, so nothing was saved. Please try again in a few minutes.";

const PNG = Buffer.concat([
  Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex"),
  Buffer.alloc(512 * 1024, 3),
]);

function multipart(boundary: string, filename: string, content: Buffer, fields: Record<string, string> = {}): Buffer {
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return Buffer.concat(parts);
}

/** Files under storage/ other than the bucket files the database knows about. */
function strayFiles(dataDir: string): string[] {
  const root = path.join(dataDir, "storage");
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.existsSync(d) ? fs.readdirSync(d, { withFileTypes: true }) : []) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (
        full.includes(`${path.sep}.uploads${path.sep}`) ||
        e.name.endsWith(".tmp") ||
        full.includes(`${path.sep}bookings${path.sep}`)
      )
        out.push(path.relative(root, full));
    }
  };
  walk(root);
  return out;
}

// Mounted in beforeAll, not when the file is read: `npm test` (tags-filter !slow) collects this
// file too, and must neither mount a tmpfs nor leave one behind.
describe("a full data disk", { tags: ["slow"] }, () => {
  let server: RunningServer;
  let dataDir = "";
  let skipped = "";
  beforeAll(async () => {
    const mounted = mountTmpfs("48m", "studio-full-disk-");
    if (!mounted.dir) {
      skipped = mounted.reason;
      console.warn(`[adversarial-disk] skipped: ${skipped}`);
      return;
    }
    dataDir = mounted.dir;
    // /healthz fails below MIN_FREE_MB: a 48 MB disk starts with about 47 free.
    server = await startServer({ dataDir, env: { MIN_FREE_MB: "8" } });
  });
  afterAll(async () => {
    await server?.stop();
    if (!dataDir) return;
    try {
      execFileSync("umount", [dataDir]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    } catch {
      /* left for the OS to clean */
    }
  });

  it("every answer is a success or a 507 in words, nothing partial is kept, every acknowledged booking has its mail", async (ctx) => {
    if (skipped) ctx.skip(skipped);
    // Visitors who got as far as the upload step before the disk filled up.
    const visitors = await Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        const v = httpVisitor(server.url);
        for (const [step, fields] of (await import("../helpers/server"))
          .bookingSteps(`full-${i}@example.com`)
          .slice(0, 4)) {
          const res = await v.post(step, fields);
          expect(res.status).toBe(302);
        }
        return v;
      }),
    );
    const admin = await sessionCookie(dataDir, "owner@example.com", "admin");
    const filler = fillDisk(dataDir);
    // The health check tells the truth about it (issue 33.4): 503, naming the cause.
    const health = await healthWhen(server.url, 503);
    expect(health.reason).toContain("MB free, less than MIN_FREE_MB (8 MB)");
    expect(health.reason).toContain("the disk is full (ENOSPC)");

    const answers: { what: string; status: number; text: string }[] = [];
    const record = async (what: string, res: Response) =>
      answers.push({ what, status: res.status, text: await res.text() });
    /** A step posted as a browser without JavaScript does, the answer kept to be read. */
    const post = (cookie: string, step: number, fields: Record<string, string>) =>
      fetch(`${server.url}/booking?index&step=${step}`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: server.url, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
    const boundary = "----fullDiskBoundary";
    for (const [i, v] of visitors.entries()) {
      await record(
        "file upload (JavaScript)",
        await fetch(`${server.url}/booking/files`, {
          method: "POST",
          headers: {
            Origin: server.url,
            Cookie: v.cookie,
            "Content-Type": `multipart/form-data; boundary=${boundary}`,
          },
          body: multipart(boundary, "logo.png", PNG),
        }),
      );
      await record(
        "file upload (no JavaScript)",
        await fetch(`${server.url}/booking?index&step=5`, {
          method: "POST",
          redirect: "manual",
          headers: {
            Origin: server.url,
            Cookie: v.cookie,
            "Content-Type": `multipart/form-data; boundary=${boundary}`,
          },
          body: multipart(boundary, "logo.png", PNG, { intent: "upload" }),
        }),
      );
      await record("step 5", await post(v.cookie, 5, { intent: "next" }));
      await record("confirm", await post(v.cookie, 6, { intent: "confirm", slot: (await v.firstSlot()) ?? "" }));
      await record(
        "a new visitor's step 1",
        await post("", 1, {
          selectedPackage: "growth",
          name: `New ${i}`,
          email: `new-${i}@example.com`,
          company: "Co",
          intent: "next",
        }),
      );
    }
    await record(
      "admin archive upload",
      await fetch(`${server.url}/admin/upload?bucket=template-files&slug=full`, {
        method: "POST",
        headers: { Origin: server.url, Cookie: admin, "Content-Type": `multipart/form-data; boundary=${boundary}` },
        body: multipart(
          boundary,
          "site.zip",
          Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(2 * 1024 * 1024)]),
        ),
      }),
    );

    for (const a of answers) {
      expect(a.status, `${a.what}: ${a.text.slice(0, 200)}`).toBeLessThan(500 + (a.status === 507 ? 8 : 0));
      expect(a.text).not.toMatch(/ENOSPC|SQLITE_FULL|no space left/i);
      if (a.status === 507) expect(a.text.replace(/\\u0027|&#x27;|&#39;/g, "'")).toContain(MESSAGE);
    }
    // What a new visitor typed comes back with the message (the page without JavaScript).
    for (const a of answers.filter((x) => x.what === "a new visitor's step 1" && x.status === 507))
      expect(a.text).toMatch(/value="New \d"/);
    // The uploads cannot have been stored: each was told so in words.
    expect(answers.filter((a) => a.what.startsWith("file upload")).every((a) => a.status === 507)).toBe(true);
    expect(answers.find((a) => a.what === "admin archive upload")?.status).toBe(507);
    expect(strayFiles(dataDir)).toEqual([]);

    // The disk is freed: the same visitors finish, and nothing acknowledged is without its mail.
    fs.rmSync(filler);
    for (const v of visitors) {
      await v.post(5, { intent: "next" });
      const res = await v.confirm();
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/booking/success");
    }
    const bookings = queryDb<{ id: string; email: string }>(
      dataDir,
      "select id, email from bookings where email like 'full-%'",
    );
    expect(bookings).toHaveLength(4);
    for (const b of bookings) {
      const mail = queryDb<{ to_email: string }>(
        dataDir,
        "select to_email from email_outbox where text_body like ? or to_email = ?",
        `%${b.id}%`,
        b.email,
      );
      expect(mail.length, `mail of ${b.email}`).toBeGreaterThanOrEqual(2);
    }
    expect(server.output()).not.toMatch(/(\n|\\n)\s+at .+\(.+:\d+:\d+\)/);
    expect((await healthWhen(server.url, 200)).status).toBe("ok");
  });
});
