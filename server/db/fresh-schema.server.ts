import type SQLite from "better-sqlite3";
import { FRESH_SCHEMA } from "../../migrations/fresh-schema";

/**
 * An empty data folder gets its schema in one transaction (issue 42.4). Kysely's migrator runs each
 * migration's statements one at a time, each committed on its own, and SQLite reads the whole
 * schema again after each: about 45 ms of a first start for ten migrations, where the schema they
 * end with, written at once, takes about 6 ms. migrations/fresh-schema.ts is that schema: the
 * statements SQLite keeps after every migration ran on an empty database, and the rows the
 * migrations themselves insert, read back by `freshSchemaOf` (tests/unit/fresh-schema.test.ts
 * holds the file to the migrations, and rewrites it with `vitest -u`).
 */
export type FreshSchema = {
  /** The migrations whose end this is, in order: recorded as applied, as Kysely records them. */
  migrations: string[];
  /** CREATE statements in the order SQLite keeps them, then INSERTs of the migrations' own rows. */
  statements: string[];
};

/** Kysely's table of applied migrations: its rows are written at apply time, not kept here. */
const MIGRATION_TABLE = "kysely_migration";

/** A value as an SQL literal. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (Buffer.isBuffer(value)) return `X'${value.toString("hex")}'`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** migrations/fresh-schema.ts as the test writes it (a module: the server and its tests import it as code). */
export function freshSchemaModule(schema: FreshSchema): string {
  return `// Written by tests/unit/fresh-schema.test.ts (\`-u\` rewrites it): what the migrations make of an
// empty database (server/db/fresh-schema.server.ts). Not edited by hand.
export const FRESH_SCHEMA = ${JSON.stringify(schema, null, 2)};
`;
}

/** What `sqlite` holds, as statements that make it again in an empty database. */
export function freshSchemaOf(sqlite: SQLite.Database, migrations: string[]): FreshSchema {
  const objects = sqlite
    .prepare(
      "select type, name, sql from sqlite_master where sql is not null and name not like 'sqlite_%' order by rowid",
    )
    .all() as { type: string; name: string; sql: string }[];
  const rows: string[] = [];
  for (const { name } of objects.filter((o) => o.type === "table" && o.name !== MIGRATION_TABLE)) {
    for (const row of sqlite.prepare(`select * from ${quoted(name)}`).all() as Record<string, unknown>[]) {
      const columns = Object.keys(row);
      rows.push(
        `insert into ${quoted(name)} (${columns.map(quoted).join(", ")}) values (${columns.map((c) => literal(row[c])).join(", ")})`,
      );
    }
  }
  return { migrations, statements: [...objects.map((o) => o.sql), ...rows] };
}

/**
 * When `sqlite` holds nothing at all and `migrations` are exactly those fresh-schema.ts ends
 * with: makes the schema in one immediate transaction, records every migration as applied, and
 * answers their names. Otherwise null, and nothing is touched: the migrator runs as before (a
 * database with anything in it, or a new migration the file was not rewritten for).
 */
export function applyFreshSchema(sqlite: SQLite.Database, migrations: string[]): string[] | null {
  const schema: FreshSchema = FRESH_SCHEMA;
  if (schema.migrations.length !== migrations.length || schema.migrations.some((m, i) => m !== migrations[i]))
    return null;
  const apply = sqlite.transaction(() => {
    const { n } = sqlite.prepare("select count(*) as n from sqlite_master").get() as { n: number };
    if (n !== 0) return null;
    for (const statement of schema.statements) sqlite.exec(statement);
    const record = sqlite.prepare(`insert into ${MIGRATION_TABLE} (name, timestamp) values (?, ?)`);
    const at = new Date().toISOString();
    for (const name of schema.migrations) record.run(name, at);
    return schema.migrations;
  });
  return apply.immediate();
}
