import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { isDiskFull, StorageFullError } from "./storage.server";

/** A file part as it arrived: written to a temporary file (never held in memory), or not kept. */
export type ReceivedFile = {
  field: string;
  /** The name the browser gave, as sent (may contain `;`, `=`, quotes or non-ASCII). */
  filename: string;
  /** Bytes received (a file over the limit stops counting one byte past it). */
  size: number;
  /** Its first 512 bytes, for deciding the type by content. */
  head: Buffer;
  /** Where it waits to be moved into storage; null when it was too large, empty or skipped. */
  tmpPath: string | null;
  tooLarge: boolean;
  /** Past `maxFiles`: read and dropped. */
  skipped: boolean;
};

export class MalformedUpload extends Error {}

export type MultipartResult = {
  fields: FormData;
  files: ReceivedFile[];
  /** Removes the temporary files that were not moved into storage. */
  cleanup: () => void;
};

/** What one upload accepts: the size of a file, how many files, the field that carries them. */
export type UploadRules = { maxFileBytes: number; maxFiles: number; fileField?: string; maxFieldBytes?: number };

const HEAD_BYTES = 512;

/**
 * Reads a multipart/form-data body as it streams: text fields (at most `maxFieldBytes` each)
 * into a FormData; each file part, counted chunk by chunk, into a temporary file under `tmpDir`,
 * at most `maxFileBytes` (the rest is dropped) and at most `maxFiles` files (later ones are
 * read and dropped). Memory stays flat whatever the size of the body.
 *
 * Throws `MalformedUpload` for a body that is not well-formed multipart (or cut off), and
 * `StorageFullError` when the disk is full; in both cases no temporary file is left behind.
 */
export async function receiveMultipart(
  upload: { body: ReadableStream<Uint8Array> | null; contentType: string },
  opts: { tmpDir: string } & UploadRules,
): Promise<MultipartResult> {
  const { contentType } = upload;
  if (!upload.body) throw new MalformedUpload("no body");
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // busboy signals its limit on reaching it: one byte more tells "exactly the maximum" from "over".
      limits: { fileSize: opts.maxFileBytes + 1, fieldSize: opts.maxFieldBytes ?? 64 * 1024, fields: 200, parts: 400 },
      defParamCharset: "utf8",
    });
  } catch {
    throw new MalformedUpload("not multipart");
  }
  fs.mkdirSync(opts.tmpDir, { recursive: true });
  const fields = new FormData();
  const files: ReceivedFile[] = [];
  const writes: Promise<void>[] = [];
  const outs: fs.WriteStream[] = [];
  let failure: Error | null = null;
  let kept = 0;

  const cleanup = () => {
    for (const f of files) {
      if (f.tmpPath) fs.rmSync(f.tmpPath, { force: true });
    }
  };

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated || info.nameTruncated) failure ??= new MalformedUpload("field too large");
    else fields.append(name, value);
  });

  parser.on("file", (field, stream, info) => {
    const file: ReceivedFile = {
      field,
      filename: info.filename ?? "",
      size: 0,
      head: Buffer.alloc(0),
      tmpPath: null,
      tooLarge: false,
      skipped: false,
    };
    files.push(file);
    // Every part's stream gets an error listener where it is made, kept or skipped: a body cut off
    // inside a part makes busboy emit "Unexpected end of form" on it, and an emitter's unheard
    // error would end the process (issue 40.1). The parser's own error rejects the read below.
    stream.on("error", () => {});
    const wanted = (opts.fileField === undefined || field === opts.fileField) && Boolean(file.filename);
    if (!wanted || failure || kept >= opts.maxFiles) {
      file.skipped = wanted && !failure;
      stream.on("data", (chunk: Buffer) => (file.size += chunk.length));
      stream.resume();
      return;
    }
    kept++;
    const tmpPath = path.join(opts.tmpDir, `upload-${crypto.randomBytes(12).toString("hex")}`);
    file.tmpPath = tmpPath;
    const out = fs.createWriteStream(tmpPath, { flags: "wx" });
    outs.push(out);
    // A part cut off by a malformed or aborted body: its file is closed (and removed below).
    stream.on("error", () => out.destroy());
    const heads: Buffer[] = [];
    let headLength = 0;
    stream.on("data", (chunk: Buffer) => {
      file.size += chunk.length;
      if (headLength < HEAD_BYTES) {
        heads.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
    });
    stream.on("limit", () => {
      // Over the size limit: busboy drops the rest; what was written is not kept.
      file.tooLarge = true;
    });
    stream.pipe(out);
    writes.push(
      new Promise<void>((resolve) => {
        const done = () => {
          file.head = Buffer.concat(heads);
          resolve();
        };
        out.on("close", done);
        out.on("error", (error) => {
          failure ??= isDiskFull(error) ? new StorageFullError(error) : error;
          stream.unpipe(out);
          stream.resume();
          done();
        });
      }),
    );
  });

  try {
    await new Promise<void>((resolve, reject) => {
      parser.on("close", resolve);
      parser.on("error", (error) => reject(new MalformedUpload(error instanceof Error ? error.message : "malformed")));
      const body = Readable.fromWeb(upload.body as unknown as NodeReadableStream<Uint8Array>);
      body.on("error", (error) => {
        parser.destroy();
        reject(new MalformedUpload(error instanceof Error ? error.message : "cut off"));
      });
      body.pipe(parser);
    });
    await Promise.all(writes);
  } catch (error) {
    for (const out of outs) out.destroy();
    await Promise.allSettled(writes);
    cleanup();
    throw error;
  }
  if (failure) {
    cleanup();
    throw failure;
  }
  for (const f of files) {
    if (f.tmpPath && (f.tooLarge || f.size === 0)) {
      fs.rmSync(f.tmpPath, { force: true });
      f.tmpPath = null;
    }
  }
  return { fields, files, cleanup };
}
