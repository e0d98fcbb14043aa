import type { SessionStorage } from "@remix-run/node";
import { Authenticator, Strategy, type AuthenticateOptions } from "remix-auth";
import type { EmailLinkStrategy, SendEmailFunction } from "remix-auth-email-link";
import { GoogleStrategy } from "remix-auth-google";
import { db as appDb } from "../db.server";
import type { DB } from "../db/db.server";
import { env, type Env } from "../env.server";
import { sendMail } from "../email/mailer.server";
import { mailIsOff } from "#domain/mail-providers";
import { magicLinkEmail } from "./magic-link-email";
import { getStudio } from "../studio/studio.server";
import { consumeMagicNonce, MAGIC_LINK_TTL_MS } from "./magic-link.server";
import { createDbSessionStorage, createTransientSessionStorage, type DbSessionStorage } from "./session.server";
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
 * The magic-link strategy, loaded at its first use: remix-auth-email-link seals its links with
 * crypto-js, whose AES module computes its tables when it is loaded, some 15 ms of every start
 * (issue 42.4) for a sign-in that may be hours away.
 */
class EmailLinkOnFirstUse extends Strategy<AuthUser, unknown> {
  name = "email-link";
  #loaded: Promise<EmailLinkStrategy<AuthUser>> | undefined;
  constructor(private readonly make: (Class: typeof EmailLinkStrategy) => EmailLinkStrategy<AuthUser>) {
    super(async () => {
      throw new Error("the email-link strategy verifies through the strategy it loads");
    });
  }
  async authenticate(request: Request, sessionStorage: SessionStorage, options: AuthenticateOptions) {
    // A CommonJS package: its exports are the namespace's default (as Node's own import() gives
    // them, and the built server's bundle); its named exports are not there in the bundle.
    this.#loaded ??= import("remix-auth-email-link").then(({ default: loaded }) => this.make(loaded.EmailLinkStrategy));
    return (await this.#loaded).authenticate(request, sessionStorage, options);
  }
}

/**
 * The magic-link strategy: links built from APP_URL, sealed with SESSION_SECRET, valid 10 minutes,
 * handed to `sendEmail`; verifying one consumes its single-use nonce (auth_tokens).
 */
function emailLinkStrategy(e: Env, db: DB, sendEmail: SendEmailFunction<AuthUser>): Strategy<AuthUser, unknown> {
  return new EmailLinkOnFirstUse(
    (EmailLinkStrategy) =>
      new EmailLinkStrategy<AuthUser>(
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
      ),
  );
}

/** An authenticator for sending links only, on a storage that keeps nothing. */
function linkSenderFor(e: Env, strategy: Strategy<AuthUser, unknown>): Authenticator<AuthUser> {
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

/** The user `userId` names, with roles, or null when there is none (a session outliving its user). */
export async function sessionUserById(db: DB, userId: string): Promise<SessionUser | null> {
  const user = await db
    .selectFrom("users")
    .select(["id", "email", "full_name"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!user) return null;
  const roles = await rolesOf(db, user.id);
  return { id: user.id, email: user.email, fullName: user.full_name, ...roles };
}
