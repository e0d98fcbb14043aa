import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { storedZip } from "../../server/storage/stored-zip";

const files = [
  { name: "README.md", data: Buffer.from("# Atelier\n\nA template.\n") },
  { name: "src/App.tsx", data: Buffer.from("export default function App() {}\n") },
  { name: "empty.txt", data: Buffer.alloc(0) },
  { name: "café/menü.txt", data: Buffer.from("crème brûlée\n") },
];
const mtime = new Date("2026-01-01T00:00:00Z");

describe("storedZip", () => {
  it("is read back whole by another zip reader (fflate), names in UTF-8 included", () => {
    const read = unzipSync(new Uint8Array(storedZip(files, mtime)));
    expect(Object.keys(read)).toEqual(files.map((f) => f.name));
    for (const f of files) expect(Buffer.from(read[f.name]).equals(f.data)).toBe(true);
  });

  it("passes Python's zipfile check, with each entry stored, dated in UTC and its checksum right", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stored-zip-"));
    const file = path.join(dir, "a.zip");
    fs.writeFileSync(file, storedZip(files, new Date("2026-03-14T15:09:26Z")));
    const py = spawnSync(
      "python3",
      [
        "-c",
        "import sys,zipfile,json;z=zipfile.ZipFile(sys.argv[1]);print(json.dumps([z.testzip(),[[i.filename,i.compress_type,list(i.date_time),i.file_size] for i in z.infolist()]]))",
        file,
      ],
      { encoding: "utf8" },
    );
    fs.rmSync(dir, { recursive: true, force: true });
    if (py.error) return; // no python3 on this machine: the fflate reading above stands
    const [bad, entries] = JSON.parse(py.stdout) as [string | null, [string, number, number[], number][]];
    expect(bad).toBeNull();
    expect(entries).toEqual(
      // DOS times count seconds in twos.
      files.map((f) => [f.name, 0, [2026, 3, 14, 15, 9, 26], f.data.length]),
    );
  });

  it("gives the same bytes for the same files and date", () => {
    expect(storedZip(files, mtime).equals(storedZip(files, mtime))).toBe(true);
  });
});
