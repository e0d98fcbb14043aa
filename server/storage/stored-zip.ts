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
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4); // version needed: 1.0, stored
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(0, 8); // method: stored
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(10, 4); // made by: 1.0 (MS-DOS attributes)
    central.writeUInt16LE(10, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
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
