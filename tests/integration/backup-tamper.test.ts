/**
 * A tampered backup exposes nothing: a restore brings back only regular files and folders under
 * storage/ (no symbolic or hard links, devices, FIFOs, absolute paths or `..`), and an outer
 * member that is not a regular file is refused too, each naming the entry, before anything in the
 * data folder changes. What GNU tar writes (long names in its own, ustar and pax forms) reads back
 * the same.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createBackup, restoreBackup } from "../../server/db/backup.server";
import { freshDb, type TestDb } from "../helpers/db";

const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const opened: TestDb[] = [];
afterEach(async () => {
  for (const t of opened.splice(0)) await t.close();
});

/** A tar header as tar writes one (ustar), for the entries GNU tar would not write as asked. */
function header(name: string, o: { type?: string; size?: number; linkname?: string; prefix?: string } = {}): Buffer {
  const h = Buffer.alloc(512);
  const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, "0") + "\0";
  h.write(name, 0, 100, "utf8");
  h.write(octal(o.type === "5" ? 0o755 : 0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(o.size ?? 0, 12), 124);
  h.write(octal(1_767_225_600, 12), 136);
  h.write("        ", 148);
  h.write(o.type ?? "0", 156);
  if (o.linkname) h.write(o.linkname, 157, 100, "utf8");
  h.write("ustar\0", 257);
  h.write("00", 263);
  if (o.prefix) h.write(o.prefix, 345, 155, "utf8");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + " ", 148);
  return h;
}

type Entry = { name: string; type?: string; body?: string; linkname?: string };

/** A .tar.gz of exactly these entries, in this order. */
function craftedTarGz(entries: Entry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? "");
    parts.push(header(e.name, { type: e.type, size: body.length, linkname: e.linkname }));
    parts.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return zlib.gzipSync(Buffer.concat(parts));
}

/** The legitimate start of a storage archive, then the entry under test. */
const storageWith = (...bad: Entry[]) =>
  craftedTarGz([
    { name: "storage/", type: "5" },
    { name: "storage/template-images/", type: "5" },
    { name: "storage/template-images/ok.png", body: "fine" },
    ...bad,
  ]);

const sha256 = (b: Buffer) => crypto.createHash("sha256").update(b).digest("hex");

/**
 * A real backup with its storage.tar.gz (or its app.db, as a symbolic link to `appDbLink`)
 * replaced, the manifest's checksums made to match: only what the reader does can refuse it.
 */
async function tamperedBackup(opts: { storage?: Buffer; appDbLink?: string }): Promise<string> {
  const t = await freshDb();
  opened.push(t);
  const { file } = await createBackup(t.dataDir, { defaultDir: tmp("bak-") });
  const work = tmp("tamper-");
  execFileSync("tar", ["-xf", file, "-C", work]);
  const manifest = JSON.parse(fs.readFileSync(path.join(work, "manifest.json"), "utf8"));
  if (opts.storage) {
    fs.writeFileSync(path.join(work, "storage.tar.gz"), opts.storage);
    manifest.parts["storage.tar.gz"] = { bytes: opts.storage.length, sha256: sha256(opts.storage) };
  }
  if (opts.appDbLink) {
    fs.rmSync(path.join(work, "app.db"));
    fs.symlinkSync(opts.appDbLink, path.join(work, "app.db"));
    const bytes = fs.readFileSync(opts.appDbLink);
    manifest.parts["app.db"] = { bytes: bytes.length, sha256: sha256(bytes) };
  }
  fs.writeFileSync(path.join(work, "manifest.json"), JSON.stringify(manifest));
  const out = path.join(tmp("tampered-"), "tampered.studio-backup");
  execFileSync("tar", ["-cf", out, "-C", work, "manifest.json", "app.db", "storage.tar.gz"]);
  return out;
}

/** A data folder in use: a database and a file of its own. */
async function dataFolder(): Promise<string> {
  const target = tmp("restore-");
  const existing = await freshDb();
  opened.push(existing);
  fs.copyFileSync(existing.file, path.join(target, "app.db"));
  fs.mkdirSync(path.join(target, "storage", "mine"), { recursive: true });
  fs.writeFileSync(path.join(target, "storage", "mine", "only-here.txt"), "mine");
  return target;
}

/** Every path under `dir` with its kind and, for files, the SHA-256 of its bytes (the lock file aside). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string, rel: string) => {
    for (const name of fs.readdirSync(at).sort()) {
      if (!rel && (name === ".studio.lock" || name === ".studio.pid")) continue;
      const full = path.join(at, name);
      const r = rel ? `${rel}/${name}` : name;
      const s = fs.lstatSync(full);
      if (s.isSymbolicLink()) out[r] = `link -> ${fs.readlinkSync(full)}`;
      else if (s.isDirectory()) {
        out[r] = "dir";
        walk(full, r);
      } else out[r] = `file ${sha256(fs.readFileSync(full))}`;
    }
  };
  walk(dir, "");
  return out;
}

async function expectRefused(backup: string, message: string) {
  const target = await dataFolder();
  const before = snapshot(target);
  const keepDir = path.join(target, "kept");
  await expect(restoreBackup(target, backup, { keepDir })).rejects.toThrow(`${backup} holds ${message}`);
  // Nothing changed: no kept backup made, the database and the files as they were.
  expect(fs.existsSync(keepDir)).toBe(false);
  expect(snapshot(target)).toEqual(before);
}

describe("a tampered backup is refused before anything changes", () => {
  it("a symbolic link in storage (made by GNU tar) is named and nothing is restored", async () => {
    const src = tmp("linked-");
    fs.mkdirSync(path.join(src, "storage", "template-images"), { recursive: true });
    fs.writeFileSync(path.join(src, "storage", "template-images", "ok.png"), "fine");
    fs.symlinkSync("../../app.db", path.join(src, "storage", "template-images", "db.png"));
    const storage = execFileSync("tar", ["-czf", "-", "-C", src, "storage"]);
    await expectRefused(
      await tamperedBackup({ storage }),
      "storage/template-images/db.png, a symbolic link; only regular files and folders are restored",
    );
  });

  it("a hard link in storage (made by GNU tar) is named", async () => {
    const src = tmp("hard-");
    fs.mkdirSync(path.join(src, "storage", "template-images"), { recursive: true });
    fs.writeFileSync(path.join(src, "storage", "template-images", "a.png"), "a");
    fs.linkSync(
      path.join(src, "storage", "template-images", "a.png"),
      path.join(src, "storage", "template-images", "b.png"),
    );
    const storage = execFileSync("tar", ["-czf", "-", "-C", src, "storage"]);
    // GNU tar stores the second name of the file as a link to the first (in its reading order).
    const second = execFileSync("tar", ["-tzvf", "-"], { input: storage })
      .toString()
      .split("\n")
      .find((l) => l.includes(" link to "))!
      .replace(/^.* (storage\/\S+) link to .*$/, "$1");
    await expectRefused(
      await tamperedBackup({ storage }),
      `${second}, a hard link; only regular files and folders are restored`,
    );
  });

  it("a hard link to a file outside the folder, a device and a FIFO are named", async () => {
    await expectRefused(
      await tamperedBackup({
        storage: storageWith({ name: "storage/template-images/x.png", type: "1", linkname: "../../app.db" }),
      }),
      "storage/template-images/x.png, a hard link",
    );
    await expectRefused(
      await tamperedBackup({ storage: storageWith({ name: "storage/template-images/tty", type: "3" }) }),
      "storage/template-images/tty, a character device",
    );
    await expectRefused(
      await tamperedBackup({ storage: storageWith({ name: "storage/template-images/pipe", type: "6" }) }),
      "storage/template-images/pipe, a FIFO",
    );
  });

  it("a path with `..`, an absolute path and a path outside storage/ are named", async () => {
    await expectRefused(
      await tamperedBackup({ storage: storageWith({ name: "storage/../../escaped.txt", body: "x" }) }),
      "storage/../../escaped.txt, a path with '..'",
    );
    await expectRefused(
      await tamperedBackup({ storage: storageWith({ name: "/tmp/absolute.txt", body: "x" }) }),
      "/tmp/absolute.txt, an absolute path",
    );
    await expectRefused(
      await tamperedBackup({ storage: storageWith({ name: "elsewhere/x.txt", body: "x" }) }),
      "elsewhere/x.txt, a path outside storage/",
    );
  });

  it("an outer member that is a symbolic link (app.db -> another database) is named and not renamed into place", async () => {
    const other = await freshDb();
    opened.push(other);
    await expectRefused(
      await tamperedBackup({ appDbLink: other.file }),
      "app.db, a symbolic link; only regular files and folders are restored",
    );
  });
});

describe("what GNU tar writes reads back the same", () => {
  /** A storage folder with deep folders, names past 100 and 155 characters, an empty file and folder. */
  function storageTree(root: string): void {
    const long = "a".repeat(120);
    const files: Record<string, string> = {
      "template-images/spark-1.svg": "<svg/>",
      "template-files/atelier.zip": crypto.randomBytes(70_000).toString("latin1"),
      [`booking-files/bookings/${"b".repeat(90)}/${long}.png`]: "long",
      [`booking-files/bookings/x/${"c".repeat(60)}/${"d".repeat(60)}/${"e".repeat(60)}/f.pdf`]: "deep",
      "booking-files/bookings/y/empty.txt": "",
      "studio-images/café-ünïcode.png": "utf8 name",
    };
    for (const [rel, body] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, "storage", rel)), { recursive: true });
      fs.writeFileSync(path.join(root, "storage", rel), body, "latin1");
    }
    fs.mkdirSync(path.join(root, "storage", "booking-files", "empty-folder"), { recursive: true });
  }

  it("a backup of a real storage folder (GNU tar's own format) restores every file and folder", async () => {
    const t = await freshDb();
    opened.push(t);
    storageTree(t.dataDir);
    const { file } = await createBackup(t.dataDir, { defaultDir: tmp("bak-") });
    const target = tmp("restore-");
    await restoreBackup(target, file, { keepDir: path.join(target, "kept") });
    expect(snapshot(path.join(target, "storage"))).toEqual(snapshot(path.join(t.dataDir, "storage")));
    const s = fs.statSync(path.join(target, "storage", "template-files", "atelier.zip"));
    // Readable by the studio's user and group only.
    expect(s.mode & 0o7007).toBe(0);
  });

  for (const format of ["ustar", "pax", "gnu"] as const) {
    it(`a storage archive in the ${format} format restores the same`, async () => {
      const src = tmp(`${format}-`);
      storageTree(src);
      // ustar holds at most a 155-character folder and a 100-character name: the deep path, not the long name.
      const names =
        format === "ustar"
          ? ["storage/template-images", "storage/template-files", "storage/booking-files/bookings/x"]
          : ["storage"];
      const storage = execFileSync("tar", [`--format=${format}`, "-czf", "-", "-C", src, ...names]);
      const target = tmp("restore-");
      await restoreBackup(target, await tamperedBackup({ storage }), { keepDir: path.join(target, "kept") });
      // What was archived, and the folders above it.
      const archived = (k: string) =>
        names.some((n) => `storage/${k}` === n || `storage/${k}`.startsWith(`${n}/`) || n.startsWith(`storage/${k}/`));
      const want = Object.fromEntries(Object.entries(snapshot(path.join(src, "storage"))).filter(([k]) => archived(k)));
      const got = snapshot(path.join(target, "storage"));
      expect(got).toEqual(want);
    });
  }
});
