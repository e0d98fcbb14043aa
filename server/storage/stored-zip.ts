import zlib from "node:zlib";

/**
 * A zip archive of `files`, each stored as it is (method 0, no compression), all dated `mtime`
 * (read in UTC, so the same files give the same bytes on every machine).
 *
 * Written here rather than with a zip library: a stored archive is three fixed headers around the
 * bytes, and the checksum is Node's own `zlib.crc32`. The library the sample archives were made
 * with (fflate) built its deflate tables when loaded, some 4 ms of a first start for archives that
 * never deflate (issue 42.4, decision 047).
 */
export function storedZip(files: { name: string; data: Buffer }[], mtime: Date): Buffer {
  // Zip's own limits without its 64-bit extension, which these small archives never need.
  if (files.length > 0xffff) throw new RangeError("a stored zip holds at most 65,535 files");
  const time = (mtime.getUTCHours() << 11) | (mtime.getUTCMinutes() << 5) | (mtime.getUTCSeconds() >> 1);
  const date = ((mtime.getUTCFullYear() - 1980) << 9) | ((mtime.getUTCMonth() + 1) << 5) | mtime.getUTCDate();
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of files) {
    const nameBytes = Buffer.from(name, "utf8");
    // Bit 11: the name is UTF-8.
    const flags = /^[\x20-\x7e]*$/.test(name) ? 0 : 0x0800;
    const crc = zlib.crc32(data);
    // What a file's local header and its central directory entry share, from `at`.
    const shared = (header: Buffer, at: number) => {
      header.writeUInt16LE(10, at); // version needed: 1.0, stored
      header.writeUInt16LE(flags, at + 2);
      header.writeUInt16LE(0, at + 4); // method: stored
      header.writeUInt16LE(time, at + 6);
      header.writeUInt16LE(date, at + 8);
      header.writeUInt32LE(crc, at + 10);
      header.writeUInt32LE(data.length, at + 14); // compressed size
      header.writeUInt32LE(data.length, at + 18);
      header.writeUInt16LE(nameBytes.length, at + 22);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    // Extra field: none.
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(10, 4); // made by: 1.0 (MS-DOS attributes)
    shared(central, 6);
    // Extra field, comment, disk number, internal and external attributes: none.
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  if (offset > 0xffffffff) throw new RangeError("a stored zip holds at most 4 GB");
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
