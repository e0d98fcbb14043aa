import crypto from "node:crypto";
import { createCookie, createSessionStorage, type Session } from "@remix-run/node";
import type { DB } from "../db/db.server";
import { fromJson, nowIso, toJson } from "../db/json";

export const SESSION_COOKIE = "__studio_session";
export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 30;

export type SessionData = { userId?: string; authRedirect?: string; [key: string]: unknown };

/**
 * Sessions stored in SQLite; the signed cookie carries only the session id
 * (httpOnly, SameSite=Lax, Secure in production).
 */
export function createDbSessionStorage(db: DB, opts: { secret: string; secure: boolean }) {
  const cookie = createCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: "lax",
    secure: opts.secure,
    path: "/",
    secrets: [opts.secret],
    maxAge: SESSION_TTL_SECONDS,
  });
  const expiry = (expires?: Date) => (expires ?? new Date(Date.now() + SESSION_TTL_SECONDS * 1000)).toISOString();
  return createSessionStorage<SessionData>({
    cookie,
    async createData(data, expires) {
      const id = crypto.randomBytes(32).toString("base64url");
      await db
        .insertInto("sessions")
        .values({ id, user_id: typeof data.userId === "string" ? data.userId : null, data: toJson(data), expires_at: expiry(expires) })
        .execute();
      return id;
    },
    async readData(id) {
      const row = await db.selectFrom("sessions").select(["data", "expires_at"]).where("id", "=", id).executeTakeFirst();
      if (!row) return null;
      if (row.expires_at <= nowIso()) {
        await db.deleteFrom("sessions").where("id", "=", id).execute();
        return null;
      }
      return fromJson<SessionData>(row.data, {});
    },
    async updateData(id, data, expires) {
      await db
        .updateTable("sessions")
        .set({ data: toJson(data), user_id: typeof data.userId === "string" ? data.userId : null, expires_at: expiry(expires) })
        .where("id", "=", id)
        .execute();
    },
    async deleteData(id) {
      await db.deleteFrom("sessions").where("id", "=", id).execute();
    },
  });
}

export type DbSessionStorage = ReturnType<typeof createDbSessionStorage>;
export type StudioSession = Session<SessionData>;
