import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { z } from "zod";
import { cronProblem } from "./cron";
import { mailSettingsProblem } from "#domain/mail-providers";
import { isTimeZone } from "#domain/meeting-time";
import { parseReplicaUrl, type ReplicaTarget } from "#domain/replica-url";
import {
  httpsProblems,
  productionProblems,
  trustProxySetting,
  webUrlSettingProblem,
  withoutTrailingSlash,
} from "./env-rules";

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

export class EnvError extends Error {}

/** Let's Encrypt's production directory, the default ACME_DIRECTORY. */
export const LETS_ENCRYPT = "https://acme-v02.api.letsencrypt.org/directory";

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

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

/** The variables as given: each one declared once, with its default where it has one. */
const variables = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATA_DIR: z.string().default("./data"),
  /** Where backups are written (default DATA_DIR/backups). */
  BACKUP_DIR: optional,
  /** When the built-in backups run: a cron expression in STUDIO_TIMEZONE, or "off". */
  BACKUP_CRON: z.string().trim().default("0 3 * * *"),
  /** How many scheduled backups are kept. */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /** An S3-compatible bucket each backup is also uploaded to (all five, or none). */
  BACKUP_S3_ENDPOINT: optional,
  BACKUP_S3_BUCKET: optional,
  BACKUP_S3_REGION: optional,
  BACKUP_S3_ACCESS_KEY_ID: optional,
  BACKUP_S3_SECRET_ACCESS_KEY: optional,
  BACKUP_S3_PREFIX: optional,
  /**
   * Continuous replication (issue 45.1): s3://bucket/path (with the BACKUP_S3_* endpoint, region
   * and keys) or file:///path (a second disk). Unset: nightly backups only.
   */
  REPLICA_URL: optional,
  APP_URL: optional,
  SESSION_SECRET: optional,
  ADMIN_EMAILS: emailList,
  SUPER_ADMIN_EMAILS: emailList,
  SENDGRID_API_KEY: optional,
  SENDGRID_API_BASE: optional,
  /** SMTP instead of SendGrid: smtp://user:pass@host:587 (STARTTLS) or smtps://user:pass@host:465. */
  SMTP_URL: optional,
  /** The sender; required with a provider (without one, mail is not sent and a default is printed). */
  MAIL_FROM: optional,
  STUDIO_EMAIL: optional.transform((v) => v ?? "hello@studiorowan.example"),
  STRIPE_SECRET_KEY: optional,
  STRIPE_WEBHOOK_SECRET: optional,
  STRIPE_API_BASE: optional,
  GOOGLE_CLIENT_ID: optional,
  GOOGLE_CLIENT_SECRET: optional,
  GOOGLE_AUTH_BASE: optional,
  GOOGLE_TOKEN_URL: optional,
  CALENDLY_URL: optional.transform((v) => v ?? DEFAULT_CALENDLY_URL),
  /** Reads the scheduled event and invitee (the call's time); without it the time comes only from webhooks. */
  CALENDLY_TOKEN: optional,
  /** Calendly's API origin, without a trailing slash; a local fake in tests. */
  CALENDLY_API_BASE: optional,
  /** Verifies `POST /webhooks/calendly`; without it every webhook is refused. */
  CALENDLY_WEBHOOK_SIGNING_KEY: optional,
  /** The studio's IANA time zone, for call times in the console and the studio's emails. */
  STUDIO_TIMEZONE: optional,
  /**
   * Which proxies' X-Forwarded-For / -Proto the server believes (the client's address for rate
   * limits, HTTPS for HSTS), as Express's "trust proxy" takes it: `loopback` (the default: Caddy on
   * the same machine), a comma list of addresses, CIDR ranges or `loopback`/`linklocal`/
   * `uniquelocal`, or a number of hops.
   */
  TRUST_PROXY: optional,
  /** The address to listen on (default 127.0.0.1 when TRUST_PROXY is set, as behind Caddy; else every interface). */
  HOST: optional,
  /**
   * Automatic HTTPS (issue 45.3): the server listens on HTTPS_PORT (443) and HTTP_PORT (80) itself
   * and gets and renews a certificate for DOMAIN from ACME_DIRECTORY (Let's Encrypt by default).
   */
  DOMAIN: optional,
  ACME_EMAIL: optional,
  ACME_DIRECTORY: optional,
  HTTPS_PORT: z.coerce.number().int().min(1).max(65535).default(443),
  HTTP_PORT: z.coerce.number().int().min(1).max(65535).default(80),
  /** /healthz fails (503) when the data folder's disk has less free space than this. */
  MIN_FREE_MB: z.coerce.number().int().min(0).default(100),
  /** The log on stdout: JSON lines, or readable lines for a terminal (server/log.server.ts). */
  LOG_FORMAT: z.enum(["json", "pretty"]).default("json"),
});

/**
 * The environment as the product reads it: the variables above, with what follows from them
 * (production requires SESSION_SECRET and APP_URL and checks them; elsewhere APP_URL is localhost
 * and the secret is generated into DATA_DIR; DATA_DIR absolute; URLs without trailing slashes).
 * Every problem is reported, each as one line. `Env` is its type, inferred. Nothing is written
 * (the development secret) unless every rule passed.
 */
export const envSchema = variables.transform((given, ctx) => {
  let e = given;
  const problems: string[] = [];
  const tls = httpsProblems(e);
  problems.push(...tls.problems);
  // With DOMAIN the public address is https://DOMAIN: APP_URL may be left out.
  if (tls.appUrl && !e.APP_URL) e = { ...e, APP_URL: tls.appUrl };
  if (e.NODE_ENV === "production") {
    const missing = (["SESSION_SECRET", "APP_URL"] as const).filter((k) => !e[k]);
    if (missing.length)
      problems.push(
        `Refusing to start in production: missing ${missing.join(" and ")}. Set ${missing.join(", ")} in the environment.`,
      );
  }
  const studioZone = e.STUDIO_TIMEZONE ?? "UTC";
  if (!isTimeZone(studioZone))
    problems.push(
      `STUDIO_TIMEZONE is not a time zone this runtime knows: ${studioZone} (use an IANA name such as Europe/Berlin)`,
    );
  else {
    const badCron = cronProblem(e.BACKUP_CRON, studioZone);
    if (badCron) problems.push(badCron);
  }
  const s3 = [
    "BACKUP_S3_ENDPOINT",
    "BACKUP_S3_BUCKET",
    "BACKUP_S3_ACCESS_KEY_ID",
    "BACKUP_S3_SECRET_ACCESS_KEY",
  ] as const;
  const s3Set = s3.filter((k) => e[k]);
  const replica = e.REPLICA_URL ? parseReplicaUrl(e.REPLICA_URL) : null;
  if (replica && "problem" in replica) problems.push(replica.problem);
  const s3Replica = replica && "kind" in replica && replica.kind === "s3";
  if (s3Replica) {
    const needed = ["BACKUP_S3_ENDPOINT", "BACKUP_S3_ACCESS_KEY_ID", "BACKUP_S3_SECRET_ACCESS_KEY"] as const;
    const missing = needed.filter((k) => !e[k]);
    if (missing.length)
      problems.push(
        `REPLICA_URL ${e.REPLICA_URL} replicates with the BACKUP_S3_* endpoint and keys: ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} missing`,
      );
  }
  if (replica && "kind" in replica && replica.kind === "file") {
    const dataDir = path.resolve(e.DATA_DIR);
    if (replica.dir === dataDir || replica.dir.startsWith(`${dataDir}/`) || dataDir.startsWith(`${replica.dir}/`))
      problems.push(
        `REPLICA_URL ${replica.display} must be a folder outside DATA_DIR (${dataDir}), ideally on another disk: a replica beside the data is lost with it`,
      );
  }
  // The endpoint and keys alone serve an S3 replica; off-site backups need the bucket with them.
  if (s3Set.length && s3Set.length < s3.length && !(s3Replica && !e.BACKUP_S3_BUCKET))
    problems.push(
      `Off-site backups need ${s3.join(", ")} together: ${s3.filter((k) => !e[k]).join(" and ")} ${s3.length - s3Set.length === 1 ? "is" : "are"} missing`,
    );
  const badEndpoint =
    e.BACKUP_S3_ENDPOINT &&
    webUrlSettingProblem(
      "BACKUP_S3_ENDPOINT",
      e.BACKUP_S3_ENDPOINT,
      " (the keys go in BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY)",
    );
  if (badEndpoint) problems.push(badEndpoint);
  const badMail = mailSettingsProblem(e);
  if (badMail) problems.push(badMail);
  const CALENDLY_API_BASE = withoutTrailingSlash(e.CALENDLY_API_BASE ?? DEFAULT_CALENDLY_API_BASE);
  if (!isUrl(CALENDLY_API_BASE)) problems.push(`CALENDLY_API_BASE is not a valid URL: ${CALENDLY_API_BASE}`);
  const badCalendly = webUrlSettingProblem("CALENDLY_URL", e.CALENDLY_URL);
  if (badCalendly) problems.push(badCalendly);
  const APP_URL = withoutTrailingSlash(e.APP_URL ?? `http://localhost:${e.PORT}`);
  const appUrlOk = isUrl(APP_URL);
  if (!appUrlOk) problems.push(`APP_URL is not a valid URL: ${APP_URL}`);
  if (e.NODE_ENV === "production") problems.push(...productionProblems(e, appUrlOk && e.APP_URL ? APP_URL : null));
  const TRUST_PROXY = trustProxySetting(e.TRUST_PROXY);
  if (TRUST_PROXY === null)
    problems.push(
      `TRUST_PROXY is not a list of proxy addresses, ranges or loopback/linklocal/uniquelocal, nor a number of hops: ${e.TRUST_PROXY}`,
    );
  if (problems.length) {
    for (const message of problems) ctx.addIssue({ code: z.ZodIssueCode.custom, message, params: { plain: true } });
    return z.NEVER;
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    ...e,
    isProduction: e.NODE_ENV === "production",
    DATA_DIR: dataDir,
    APP_URL,
    SESSION_SECRET: e.SESSION_SECRET ?? devSessionSecret(dataDir),
    CALENDLY_API_BASE,
    STUDIO_TIMEZONE: studioZone,
    TRUST_PROXY: TRUST_PROXY!,
    REPLICA: replica as ReplicaTarget | null,
    DOMAIN: e.DOMAIN?.toLowerCase(),
    ACME_DIRECTORY: e.ACME_DIRECTORY ?? LETS_ENCRYPT,
    // Behind a proxy on this machine (TRUST_PROXY set), only the proxy needs to reach the server.
    HOST: e.HOST ?? (e.TRUST_PROXY ? "127.0.0.1" : undefined),
  };
});

/** What a variable's value must be, for the one line that names a bad one. */
const EXPECTED: Record<string, string> = {
  PORT: "a number from 1 to 65535",
  BACKUP_KEEP: "a whole number from 1 to 1000",
  NODE_ENV: "one of development, production, test",
  LOG_FORMAT: "json or pretty",
  MIN_FREE_MB: "a whole number of megabytes (0 or more)",
  HTTPS_PORT: "a number from 1 to 65535",
  HTTP_PORT: "a number from 1 to 65535",
};

/** Warnings about settings that work but are probably not meant (production only). */
export function envWarnings(e: Env): string[] {
  const warnings: string[] = [];
  if (e.isProduction && e.STRIPE_SECRET_KEY?.startsWith("sk_test_"))
    warnings.push("STRIPE_SECRET_KEY is a test key (sk_test_…) in production: no real payment will be taken");
  return warnings;
}

export type Env = z.output<typeof envSchema>;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  // One line per problem: our own rules read as sentences; a value of the wrong kind names the
  // variable, what it must be and what it got.
  const isPlain = (i: z.ZodIssue) =>
    i.code === z.ZodIssueCode.custom && (i.params as { plain?: boolean } | undefined)?.plain;
  const lines = result.error.issues.map((i) => {
    if (isPlain(i)) return i.message;
    const name = i.path.join(".");
    const got = source[name];
    return `${name} must be ${EXPECTED[name] ?? i.message.replace(/^./, (c) => c.toLowerCase())}, got '${got ?? ""}'`;
  });
  // A value of the wrong kind stops zod before the rules run: they run again without those
  // values, so that every problem is named at once. (A stand-in development secret keeps that
  // second pass from writing one: the start is refused anyway.)
  const wrongKind = result.error.issues.filter((i) => !isPlain(i)).map((i) => String(i.path[0]));
  if (wrongKind.length) {
    const rest: Record<string, string | undefined> = { ...source };
    for (const key of wrongKind) delete rest[key];
    if (rest.NODE_ENV !== "production" && !rest.SESSION_SECRET) rest.SESSION_SECRET = "0".repeat(64);
    const again = envSchema.safeParse(rest);
    if (!again.success) lines.push(...again.error.issues.filter(isPlain).map((i) => i.message));
  }
  throw new EnvError(lines.join("\n"));
}

/**
 * Only the data folder, for the operator commands that need nothing else (backup, restore): they
 * run from cron without the server's secrets.
 */
export function dataDirFromEnv(source: Record<string, string | undefined> = process.env): string {
  return path.resolve(variables.shape.DATA_DIR.parse(source.DATA_DIR));
}

/** BACKUP_DIR, or DATA_DIR/backups: read without the rest of the env, as dataDirFromEnv. */
export function backupDirFromEnv(source: Record<string, string | undefined> = process.env): string {
  const dir = variables.shape.BACKUP_DIR.parse(source.BACKUP_DIR);
  return path.resolve(dir || path.join(dataDirFromEnv(source), "backups"));
}

/**
 * REPLICA_URL and the BACKUP_S3_* it signs with, read without the rest of the env (as
 * dataDirFromEnv): `restore replica:…` runs on a new machine before anything else is set. Null
 * when REPLICA_URL is unset; a bad value throws EnvError with the start's own line.
 */
export function replicaFromEnv(source: Record<string, string | undefined> = process.env) {
  const url = optional.parse(source.REPLICA_URL);
  if (!url) return null;
  const target = parseReplicaUrl(url);
  if ("problem" in target) throw new EnvError(target.problem);
  const s3 = Object.fromEntries(
    (["BACKUP_S3_ENDPOINT", "BACKUP_S3_REGION", "BACKUP_S3_ACCESS_KEY_ID", "BACKUP_S3_SECRET_ACCESS_KEY"] as const).map(
      (k) => [k, optional.parse(source[k])],
    ),
  ) as Record<
    "BACKUP_S3_ENDPOINT" | "BACKUP_S3_REGION" | "BACKUP_S3_ACCESS_KEY_ID" | "BACKUP_S3_SECRET_ACCESS_KEY",
    string | undefined
  >;
  return { target, ...s3 };
}

/**
 * `npm start` with no NODE_ENV: the production build run on this machine. It gets the
 * development defaults for what production requires: APP_URL http://localhost:$PORT and a session
 * secret generated once into DATA_DIR. Call before env() is first read. An operator deploying
 * sets NODE_ENV=production (the Dockerfile does), and then both must be given.
 */
export function applyLocalDefaults(source: Record<string, string | undefined> = process.env): {
  APP_URL: string;
  secretFile: string;
} {
  const dataDir = dataDirFromEnv(source);
  // With DOMAIN the address is https://DOMAIN (envSchema gives it).
  if (!source.DOMAIN?.trim()) source.APP_URL ||= `http://localhost:${variables.shape.PORT.parse(source.PORT)}`;
  source.SESSION_SECRET ||= devSessionSecret(dataDir);
  return {
    APP_URL: source.APP_URL ?? `https://${source.DOMAIN?.trim()}`,
    secretFile: path.join(dataDir, ".session-secret"),
  };
}

let parsed: Env | undefined;

/** The parsed environment; parsed on first use (at boot) and cached for the process. */
export function env(): Env {
  parsed ??= parseEnv();
  return parsed;
}
