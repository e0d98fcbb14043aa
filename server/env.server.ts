import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { z } from "zod";
import { isTimeZone } from "../app/lib/meeting-time";

/**
 * Every environment variable the product reads, parsed once at boot.
 * Defaults follow DESIGN.md §3: the app runs offline with none set.
 */
const emailList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? "")
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );

const optional = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() ? v.trim() : undefined));

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().default("./data"),
  APP_URL: optional,
  SESSION_SECRET: optional,
  ADMIN_EMAILS: emailList,
  SUPER_ADMIN_EMAILS: emailList,
  SENDGRID_API_KEY: optional,
  SENDGRID_API_BASE: optional,
  MAIL_FROM: optional,
  STUDIO_EMAIL: optional,
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_BASE: optional,
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_AUTH_BASE: optional,
  GOOGLE_TOKEN_URL: optional,
  CALENDLY_URL: optional,
  CALENDLY_TOKEN: optional,
  CALENDLY_API_BASE: optional,
  CALENDLY_WEBHOOK_SIGNING_KEY: optional,
  STUDIO_TIMEZONE: optional,
});

export type Env = {
  NODE_ENV: "development" | "production" | "test";
  isProduction: boolean;
  PORT: number;
  DATA_DIR: string;
  APP_URL: string;
  SESSION_SECRET: string;
  ADMIN_EMAILS: string[];
  SUPER_ADMIN_EMAILS: string[];
  SENDGRID_API_KEY?: string;
  SENDGRID_API_BASE?: string;
  MAIL_FROM: string;
  STUDIO_EMAIL: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;
  GOOGLE_AUTH_BASE?: string;
  GOOGLE_TOKEN_URL?: string;
  CALENDLY_URL: string;
  /** Reads the scheduled event and invitee (the call's time); without it the time comes only from webhooks. */
  CALENDLY_TOKEN?: string;
  /** Calendly's API origin, without a trailing slash; a local fake in tests. */
  CALENDLY_API_BASE: string;
  /** Verifies `POST /webhooks/calendly`; without it every webhook is refused. */
  CALENDLY_WEBHOOK_SIGNING_KEY?: string;
  /** The studio's IANA time zone, for call times in the console and the studio's emails. */
  STUDIO_TIMEZONE: string;
};

export class EnvError extends Error {}

export const DEFAULT_CALENDLY_URL = "https://calendly.com/studio-rowan/consultation";
export const DEFAULT_CALENDLY_API_BASE = "https://api.calendly.com";

/** Reads (or creates once) the development session secret stored in DATA_DIR. */
function devSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, ".session-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = crypto.randomBytes(32).toString("hex");
    fs.writeFileSync(file, secret + "\n", { mode: 0o600 });
    return secret;
  }
}

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment: ${problems.join("; ")}`);
  }
  const e = result.data;
  const isProduction = e.NODE_ENV === "production";
  const dataDir = path.resolve(e.DATA_DIR);
  if (isProduction) {
    const missing = (["SESSION_SECRET", "APP_URL"] as const).filter((k) => !e[k]);
    if (missing.length) {
      throw new EnvError(
        `Refusing to start in production: missing ${missing.join(" and ")}. Set ${missing.join(", ")} in the environment.`,
      );
    }
  }
  const studioZone = e.STUDIO_TIMEZONE ?? "UTC";
  if (!isTimeZone(studioZone)) throw new EnvError(`STUDIO_TIMEZONE is not a time zone this runtime knows: ${studioZone} (use an IANA name such as Europe/Berlin)`);
  const calendlyApi = (e.CALENDLY_API_BASE ?? DEFAULT_CALENDLY_API_BASE).replace(/\/+$/, "");
  try {
    new URL(calendlyApi);
  } catch {
    throw new EnvError(`CALENDLY_API_BASE is not a valid URL: ${calendlyApi}`);
  }
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  try {
    new URL(appUrl);
  } catch {
    throw new EnvError(`APP_URL is not a valid URL: ${appUrl}`);
  }
  return {
    NODE_ENV: e.NODE_ENV,
    isProduction,
    PORT: e.PORT,
    DATA_DIR: dataDir,
    APP_URL: appUrl,
    SESSION_SECRET: e.SESSION_SECRET ?? devSessionSecret(dataDir),
    ADMIN_EMAILS: e.ADMIN_EMAILS,
    SUPER_ADMIN_EMAILS: e.SUPER_ADMIN_EMAILS,
    SENDGRID_API_KEY: e.SENDGRID_API_KEY,
    SENDGRID_API_BASE: e.SENDGRID_API_BASE,
    MAIL_FROM: e.MAIL_FROM ?? "Studio Rowan <hello@studiorowan.example>",
    STUDIO_EMAIL: e.STUDIO_EMAIL ?? "hello@studiorowan.example",
    STRIPE_SECRET_KEY: e.STRIPE_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: e.STRIPE_WEBHOOK_SECRET,
    STRIPE_API_BASE: e.STRIPE_API_BASE,
    GOOGLE_CLIENT_ID: e.GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: e.GOOGLE_CLIENT_SECRET,
    GOOGLE_AUTH_BASE: e.GOOGLE_AUTH_BASE,
    GOOGLE_TOKEN_URL: e.GOOGLE_TOKEN_URL,
    CALENDLY_URL: e.CALENDLY_URL ?? DEFAULT_CALENDLY_URL,
    CALENDLY_TOKEN: e.CALENDLY_TOKEN,
    CALENDLY_API_BASE: calendlyApi,
    CALENDLY_WEBHOOK_SIGNING_KEY: e.CALENDLY_WEBHOOK_SIGNING_KEY,
    STUDIO_TIMEZONE: studioZone,
  };
}

/**
 * Only the data folder, for the operator commands that need nothing else (backup, restore): they
 * run from cron without the server's secrets.
 */
export function dataDirFromEnv(source: Record<string, string | undefined> = process.env): string {
  return path.resolve(envSchema.shape.DATA_DIR.parse(source.DATA_DIR));
}

/**
 * `npm start` with no NODE_ENV: the production build run on this machine. It gets the
 * development defaults for what production requires: APP_URL http://localhost:$PORT and a session
 * secret generated once into DATA_DIR. Call before env() is first read. An operator deploying
 * sets NODE_ENV=production (the Dockerfile does), and then both must be given.
 */
export function applyLocalDefaults(source: Record<string, string | undefined> = process.env): { APP_URL: string; secretFile: string } {
  const dataDir = dataDirFromEnv(source);
  source.APP_URL ||= `http://localhost:${envSchema.shape.PORT.parse(source.PORT)}`;
  source.SESSION_SECRET ||= devSessionSecret(dataDir);
  return { APP_URL: source.APP_URL, secretFile: path.join(dataDir, ".session-secret") };
}

const g = globalThis as typeof globalThis & { __studioEnv?: Env };

/** The parsed environment; parsed on first use (at boot) and cached for the process. */
export function env(): Env {
  if (!g.__studioEnv) g.__studioEnv = parseEnv();
  return g.__studioEnv;
}
