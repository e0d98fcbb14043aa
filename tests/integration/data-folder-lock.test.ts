import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dataFolderHolder, holdDataFolder, releaseDataFolder } from "../../server/db/lock.server";

// Issue 42.4: the data folder's lock is taken without writing (but a new file's header, not waited
// for on the disk); a lock file cut off while it was first written is made again.
const dirs: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  releaseDataFolder();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the data folder's lock", () => {
  it("is seen by another process while held, and gone with the process", async () => {
    const dir = tmp();
    // A child takes the lock as holdDataFolder does (the lock is SQLite's), then waits.
    const child = spawn(
      process.execPath,
      [
        "-e",
        `const S = require("better-sqlite3"); const db = new S(${JSON.stringify(path.join(dir, ".studio.lock"))}, { timeout: 0 });
         db.pragma("locking_mode = EXCLUSIVE"); db.pragma("synchronous = OFF"); db.exec("begin exclusive; commit");
         require("fs").writeFileSync(${JSON.stringify(path.join(dir, ".studio.pid"))}, process.pid + "\\n");
         process.stdout.write("held"); process.stdin.resume();`,
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
    expect(dataFolderHolder(dir)).toBe(`the studio is running (pid ${child.pid}); stop it first`);
    expect(() => holdDataFolder(dir)).toThrow(`the studio is running (pid ${child.pid}); stop it first`);
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(dataFolderHolder(dir)).toBeNull();
    holdDataFolder(dir);
    expect(fs.readFileSync(path.join(dir, ".studio.pid"), "utf8")).toBe(`${process.pid}\n`);
  });

  it("is taken over a lock file that is not a database (a first start cut off), which holds nobody", () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, ".studio.lock"), Buffer.alloc(4096, 7));
    expect(dataFolderHolder(dir)).toBeNull();
    holdDataFolder(dir);
    expect(fs.readFileSync(path.join(dir, ".studio.lock")).subarray(0, 15).toString()).toBe("SQLite format 3");
  });
});
