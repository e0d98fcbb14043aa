/**
 * Issue 20.4: the page cache follows the catalogue's version in the database, so a change made by
 * an operator command in another process reaches the running server's cached pages at once.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SERVER_SECRET, serversPerTest } from "../helpers/server";

const root = path.resolve(__dirname, "../..");
const { start } = serversPerTest();

function writeDb(dataDir: string, sql: string) {
  const db = new SQLite(path.join(dataDir, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

describe("the page cache and the catalogue's version", () => {
  it("keeps serving a cached page through writes that announce nothing, and drops it when an operator command changes the catalogue", async () => {
    const server = await start();
    const page = async () => (await fetch(`${server.url}/templates`)).text();
    const first = await page();
    expect(first).toContain("Atelier");
    expect(first).toContain("Spark");

    // A write that does not announce itself (by hand, in another process): the cached page stays.
    writeDb(
      server.dataDir,
      "update templates set name = 'Atelier Renamed' where slug = 'atelier'; delete from templates where slug = 'spark';",
    );
    expect(await page()).toBe(first);

    // `seed --force` in another process puts Spark back and announces the change: the next
    // request renders again and shows both writes. (Not blocking this process meanwhile: fetch lets its
    // kept-alive connection go on time, instead of reusing one the server closed while it waited.)
    const { stdout: out } = await promisify(execFile)(process.execPath, ["server/cli-main.js", "seed", "--force"], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "production",
        APP_URL: server.url,
        DATA_DIR: server.dataDir,
        SESSION_SECRET: SERVER_SECRET,
      },
      encoding: "utf8",
    });
    expect(out).toContain("seeded 1 sample templates");
    const after = await page();
    expect(after).toContain("Atelier Renamed");
    expect(after).toContain("Spark");
  });
});
