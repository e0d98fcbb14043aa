/**
 * Issue 40.5: a picture's size is read from its header before it is stored (never decoded), and
 * one larger than 12,000 pixels a side is refused, in each place pictures are uploaded: the
 * booking's brand assets, the console's template images and Settings' case-study pictures.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { adminUploadRules, storeAdminUpload } from "../../server/admin/uploads.server";
import { bookingUploadRules, storeBookingFiles } from "../../server/booking/uploads.server";
import { receiveUpload } from "../../server/http/uploads.server";
import { MAX_PICTURE_SIDE, pictureSize } from "../../server/storage/pictures.server";
import { storeStudioImages, STUDIO_IMAGE_RULES } from "../../server/studio/images.server";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "pictures-"));
  dirs.push(d);
  return d;
};

/** A PNG whose header states `width` × `height` (its pixels are never there: a decompression bomb's shape). */
function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, "latin1"), data, Buffer.alloc(4)]);
  };
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", ihdr),
    chunk("IDAT", Buffer.alloc(64)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A JPEG stating `width` × `height` in its frame header, after `metadata` bytes of EXIF-like segments. */
function jpeg(width: number, height: number, metadata = 0): Buffer {
  const segments: Buffer[] = [Buffer.from([0xff, 0xd8])];
  for (let left = metadata; left > 0; left -= 65_000) {
    const n = Math.min(left, 65_000);
    const seg = Buffer.alloc(4 + n);
    seg.set([0xff, 0xe1]);
    seg.writeUInt16BE(n + 2, 2);
    segments.push(seg);
  }
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  segments.push(sof, Buffer.from([0xff, 0xda, 0x00, 0x02]), Buffer.alloc(32), Buffer.from([0xff, 0xd9]));
  return Buffer.concat(segments);
}

/** A WebP (extended, VP8X) stating `width` × `height`. */
function webp(width: number, height: number): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const body = Buffer.concat([Buffer.from("WEBPVP8X", "latin1"), Buffer.from([10, 0, 0, 0]), vp8x]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from("RIFF", "latin1"), size, body]);
}

function upload(url: string, field: string, files: [string, Buffer][], fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [name, bytes] of files) form.append(field, new File([bytes], name));
  return new Request(url, { method: "POST", body: form });
}

const HUGE: [string, Buffer][] = [
  ["bomb.png", png(100_000, 100_000)],
  ["wide.jpg", jpeg(20_000, 100, 300_000)],
  ["tall.webp", webp(100, 16_000)],
];

/** The case-study form through the upload door, as the Settings page takes it. */
async function studioImages(request: Request, dir: string) {
  return storeStudioImages(await receiveUpload(request, dir, STUDIO_IMAGE_RULES), dir);
}

describe("picture sizes come from the header", () => {
  it("reads PNG, JPEG (after 300 KB of metadata) and WebP sizes without decoding", () => {
    const dir = dataDir();
    for (const [name, bytes, size] of [
      ["a.png", png(640, 480), [640, 480]],
      ["b.jpg", jpeg(1200, 800, 300_000), [1200, 800]],
      ["c.webp", webp(300, 200), [300, 200]],
    ] as const) {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      expect(pictureSize(file)).toEqual({ width: size[0], height: size[1] });
    }
    expect(MAX_PICTURE_SIDE).toBe(12_000);
  });
});

describe("pictures over 12,000 pixels a side are refused before they are stored", () => {
  it.each(HUGE)("a booking's brand asset: %s", async (name, bytes) => {
    const dir = dataDir();
    const received = await receiveUpload(
      upload("http://x/booking/files", "files", [[name, bytes]]),
      dir,
      bookingUploadRules(0),
    );
    const r = await storeBookingFiles(received, { dataDir: dir, bookingId: "b1" });
    expect(r.stored).toEqual([]);
    expect(r.error).toMatch(
      new RegExp(
        `^${name.replace(".", "\\.")} is [\\d,]+ × [\\d,]+ pixels; pictures can be at most 12,000 pixels a side$`,
      ),
    );
    // Nothing stored (the bucket's folder may not even exist).
    expect(fs.existsSync(path.join(dir, "storage", "booking-files", "bookings"))).toBe(false);
  });

  it.each(HUGE)("a template image: %s", async (name, bytes) => {
    const dir = dataDir();
    const received = await receiveUpload(
      upload("http://x/admin/upload?bucket=template-images&slug=t", "files", [[name, bytes]]),
      dir,
      adminUploadRules("template-images"),
    );
    const r = await storeAdminUpload(received, { dataDir: dir, bucket: "template-images", slug: "t" });
    expect(r.files).toEqual([]);
    expect(r.error).toMatch(/pictures can be at most 12,000 pixels a side$/);
  });

  it.each(HUGE)("a case-study picture: %s", async (name, bytes) => {
    const dir = dataDir();
    const r = await studioImages(upload("http://x/admin/settings", "newImages", [[name, bytes]]), dir);
    expect(r.stored).toEqual([]);
    expect(r.error).toMatch(/pictures can be at most 12,000 pixels a side$/);
  });

  it("a picture of 12,000 pixels a side, and a header that states no size", async () => {
    const dir = dataDir();
    const ok = await studioImages(
      upload("http://x/admin/settings", "newImages", [["max.png", png(12_000, 12_000)]]),
      dir,
    );
    expect(ok.error).toBeNull();
    expect(ok.stored).toHaveLength(1);
    const broken = await studioImages(
      upload("http://x/admin/settings", "newImages", [
        ["broken.png", Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(64, 1)])],
      ]),
      dir,
    );
    expect(broken.error).toBe("broken.png could not be read as a picture");
  });
});
