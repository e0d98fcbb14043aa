import crypto from "node:crypto";

/** The unguessable part of a client's link (`/pay/<token>`, `/proposal/<token>`): 32 characters. */
export function newLinkToken(): string {
  return crypto.randomBytes(24).toString("base64url");
}

/** Whether a token has the shape ours have: anything else names nothing, and is not looked up. */
export const isLinkToken = (token: string) => /^[A-Za-z0-9_-]{20,64}$/.test(token);
