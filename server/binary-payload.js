// The files the single binary carries after its ELF image: the server's bundle and its code
// cache, build.json, public/ and the SQLite addon (scripts/build-binary.mjs appends them; see
// docs/decisions/012). They are read with read(2) from the running executable and never mapped:
// what Node's SEA assets hold is mapped with the program, and every page read once (the whole
// bundle at start, every asset when extracting) would stay in the process's resident memory.
//
// Layout, at the end of the file: the files back to back, then the index (JSON,
// { [name]: [offset, length] }, offsets from the start of the file), then the index's length as
// 8 bytes little-endian, then MAGIC (8 bytes).
import fs from "node:fs";

export const MAGIC = "STUDIOP1";

/**
 * The server's bundle in the payload, the filename its stack traces show, its code cache, and the
 * parameters it is compiled with (those of a CommonJS module). The build compiles the cache with
 * exactly these, or V8 would refuse it.
 */
export const APP = { name: "app.js", filename: "/studio/app.js", cache: "app.cache" };
/**
 * What scripts/build-binary.mjs records in the payload's build.json (server/binary.js reads it).
 * @typedef {object} BuildInfo
 * @property {string} id the build's id: the runtime folder's name
 * @property {string} commit
 * @property {string} builtAt
 * @property {string} node the embedded Node's version
 * @property {string} betterSqlite3
 * @property {string} addon the payload's name of the SQLite addon
 * @property {string[]} files the payload's names extracted into the runtime folder
 */
const TRAILER = 16;
const CHUNK = 64 * 1024;

/**
 * Writes all of `bytes` (write(2) may take fewer than asked).
 * @param {number} fd
 * @param {Buffer} bytes
 */
function writeAll(fd, bytes) {
  for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * A file to append: its bytes from `file` on disk, or `data`.
 * @typedef {{ name: string, file?: string, data?: Buffer }} PayloadFile
 */

/**
 * Appends `files` ({ name, file | data }) to `target` in the layout above.
 * @param {string} target
 * @param {PayloadFile[]} files
 */
export function appendPayload(target, files) {
  const fd = fs.openSync(target, "a");
  try {
    let offset = fs.fstatSync(fd).size;
    /** @type {Record<string, [number, number]>} */
    const index = {};
    for (const { name, file, data } of files) {
      const bytes = data ?? fs.readFileSync(/** @type {string} */ (file));
      writeAll(fd, bytes);
      index[name] = [offset, bytes.length];
      offset += bytes.length;
    }
    const json = Buffer.from(JSON.stringify(index));
    const trailer = Buffer.alloc(TRAILER);
    trailer.writeBigUInt64LE(BigInt(json.length), 0);
    trailer.write(MAGIC, 8, "latin1");
    writeAll(fd, json);
    writeAll(fd, trailer);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The payload of `executable` (default: this process's own, through /proc/self/exe, which stays
 * the running file even when an update has moved a new one to its path).
 */
/** @typedef {ReturnType<typeof openPayload>} Payload */
export function openPayload(executable = "/proc/self/exe") {
  const fd = fs.openSync(executable, "r");
  const { size } = fs.fstatSync(fd);
  const trailer = Buffer.alloc(TRAILER);
  if (size >= TRAILER) fs.readSync(fd, trailer, 0, TRAILER, size - TRAILER);
  if (trailer.toString("latin1", 8) !== MAGIC) {
    fs.closeSync(fd);
    throw new Error(
      `${executable} carries no studio payload at its end: an incomplete copy (compare it with studio.sha256), or not built by npm run build:binary`,
    );
  }
  const indexLength = Number(trailer.readBigUInt64LE(0));
  const json = Buffer.alloc(indexLength);
  fs.readSync(fd, json, 0, indexLength, size - TRAILER - indexLength);
  /** @type {Record<string, [number, number]>} */
  const index = JSON.parse(json.toString("utf8"));
  /** @param {string} name */
  const entry = (name) => {
    const found = index[name];
    if (!found) throw new Error(`the binary's payload has no ${name}`);
    return found;
  };
  /**
   * Calls `each(chunk)` with the file's bytes, CHUNK at a time, through one reused buffer.
   * @param {string} name
   * @param {(chunk: Buffer) => void} each
   */
  const chunks = (name, each) => {
    const [offset, length] = entry(name);
    const buffer = Buffer.allocUnsafeSlow(Math.min(CHUNK, Math.max(length, 1)));
    for (let done = 0; done < length;) {
      const n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, length - done), offset + done);
      if (n === 0) throw new Error(`the binary's payload is cut short in ${name}`);
      each(buffer.subarray(0, n));
      done += n;
    }
  };
  return {
    names: () => Object.keys(index),
    /** @param {string} name */
    offsetOf: (name) => entry(name)[0],
    /**
     * The whole file as a Buffer (for small files: build.json, the code cache).
     * @param {string} name
     */
    bytes(name) {
      const [offset, length] = entry(name);
      const out = Buffer.allocUnsafe(length);
      fs.readSync(fd, out, 0, length, offset);
      return out;
    },
    /**
     * An ASCII file as a string: read whole into memory outside V8's heap, then made one string at
     * once. Read in chunks and joined, the bundle (3.3 MB) passed through the 1 MB young
     * generation as 64 KB strings, each kept alive until the join: a dozen scavenges copying them
     * at every start (issue 42.4). The buffer is let go as soon as the string is made.
     * @param {string} name
     */
    ascii(name) {
      const [offset, length] = entry(name);
      const whole = Buffer.allocUnsafeSlow(length);
      for (let done = 0; done < length;) {
        const n = fs.readSync(fd, whole, done, length - done, offset + done);
        if (n === 0) throw new Error(`the binary's payload is cut short in ${name}`);
        done += n;
      }
      return whole.toString("latin1", 0, length);
    },
    /**
     * Writes the file to `file` with `mode`.
     * @param {string} name
     * @param {string} file
     * @param {number} mode
     */
    copyTo(name, file, mode) {
      const out = fs.openSync(file, "w", mode);
      try {
        chunks(name, (chunk) => writeAll(out, chunk));
      } finally {
        fs.closeSync(out);
      }
    },
    close: () => fs.closeSync(fd),
  };
}
