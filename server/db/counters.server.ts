import type { Transaction } from "kysely";
import type { DB } from "./db.server";
import type { Database } from "./schema";

type Writer = DB | Transaction<Database>;

/**
 * The next number of a sequence (`proposal`, `invoice-2027`), taken in the caller's transaction
 * with the row it numbers: a rollback gives the number back, a commit keeps it, so numbers have
 * no gap and are never given twice (SQLite runs one writer at a time; issue 44.7).
 */
export async function nextNumber(trx: Writer, name: string): Promise<number> {
  const row = await trx
    .insertInto("document_counters")
    .values({ name, last: 1 })
    .onConflict((oc) => oc.column("name").doUpdateSet((eb) => ({ last: eb("document_counters.last", "+", 1) })))
    .returning("last")
    .executeTakeFirstOrThrow();
  return row.last;
}
