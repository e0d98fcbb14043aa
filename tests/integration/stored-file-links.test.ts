/**
 * The file server sends only regular files whose real path stays inside their bucket: a symbolic
 * link planted under storage/ (by hand, or by an old restore) answers 404, whichever way it leaves
 * (to the database, to another bucket, through a linked folder), with or without a valid signature.
 * The storage's own reads (stat, exists, read) do not follow such links either.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { decideStoredFile } from "../../server/http/stored-file-access";
import { env } from "../../server/env.server";
import { createStorage, signedUrl, StoragePathError } from "../../server/storage/storage.server";

let dataDir = "";
const at = (...p: string[]) => path.join(dataDir, "storage", ...p);
const params = (link = "") => new URL(link, "http://x").searchParams;

beforeAll(() => {
  dataDir = env().DATA_DIR;
  fs.writeFileSync(path.join(dataDir, "app.db"), "SQLite format 3\0 the live database");
  for (const b of ["template-images", "template-files", "booking-files"]) fs.mkdirSync(at(b), { recursive: true });
  fs.writeFileSync(at("template-images", "ok.png"), "a picture");
  fs.writeFileSync(at("template-files", "spark.zip"), "a paid archive");
  fs.symlinkSync("../../app.db", at("template-images", "db.png"));
  fs.symlinkSync("../template-files/spark.zip", at("template-images", "spark.png"));
  fs.symlinkSync("..", at("template-images", "up"));
  fs.symlinkSync("/etc/passwd", at("booking-files", "passwd.pdf"));
});

describe("stored files and symbolic links", () => {
  it("a regular file is served", async () => {
    const d = await decideStoredFile("template-images", "ok.png", params());
    expect(d).toMatchObject({ ok: true });
    expect(fs.readFileSync((d as { file: string }).file, "utf8")).toBe("a picture");
  });

  it("a link to the database, to another bucket or through a linked folder answers 404", async () => {
    for (const rel of ["db.png", "spark.png", "up/template-files/spark.zip", "up/../app.db"]) {
      expect(await decideStoredFile("template-images", rel, params()), rel).toEqual({
        ok: false,
        status: 404,
        message: "Not found",
      });
    }
  });

  it("a validly signed link to a planted link answers 404", async () => {
    const link = signedUrl(env().SESSION_SECRET, "booking-files", "passwd.pdf");
    expect(await decideStoredFile("booking-files", "passwd.pdf", params(link))).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it("the storage's stat, exists and read do not follow a link out of the bucket", () => {
    const storage = createStorage(dataDir);
    expect(storage.stat("template-images", "ok.png")?.size).toBe(9);
    for (const rel of ["db.png", "spark.png", "up/template-files/spark.zip"]) {
      expect(storage.stat("template-images", rel), rel).toBeNull();
      expect(storage.exists("template-images", rel), rel).toBe(false);
      expect(storage.read("template-images", rel), rel).toBeNull();
    }
  });

  it("a write through a linked folder is refused and nothing lands outside the bucket", () => {
    const storage = createStorage(dataDir);
    expect(() => storage.put("template-images", "up/template-files/planted.zip", Buffer.from("x"))).toThrow(
      StoragePathError,
    );
    expect(fs.existsSync(at("template-files", "planted.zip"))).toBe(false);
    expect(fs.readdirSync(at("template-files")).filter((n) => n.endsWith(".tmp"))).toEqual([]);
    storage.put("template-images", "new/ok.png", Buffer.from("y"));
    expect(fs.readFileSync(at("template-images", "new", "ok.png"), "utf8")).toBe("y");
  });
});
