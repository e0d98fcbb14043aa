/**
 * Operator commands (DESIGN.md §3), run by the npm scripts through build/cli.js (compiled from
 * server/cli-main.ts by `npm run build`) and by the single binary (`./studio migrate`, ...):
 *   npm run db:migrate
 *   npm run db:seed
 *   npm run admin -- grant EMAIL [--super]
 *   npm run admin -- revoke EMAIL
 *   npm run backup -- FILE
 *   npm run restore -- FILE     (stop the server first)
 */
import { dataDirFromEnv, env } from "./env.server";
import { getDb, migrateToLatest, closeDb } from "./db/db.server";
import { seedDemoCatalogue } from "./db/seed.server";
import { grantAdmin, revokeAdmin } from "./auth/users.server";
import { backup, restore } from "./db/backup.server";

export const npmUsage = `usage:
  npm run db:migrate
  npm run db:seed
  npm run admin -- grant EMAIL [--super]
  npm run admin -- revoke EMAIL
  npm run backup -- FILE
  npm run restore -- FILE`;

/**
 * Runs one operator command (`migrate`, `seed [--force]`, `admin grant|revoke EMAIL [--super]`,
 * `backup FILE`, `restore FILE`) and resolves with the process's exit code; `usage` is printed
 * for a command it does not know (exit code 2).
 */
export async function runCli(argv: string[], usage = npmUsage): Promise<number> {
  const [command, ...rest] = argv;
  if (command === "backup" || command === "restore") {
    const file = rest[0];
    if (!file) {
      console.error(usage);
      return 2;
    }
    if (command === "backup") {
      const r = await backup(dataDirFromEnv(), file);
      console.log(`database copied to ${r.db}${r.storage ? `, storage archived to ${r.storage}` : ""}`);
    } else {
      const r = restore(dataDirFromEnv(), file);
      console.log(`database restored to ${r.db}${r.storage ? " with its storage" : ""}`);
    }
    return 0;
  }
  const e = env();
  const db = getDb(e.DATA_DIR);
  try {
    switch (command) {
      case "migrate": {
        const result = await migrateToLatest(db);
        const applied = (result.results ?? []).filter((r) => r.status === "Success");
        console.log(
          applied.length ? applied.map((r) => `applied ${r.migrationName}`).join("\n") : "database is up to date",
        );
        return 0;
      }
      case "seed": {
        await migrateToLatest(db);
        const { inserted } = await seedDemoCatalogue(db, e.DATA_DIR, { force: rest.includes("--force") });
        console.log(inserted ? `seeded ${inserted} templates` : "catalogue already has templates; nothing seeded");
        return 0;
      }
      case "admin": {
        const [action, email, ...flags] = rest;
        if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) || (action !== "grant" && action !== "revoke")) {
          console.error(usage);
          return 2;
        }
        await migrateToLatest(db);
        if (action === "grant") {
          const superAdmin = flags.includes("--super");
          await grantAdmin(db, email, { superAdmin });
          console.log(`${email} is now ${superAdmin ? "a super admin" : "an admin"}`);
        } else {
          const removed = await revokeAdmin(db, email);
          console.log(removed ? `${email} is no longer an admin` : `${email} was not an admin`);
        }
        return 0;
      }
      default:
        console.error(usage);
        return 2;
    }
  } finally {
    await closeDb();
  }
}
