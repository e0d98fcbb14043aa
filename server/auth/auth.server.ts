import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { EmailLinkStrategy, type SendEmailFunction } from "remix-auth-email-link";
import { GoogleStrategy } from "remix-auth-google";
import { db as appDb } from "../db.server";
import type { DB } from "../db/db.server";
import { env, type Env } from "../env.server";
import { sendMail } from "../email/mailer.server";
import { mailIsOff } from "#domain/mail-providers";
import { magicLinkEmail } from "./magic-link-email";
import { getStudio } from "../studio/studio.server";
import { consumeMagicNonce, MAGIC_LINK_TTL_MS } from "./magic-link.server";
import { siteCookie } from "./cookie-name";
import { safeRedirectPath } from "./redirect";
import {
  createDbSessionStorage,
  createTransientSessionStorage,
  type DbSessionStorage,
  type StudioSession,
} from "./session.server";
import { applyConfiguredAdmin, ensureUser, rolesOf, type Roles } from "./users.server";

export type AuthUser = { id: string; email: string; fullName: string | null; redirectTo?: string | null };
export type SessionUser = { id: string; email: string; fullName: string | null } & Roles;

export const AUTH_FAILED_PATH = "/templates?error=auth_failed";
export const SIGNIN_REQUIRED_PATH = "/templates?signin=required";

/**
 * A magic link on APP_URL's origin whatever origin the strategy derived it from (issue 30.5): the
 * library builds the link's origin from the request it is given (`X-Forwarded-Host`, `Host`), so
 * the link it hands to `sendEmail` is moved onto APP_URL, keeping its path and sealed token. No
 * private method of the library is touched.
 */
export function onAppUrl(magicLink: string, appUrl: string): string {
  const link = new URL(magicLink);
  return new URL(`${link.pathname}${link.search}`, appUrl).toString();
}

type AuthKit = {
  db: DB;
  sessionStorage: DbSessionStorage;
  authenticator: Authenticator<AuthUser>;
  /** The email-link strategy on a storage that keeps nothing: sending a link writes no session row. */
  linkSender: Authenticator<AuthUser>;
  googleConfigured: boolean;
  /** False in production without a mail provider: no link can reach anyone (issue 33.2). */
  emailSignIn: boolean;
};

let kit: AuthKit | undefined;

/**
 * The magic-link strategy: links built from APP_URL, sealed with SESSION_SECRET, valid 10 minutes,
 * handed to `sendEmail`; verifying one consumes its single-use nonce (auth_tokens).
 */
function emailLinkStrategy(e: Env, db: DB, sendEmail: SendEmailFunction<AuthUser>) {
  return new EmailLinkStrategy<AuthUser>(
    {
      secret: e.SESSION_SECRET,
      callbackURL: "/auth/callback",
      linkExpirationTime: MAGIC_LINK_TTL_MS,
      sendEmail: (options) => sendEmail({ ...options, magicLink: onAppUrl(options.magicLink, e.APP_URL) }),
    },
    async ({ email, form, magicLinkVerify }) => {
      if (!magicLinkVerify) {
        // Called while sending: nothing to verify yet, and the answer never depends on an account existing.
        throw new Error("not verifying while sending");
      }
      const nonce = form.get("nonce");
      if (typeof nonce !== "string" || !nonce) throw new Error("Sign in link invalid. Please request a new one.");
      const consumed = await consumeMagicNonce(db, nonce, email);
      if (!consumed) throw new Error("This sign-in link has already been used or has expired.");
      const user = await ensureUser(db, email);
      await applyConfiguredAdmin(db, user.email, e);
      return { id: user.id, email: user.email, fullName: user.full_name, redirectTo: consumed.redirectTo };
    },
  );
}

/** An authenticator for sending links only, on a storage that keeps nothing. */
function linkSenderFor(e: Env, strategy: EmailLinkStrategy<AuthUser>): Authenticator<AuthUser> {
  const sender = new Authenticator<AuthUser>(createTransientSessionStorage(e.SESSION_SECRET), {
    sessionKey: "authUser",
    sessionErrorKey: "authError",
  });
  sender.use(strategy, "email-link");
  return sender;
}

/**
 * A link sender whose strategy hands each link to `sendEmail` instead of the mailer: the same
 * link the site mails (same secret, callback and lifetime), for a caller that delivers it itself
 * (`studio admin login-link` prints it).
 */
export function linkSenderWith(sendEmail: SendEmailFunction<AuthUser>): Authenticator<AuthUser> {
  const { db } = auth();
  const e = env();
  return linkSenderFor(e, emailLinkStrategy(e, db, sendEmail));
}

function buildAuth(): AuthKit {
  const e = env();
  const db = appDb();
  const sessionStorage = createDbSessionStorage(db, {
    secret: e.SESSION_SECRET,
    secure: e.APP_URL.startsWith("https://"),
  });
  const authenticator = new Authenticator<AuthUser>(sessionStorage, {
    sessionKey: "authUser",
    sessionErrorKey: "authError",
  });

  const emailLink = emailLinkStrategy(e, db, async ({ emailAddress, magicLink }) => {
    // The message carries the studio's name and contact address as saved in Settings.
    const { identity } = await getStudio(db, { studioEmail: e.STUDIO_EMAIL });
    const { text, html } = magicLinkEmail(magicLink, identity);
    await sendMail(db, e, { to: emailAddress, subject: `Your sign-in link for ${identity.name}`, text, html });
  });
  authenticator.use(emailLink, "email-link");
  const linkSender = linkSenderFor(e, emailLink);

  const googleConfigured = Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET);
  if (googleConfigured) {
    const google = new GoogleStrategy<AuthUser>(
      {
        clientID: e.GOOGLE_CLIENT_ID!,
        clientSecret: e.GOOGLE_CLIENT_SECRET!,
        callbackURL: `${e.APP_URL}/auth/callback`,
        accessType: "offline",
        prompt: "consent",
      },
      async ({ profile }) => {
        const email = profile.emails?.[0]?.value ?? profile._json?.email;
        if (!email) throw new Error("Google did not share an email address.");
        const user = await ensureUser(db, email, profile.displayName || profile._json?.name || null);
        await applyConfiguredAdmin(db, user.email, e);
        return { id: user.id, email: user.email, fullName: user.full_name };
      },
    );
    // Tests point the strategy at a local fake of Google's endpoints.
    if (e.GOOGLE_AUTH_BASE) {
      const base = e.GOOGLE_AUTH_BASE.replace(/\/+$/, "");
      const s = google as unknown as { authorizationURL: string; tokenURL: string; userInfoURL: string };
      s.authorizationURL = `${base}/o/oauth2/v2/auth`;
      s.tokenURL = e.GOOGLE_TOKEN_URL ?? `${base}/token`;
      s.userInfoURL = `${base}/oauth2/v3/userinfo`;
    }
    authenticator.use(google, "google");
  }

  return { db, sessionStorage, authenticator, linkSender, googleConfigured, emailSignIn: !mailIsOff(e) };
}

export function auth(): AuthKit {
  // Rebuilt when the process's database was closed and opened again (an operator command closes
  // it when done); a running server keeps one database, so this is built once.
  if (!kit || kit.db !== appDb()) kit = buildAuth();
  return kit;
}

export async function getSession(request: Request): Promise<StudioSession> {
  return auth().sessionStorage.getSession(request.headers.get("Cookie"));
}

export async function commitSession(session: StudioSession): Promise<string> {
  return auth().sessionStorage.commitSession(session);
}

/** The signed-in user with roles, or null. */
export async function getSessionUser(request: Request): Promise<SessionUser | null> {
  const session = await getSession(request);
  const userId = session.get("userId");
  if (typeof userId !== "string") return null;
  const { db } = auth();
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "full_name"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) return null;
  const roles = await rolesOf(db, user.id);
  return { id: user.id, email: user.email, fullName: user.full_name, ...roles };
}

/**
 * Starts a fresh session for the user (a new id on every sign-in; the previous session row is
 * deleted) and redirects to `redirectTo`.
 */
export async function signInAndRedirect(request: Request, userId: string, redirectTo: string): Promise<Response> {
  const { sessionStorage } = auth();
  const old = await getSession(request);
  const remembered = await rememberedRedirect(request);
  if (old.id) await sessionStorage.destroySession(old);
  const fresh = await sessionStorage.getSession();
  fresh.set("userId", userId);
  const target = safeRedirectPath(redirectTo || remembered || "", "/dashboard");
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionStorage.commitSession(fresh));
  headers.append("Set-Cookie", await authRedirectCookie().serialize("", { maxAge: 0 }));
  return redirect(target, { headers });
}

/** Deletes the session row so the old cookie no longer works. */
export async function signOut(request: Request, to = "/templates"): Promise<Response> {
  const { sessionStorage } = auth();
  const session = await getSession(request);
  return redirect(to, { headers: { "Set-Cookie": await sessionStorage.destroySession(session) } });
}

/**
 * Where to return after signing in (`auth_redirect`), kept in its own signed cookie for an hour:
 * remembering it never writes to the database, so a GET stays free of side effects.
 */
const authRedirectCookie = () => siteCookie("auth_redirect", 60 * 60);

/** Remembers where to return after signing in; answers the Set-Cookie header value. */
export async function rememberRedirect(_request: Request, path: string): Promise<string> {
  return authRedirectCookie().serialize(safeRedirectPath(path, "/dashboard"));
}

/** The remembered return path (already checked to be same-site), or null. */
export async function rememberedRedirect(request: Request): Promise<string | null> {
  const value = await authRedirectCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" ? safeRedirectPath(value, "/dashboard") : null;
}

/** Loader/action guard: the signed-in user, or a redirect to the sign-in dialog with this path remembered. */
export async function requireUser(request: Request): Promise<SessionUser> {
  const user = await getSessionUser(request);
  if (user) return user;
  const url = new URL(request.url);
  const cookie = await rememberRedirect(request, url.pathname + url.search);
  throw redirect(SIGNIN_REQUIRED_PATH, { headers: { "Set-Cookie": cookie } });
}
