import crypto from "node:crypto";

/**
 * The link in a built-in call's confirmation and reminders that opens `/call/<token>` (issue 43.7),
 * where the client moves or cancels the call without an account. The token is the booking's id
 * and an HMAC of it under SESSION_SECRET: it cannot be guessed or made for another booking, and it
 * stays the same for the booking's life (the page always shows the call as it is now).
 */

const mac = (bookingId: string, secret: string) =>
  crypto.createHmac("sha256", secret).update(`call-link\n${bookingId}`).digest("base64url").slice(0, 32);

export function callToken(bookingId: string, secret: string): string {
  return `${bookingId}.${mac(bookingId, secret)}`;
}

/** The booking a token names, or null for anything that is not one of ours. */
export function bookingOfToken(token: string, secret: string): string | null {
  if (token.length > 200) return null;
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const id = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(id, secret));
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? id : null;
}

export const callLink = (appUrl: string, bookingId: string, secret: string) =>
  `${appUrl}/call/${callToken(bookingId, secret)}`;
