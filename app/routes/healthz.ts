import { sql } from "kysely";
import { db } from "../../server/db.server";

/** Liveness and readiness: answers 200 only after a database round trip. */
export async function loader() {
  try {
    const row = await sql<{ ok: number }>`select 1 as ok`.execute(db());
    if (row.rows[0]?.ok !== 1) throw new Error("unexpected result");
    return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("[healthz]", error);
    return new Response("database unavailable", { status: 503, headers: { "Content-Type": "text/plain" } });
  }
}
