import type { z } from "zod";
import crypto from "node:crypto";
import { createCookie, createSessionStorage, type Session } from "@remix-run/node";
import type { DB } from "../db/db.server";
import { fromJson, nowIso, toJson } from "../db/json";
import { sessionDataSchema } from "../db/json-columns";
import { hostCookieName } from "./cookie-name";

/** `__Host-studio_session` over https, `__studio_session` over plain http (local runs, tests). */
export function sessionCookieName(secure: boolean): string {
  return hostCookieName("studio_session", secure);
}

/** A signed-in session lasts 30 days. */
export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 30;
/**
 * A session without a user (Google's sign-in state between the redirect and the callback) lasts
 * as long as a magic link: 10 minutes. Signing in always starts a fresh 30-day session.
 */
export const PENDING_SESSION_TTL_SECONDS = 10 * 60;

export type SessionData = z.infer<typeof sessionDataSchema>;

const hasUser = (data: Partial<SessionData>) => typeof data.userId === "string";

/** When a session row written now expires: 30 days with a user, 10 minutes without. */
export function sessionExpiry(data: Partial<SessionData>, expires?: Date, now = Date.now()): string {
  const full = expires ?? new Date(now + SESSION_TTL_SECONDS * 1000);
  if (hasUser(data)) return full.toISOString();
  return new Date(Math.min(full.getTime(), now + PENDING_SESSION_TTL_SECONDS * 1000)).toISOString();
}

/**
 * Sessions stored in SQLite; the signed cookie carries only the session id
 * (httpOnly, SameSite=Lax, Path=/; over https Secure and `__Host-` prefixed).
 * Expired rows are refused on read and removed hourly (server/db/cleanup.server.ts).
 */
export function createDbSessionStorage(db: DB, opts: { secret: string; secure: boolean }) {
  const cookie = createCookie(sessionCookieName(opts.secure), {
    httpOnly: true,
    sameSite: "lax",
    secure: opts.secure,
    path: "/",
    secrets: [opts.secret],
    maxAge: SESSION_TTL_SECONDS,
  });
  return createSessionStorage<SessionData>({
    cookie,
    async createData(data, expires) {
      const id = crypto.randomBytes(32).toString("base64url");
      await db
        .insertInto("sessions")
        .values({
          id,
          user_id: hasUser(data) ? (data.userId as string) : null,
          data: toJson(data),
          expires_at: sessionExpiry(data, expires),
        })
        .execute();
      return id;
    },
    async readData(id) {
      const row = await db
        .selectFrom("sessions")
        .select(["data", "expires_at"])
        .where("id", "=", id)
        .executeTakeFirst();
      if (!row) return null;
      if (row.expires_at <= nowIso()) {
        await db.deleteFrom("sessions").where("id", "=", id).execute();
        return null;
      }
      return fromJson(row.data, sessionDataSchema, {});
    },
    async updateData(id, data, expires) {
      await db
        .updateTable("sessions")
        .set({
          data: toJson(data),
          user_id: hasUser(data) ? (data.userId as string) : null,
          expires_at: sessionExpiry(data, expires),
        })
        .where("id", "=", id)
        .execute();
    },
    async deleteData(id) {
      await db.deleteFrom("sessions").where("id", "=", id).execute();
    },
  });
}

/**
 * A session storage that keeps nothing: for sending a magic link, where the strategy's session
 * (the encrypted link and the address) would belong to a cookie no browser ever receives
 * (the send runs on an internal request). The link's own state is its `auth_tokens` row.
 */
export function createTransientSessionStorage(secret: string) {
  return createSessionStorage<SessionData>({
    cookie: createCookie("__studio_transient", { secrets: [secret] }),
    createData: async () => "transient",
    readData: async () => null,
    updateData: async () => {},
    deleteData: async () => {},
  });
}

export type DbSessionStorage = ReturnType<typeof createDbSessionStorage>;
export type StudioSession = Session<SessionData>;
