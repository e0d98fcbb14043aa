import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it, vi } from "vitest";
import { createDb, migrateToLatest } from "../../server/db/db.server";

it("reuses prepared statements: the same query is prepared once however often it runs", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "studio-stmt-"));
  const { db, sqlite } = createDb(path.join(dir, "app.db"));
  await migrateToLatest(db);
  const prepare = vi.spyOn(sqlite, "prepare");
  for (let i = 0; i < 5; i++) {
    await db.selectFrom("templates").select("id").where("slug", "=", `slug-${i}`).execute();
    await db
      .insertInto("users")
      .values({ id: `u${i}`, email: `u${i}@example.com` })
      .execute();
  }
  expect(prepare).toHaveBeenCalledTimes(2);
  expect((await db.selectFrom("users").select("email").execute()).length).toBe(5);
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});
