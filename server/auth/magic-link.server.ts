import crypto from "node:crypto";
import type { DB } from "../db/db.server";
import { nowIso } from "../db/json";
import { clientKeyOf, TooManyRequests } from "../rate-limit.server";

export const MAGIC_LINK_TTL_MS = 10 * 60 * 1000;
export const LIMIT_PER_EMAIL_PER_HOUR = 5;
export const LIMIT_PER_CLIENT_PER_HOUR = 30;
/** Links printed by `studio admin login-link` per address and hour: the operator's own limit. */
export const OPERATOR_LIMIT_PER_EMAIL_PER_HOUR = 10;
/**
 * The client key of links made on the server by the operator (never a client address: those are
 * IP addresses or /64 prefixes). They are counted apart from the web's requests (issue 40.4).
 */
export const OPERATOR_CLIENT_KEY = "cli";

export function hashToken(nonce: string): string {
  return crypto.createHash("sha256").update(nonce).digest("hex");
}

/**
 * Records a single-use sign-in nonce for an email, refusing past 5 links per address
 * and 30 per client per hour. The nonce travels inside the encrypted magic link.
 *
 * The operator's links (`clientKey` OPERATOR_CLIENT_KEY, made by the CLI on the server) are
 * counted apart: the web's requests for an address never block them (anyone can ask for an
 * admin's link five times), and they never use up the web's; they have a limit of their own.
 */
export async function issueMagicNonce(
  db: DB,
  input: { email: string; clientKey: string; redirectTo: string | null },
  now = new Date(),
): Promise<string> {
  // Counted as the in-memory limits count: an IPv6 client by its /64.
  const operator = input.clientKey === OPERATOR_CLIENT_KEY;
  const clientKey = operator ? OPERATOR_CLIENT_KEY : clientKeyOf(input.clientKey);
  const hourAgo = new Date(now.getTime() - 60 * 60 * 1000).toISOString();
  const byEmail = await db
    .selectFrom("auth_tokens")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("email", "=", input.email)
    .where("client_key", operator ? "=" : "!=", OPERATOR_CLIENT_KEY)
    .where("created_at", ">", hourAgo)
    .executeTakeFirstOrThrow();
  const byClient = operator
    ? { n: 0 }
    : await db
        .selectFrom("auth_tokens")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("client_key", "=", clientKey)
        .where("created_at", ">", hourAgo)
        .executeTakeFirstOrThrow();
  const perEmail = operator ? OPERATOR_LIMIT_PER_EMAIL_PER_HOUR : LIMIT_PER_EMAIL_PER_HOUR;
  if (Number(byEmail.n) >= perEmail || Number(byClient.n) >= LIMIT_PER_CLIENT_PER_HOUR) {
    throw new TooManyRequests("Too many sign-in links requested. Please wait an hour and try again.", 3600);
  }
  const nonce = crypto.randomBytes(24).toString("base64url");
  await db
    .insertInto("auth_tokens")
    .values({
      token_hash: hashToken(nonce),
      email: input.email,
      client_key: clientKey,
      redirect_to: input.redirectTo,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + MAGIC_LINK_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return nonce;
}

/**
 * Consumes a nonce atomically: succeeds once, only before expiry and only for its email.
 * Returns the remembered redirect (or null), or undefined when the link is spent or invalid.
 */
export async function consumeMagicNonce(
  db: DB,
  nonce: string,
  email: string,
): Promise<{ redirectTo: string | null } | undefined> {
  const row = await db
    .updateTable("auth_tokens")
    .set({ used_at: nowIso() })
    .where("token_hash", "=", hashToken(nonce))
    .where("email", "=", email)
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso())
    .returning("redirect_to")
    .executeTakeFirst();
  return row ? { redirectTo: row.redirect_to } : undefined;
}
