import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import zlib from "node:zlib";

/**
 * The backups' own tar reader: restores bring back only what it allows (regular files and folders
 * at plain relative paths), never what the system `tar` would make of a tampered archive (links,
 * devices, FIFOs, absolute paths, `..`). It reads what tar writes: ustar (name and prefix), GNU
 * long names ('L'), pax path and size records ('x'; global 'g' records are ignored), gzip-compressed
 * or not, streamed (a 100 MB archive is never held in memory). `listTar` reads every entry and
 * refuses the archive at the first one not allowed; `extractTar` then writes exactly the entries
 * listed into a fresh empty folder, and refuses if the archive no longer reads the same.
 */

export type TarEntry = {
  /** The path inside the archive, `/`-separated, without `.` segments or a trailing slash. */
  name: string;
  type: "file" | "directory";
  size: number;
  /** Seconds since 1970, as the archive recorded it (0 when it did not). */
  mtime: number;
};

/** Why an archive is refused: `entry` is the name it holds, `problem` what is wrong with it. */
export class TarRefusal extends Error {
  constructor(
    readonly entry: string | null,
    readonly problem: string,
    /** What kind of rule it breaks: what the entry is, or where it would go. */
    readonly about: "type" | "path" | "archive" = entry === null ? "archive" : "type",
  ) {
    super(entry === null ? problem : `${shown(entry)}, ${problem}`);
    this.name = "TarRefusal";
  }
}

export type TarOptions = {
  gzip?: boolean;
  /** Every entry must lie under this first segment (e.g. "storage"); else the archive is refused. */
  under?: string;
  /** Only entries at the top level (no folders), as the outer backup archive holds. */
  flat?: boolean;
};

/** A name as a refusal shows it: control characters replaced, at most 300 characters. */
function shown(name: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, "?");
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
}

const KINDS: Record<string, string> = {
  "1": "a hard link",
  "2": "a symbolic link",
  "3": "a character device",
  "4": "a block device",
  "6": "a FIFO",
  "7": "a contiguous file",
  S: "a sparse file",
  D: "a folder listing (GNU incremental)",
  M: "a continued file (multi-volume)",
  V: "a volume label",
};
/** Data headers that say something about the next entry; longer than this is not a name. */
const MAX_META_BYTES = 1024 * 1024;

/** Exactly-n-bytes reads over a stream of chunks. */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private done = false;
  private readonly it: AsyncIterator<Buffer>;
  constructor(stream: Readable) {
    this.it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }
  private async more(): Promise<boolean> {
    if (this.done) return false;
    const r = await this.it.next();
    if (r.done) {
      this.done = true;
      return false;
    }
    this.buf = this.buf.length ? Buffer.concat([this.buf, r.value]) : r.value;
    return true;
  }
  /** n bytes, or fewer at the end of the stream. */
  async read(n: number): Promise<Buffer> {
    while (this.buf.length < n && (await this.more()));
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(out.length);
    return out;
  }
  /** The next n bytes in pieces as they come (the caller consumes each before asking again). */
  async *pieces(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (!this.buf.length && !(await this.more())) throw new TarRefusal(null, "it ends inside an entry");
      const piece = this.buf.subarray(0, Math.min(left, this.buf.length));
      this.buf = this.buf.subarray(piece.length);
      left -= piece.length;
      yield piece;
    }
  }
  async skip(n: number): Promise<void> {
    for await (const _ of this.pieces(n));
  }
  async close(): Promise<void> {
    await this.it.return?.();
  }
}

function cString(b: Buffer): string {
  const end = b.indexOf(0);
  return (end === -1 ? b : b.subarray(0, end)).toString("utf8");
}

/** A numeric header field: octal text, or GNU's base-256 for large values. */
function numberField(b: Buffer): number {
  if (b[0] & 0x80) {
    let n = b[0] & 0x7f;
    for (let i = 1; i < b.length; i++) n = n * 256 + b[i];
    return n;
  }
  const text = b
    .toString("latin1")
    .replace(/[\0 ]+$/, "")
    .trim();
  if (!/^[0-7]*$/.test(text)) throw new TarRefusal(null, "a header holds a number that is not octal");
  return text ? parseInt(text, 8) : 0;
}

function checksumOk(h: Buffer): boolean {
  const want = numberField(h.subarray(148, 156));
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < 512; i++) {
    const b = i >= 148 && i < 156 ? 0x20 : h[i];
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return want === unsigned || want === signed;
}

/** pax records ("<len> key=value\n"): the ones that matter here. */
function paxRecords(data: Buffer): { path?: string; size?: number } {
  const out: { path?: string; size?: number } = {};
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const len = Number(data.subarray(at, space).toString("latin1"));
    if (!Number.isInteger(len) || len <= space - at || at + len > data.length)
      throw new TarRefusal(null, "a pax header cannot be read");
    const record = data.subarray(space + 1, at + len - 1).toString("utf8");
    const eq = record.indexOf("=");
    const key = record.slice(0, eq);
    const value = record.slice(eq + 1);
    if (key === "path") out.path = value;
    else if (key === "size") {
      if (!/^\d+$/.test(value)) throw new TarRefusal(null, "a pax size is not a number");
      out.size = Number(value);
    }
    at += len;
  }
  return out;
}

/** The allowed form of an entry's path, or the refusal that names it. */
function checkedName(raw: string, opts: TarOptions): string {
  if (!raw) throw new TarRefusal(raw, "an entry without a name", "path");
  if (raw.includes("\0")) throw new TarRefusal(raw, "a name with a NUL byte", "path");
  if (raw.startsWith("/")) throw new TarRefusal(raw, "an absolute path", "path");
  const segments = raw.split("/").filter((s) => s !== "" && s !== ".");
  if (raw.split("/").includes("..")) throw new TarRefusal(raw, "a path with '..'", "path");
  const name = segments.join("/");
  if (opts.under && segments[0] !== opts.under) throw new TarRefusal(raw, `a path outside ${opts.under}/`, "path");
  if (opts.flat && segments.length !== 1) throw new TarRefusal(raw, "a path inside a folder", "path");
  return name;
}

function inputOf(file: string, gzip: boolean | undefined): Readable {
  const raw = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  if (!gzip) return raw;
  const gunzip = zlib.createGunzip();
  raw.on("error", (e) => gunzip.destroy(e));
  return raw.pipe(gunzip);
}

/**
 * Reads the archive entry by entry: `onEntry` gets each allowed entry and its data's pieces (it
 * must consume them, or they are skipped). Throws a TarRefusal at the first entry not allowed.
 */
async function walk(
  file: string,
  opts: TarOptions,
  onEntry: (entry: TarEntry, data: AsyncGenerator<Buffer>) => Promise<void>,
): Promise<void> {
  const reader = new ByteReader(inputOf(file, opts.gzip));
  try {
    let longName: string | undefined;
    let pax: { path?: string; size?: number } = {};
    for (;;) {
      const h = await reader.read(512);
      if (h.length === 0) return; // no end-of-archive blocks: tolerated, as tar does
      if (h.length < 512) throw new TarRefusal(null, "it ends inside a header");
      if (h.every((b) => b === 0)) return;
      if (!checksumOk(h)) throw new TarRefusal(null, "a header fails its checksum");
      const type = String.fromCharCode(h[156] || 0x30);
      const magic = h.subarray(257, 263).toString("latin1");
      let size = numberField(h.subarray(124, 136));
      const padded = (n: number) => Math.ceil(n / 512) * 512;
      // Headers about the next entry.
      if (type === "L" || type === "x" || type === "g" || type === "K") {
        if (size > MAX_META_BYTES) throw new TarRefusal(null, "a header's data is too long");
        const data = size ? await reader.read(size) : Buffer.alloc(0);
        if (data.length < size) throw new TarRefusal(null, "it ends inside an entry");
        await reader.skip(padded(size) - size);
        if (type === "L") longName = cString(data);
        else if (type === "x") pax = { ...pax, ...paxRecords(data) };
        // 'g' (global pax records) and 'K' (a long link name: its entry is a link, refused below) read no further.
        continue;
      }
      // ustar (POSIX) keeps the folder in the prefix field; GNU's format uses those bytes for times.
      const prefix = magic === "ustar\0" ? cString(h.subarray(345, 500)) : "";
      const headerName = cString(h.subarray(0, 100));
      const raw = pax.path ?? longName ?? (prefix ? `${prefix}/${headerName}` : headerName);
      if (pax.size !== undefined) size = pax.size;
      longName = undefined;
      pax = {};
      const kind = KINDS[type];
      if (type !== "0" && type !== "5") throw new TarRefusal(raw, kind ?? `an entry of type '${shown(type)}'`);
      const name = checkedName(raw, opts);
      const isDir = type === "5" || (type === "0" && raw.endsWith("/") && size === 0);
      if (!name) {
        if (!isDir) throw new TarRefusal(raw, "a file without a name");
        await reader.skip(padded(size));
        continue;
      }
      const entry: TarEntry = {
        name,
        type: isDir ? "directory" : "file",
        size: isDir ? 0 : size,
        mtime: numberField(h.subarray(136, 148)),
      };
      const data = reader.pieces(size);
      await onEntry(entry, data);
      for await (const _ of data); // whatever onEntry left
      await reader.skip(padded(size) - size);
    }
  } catch (error) {
    if (error instanceof TarRefusal) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (code.startsWith("Z_")) throw new TarRefusal(null, "it is not a readable gzip file");
    throw error;
  } finally {
    await reader.close();
  }
}

/**
 * The first entry of an uncompressed archive when it is a regular file of at most `maxBytes`
 * (a backup's manifest.json comes first): its name and bytes, read synchronously; else null.
 */
export function readFirstTarFile(file: string, maxBytes: number): { name: string; data: Buffer } | null {
  const fd = fs.openSync(file, "r");
  try {
    const h = Buffer.alloc(512);
    if (fs.readSync(fd, h, 0, 512, 0) < 512 || h.every((b) => b === 0) || !checksumOk(h)) return null;
    const type = String.fromCharCode(h[156] || 0x30);
    const size = numberField(h.subarray(124, 136));
    if (type !== "0" || size > maxBytes) return null;
    const prefix = h.subarray(257, 263).toString("latin1") === "ustar\0" ? cString(h.subarray(345, 500)) : "";
    const name = prefix ? `${prefix}/${cString(h.subarray(0, 100))}` : cString(h.subarray(0, 100));
    const data = Buffer.alloc(size);
    if (fs.readSync(fd, data, 0, size, 512) < size) return null;
    return { name, data };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Every entry of the archive, checked: regular files and folders at plain relative paths (under
 * `opts.under`, or at the top level with `opts.flat`), each path once, no file where another
 * entry needs a folder. Throws a TarRefusal naming the first entry that is not allowed.
 */
export async function listTar(file: string, opts: TarOptions = {}): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  const seen = new Map<string, TarEntry["type"]>();
  await walk(file, opts, async (entry) => {
    if (seen.has(entry.name)) {
      // GNU tar writes a folder again when asked for it twice; the same folder twice is harmless.
      if (seen.get(entry.name) === "directory" && entry.type === "directory") return;
      throw new TarRefusal(entry.name, "a path that is in the archive twice", "path");
    }
    if (entry.name === opts.under && entry.type !== "directory")
      throw new TarRefusal(entry.name, `a file where the ${opts.under} folder belongs`, "path");
    seen.set(entry.name, entry.type);
    entries.push(entry);
  });
  for (const e of entries) {
    const parts = e.name.split("/");
    for (let i = 1; i < parts.length; i++) {
      if (seen.get(parts.slice(0, i).join("/")) === "file")
        throw new TarRefusal(e.name, `a path under ${shown(parts.slice(0, i).join("/"))}, which is a file`, "path");
    }
  }
  return entries;
}

/**
 * Writes `entries` (what `listTar` answered for this file) into `into`, a folder that must be
 * empty: files 0640 and folders 0750 (less what the umask takes), files created new (never through
 * an existing path), times as recorded; with `keep`, only the entries it keeps. Refuses when the
 * archive does not read as listed.
 */
export async function extractTar(
  file: string,
  into: string,
  entries: TarEntry[],
  opts: TarOptions & { keep?: (entry: TarEntry) => boolean } = {},
): Promise<void> {
  if (fs.readdirSync(into).length) throw new Error(`${into} is not empty`);
  const root = path.resolve(into);
  let next = 0;
  const changed = () => new TarRefusal(null, "it changed while it was read");
  const made = new Set<string>();
  const folder = (rel: string) => {
    if (!rel || made.has(rel)) return;
    folder(path.posix.dirname(rel) === "." ? "" : path.posix.dirname(rel));
    try {
      fs.mkdirSync(path.join(root, rel), { mode: 0o750 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || !fs.lstatSync(path.join(root, rel)).isDirectory())
        throw error;
    }
    made.add(rel);
  };
  const times: { at: string; mtime: number }[] = [];
  const dirsDone = new Set<string>();
  await walk(file, opts, async (entry, data) => {
    // A folder written twice is listed once.
    if (entry.type === "directory" && dirsDone.has(entry.name)) return;
    const want = entries[next++];
    if (!want || want.name !== entry.name || want.type !== entry.type || want.size !== entry.size) throw changed();
    if (opts.keep && !opts.keep(entry)) return;
    const at = path.join(root, ...entry.name.split("/"));
    if (entry.type === "directory") {
      dirsDone.add(entry.name);
      folder(entry.name);
      times.push({ at, mtime: entry.mtime });
      return;
    }
    folder(path.posix.dirname(entry.name) === "." ? "" : path.posix.dirname(entry.name));
    const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
    const fd = fs.openSync(at, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o640);
    try {
      for await (const piece of data) {
        let off = 0;
        while (off < piece.length) off += fs.writeSync(fd, piece, off);
      }
    } finally {
      fs.closeSync(fd);
    }
    times.push({ at, mtime: entry.mtime });
  });
  if (next !== entries.length) throw changed();
  // Folders' times last: writing into a folder moves its time.
  for (const t of times.reverse()) if (t.mtime) fs.utimesSync(t.at, t.mtime, t.mtime);
}
