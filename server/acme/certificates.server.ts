import type { SecureContext } from "node:tls";
import type * as AcmeClient from "acme-client";
import type { Logger } from "pino";
import type { DB } from "../db/db.server";
import { readFlag, setFlag } from "../db/flags.server";

// Read when this module loads, not imported: the server's bundle hoists every import of a
// built-in to its top, and only a start with DOMAIN loads this module (issue 42.4).
const https = process.getBuiltinModule("node:https");
const tls = process.getBuiltinModule("node:tls");

/**
 * Automatic HTTPS (issue 45.3): a certificate for DOMAIN from an ACME certificate authority (Let's
 * Encrypt, or ACME_DIRECTORY) with acme-client, by the HTTP-01 challenge answered on port 80. The
 * account key and the certificate with its key are kept in the database (`studio_flags`), so the
 * backups and the replica carry them and a restored studio serves at once. Renewed 30 days before
 * it expires; a failure is one line with the authority's reason and a retry (1 minute, doubling
 * to an hour), never a crash; after three failures in a row the studio is mailed, once until one
 * succeeds. See docs/decisions/044-automatic-https.md.
 */
export type StoredCertificate = { domain: string; cert: string; key: string; notAfter: string; directory: string };

const ACCOUNT_FLAG = "acme_account_key";
const CERTIFICATE_FLAG = "acme_certificate";
export const RENEW_BEFORE_MS = 30 * 86_400_000;
const CHECK_EVERY_MS = 12 * 3_600_000;
const MAX_RETRY_MS = 3_600_000;

/** acme-client, loaded when a certificate is first needed (read apart from the server's script). */
type Acme = typeof AcmeClient;
async function acmeClient(): Promise<Acme> {
  const m = (await import("acme-client")) as unknown as Partial<Acme> & { default?: Acme };
  return m.Client ? (m as Acme) : m.default!;
}

export async function storedCertificate(db: DB): Promise<StoredCertificate | null> {
  const raw = await readFlag(db, CERTIFICATE_FLAG);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as StoredCertificate;
  } catch {
    return null;
  }
}

/** The directory answers (through Node's https, as acme-client asks), or what went wrong, in words. */
function reachable(directory: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = https.get(directory, { timeout: 10_000 }, (res) => {
      res.resume();
      if ((res.statusCode ?? 0) < 400) resolve();
      else reject(new Error(`the directory ${directory} answered ${res.statusCode}`));
    });
    req.on("timeout", () => req.destroy(new Error(`the directory ${directory} did not answer within 10 s`)));
    req.on("error", (error: NodeJS.ErrnoException) =>
      reject(new Error(`the directory ${directory} cannot be reached (${error.code ?? error.message})`)),
    );
  });
}

/** What the authority said, in one line (its problem document's detail when it sent one). */
export function authorityReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, " ").trim().slice(0, 300) || "no reason given";
}

/**
 * Orders a certificate for `domain`: the account (made once and kept), a new key and CSR, the
 * HTTP-01 challenge's answer put in `challenges` while the authority checks it, the certificate
 * stored. Throws with the authority's reason.
 */
export async function obtainCertificate(
  db: DB,
  opts: { domain: string; email: string; directory: string; challenges: Map<string, string> },
): Promise<StoredCertificate> {
  const acme = await acmeClient();
  // acme-client retries a request that got no answer five times over 75 s, then fails with an
  // error of its own that hides the cause; the server retries on its own schedule, and asks the
  // directory first so that an authority out of reach is said in words.
  const settings = (acme.axios.defaults as { acmeSettings?: Record<string, number> }).acmeSettings;
  if (settings) Object.assign(settings, { retryMaxAttempts: 2, retryDefaultDelay: 2 });
  await reachable(opts.directory);
  let accountKey = await readFlag(db, ACCOUNT_FLAG);
  if (!accountKey) {
    const made = (await acme.crypto.createPrivateKey()).toString();
    await setFlag(db, ACCOUNT_FLAG, made);
    accountKey = made;
  }
  const client = new acme.Client({ directoryUrl: opts.directory, accountKey });
  const [key, csr] = await acme.crypto.createCsr({ commonName: opts.domain, altNames: [opts.domain] });
  const cert = await client.auto({
    csr,
    email: opts.email,
    termsOfServiceAgreed: true,
    challengePriority: ["http-01"],
    // The authority checks the answer itself; a check from here would need this machine to reach
    // its own public name (not so behind some NATs, nor in tests).
    skipChallengeVerification: true,
    challengeCreateFn: async (_authz: unknown, challenge: { token: string }, keyAuthorization: string) => {
      opts.challenges.set(challenge.token, keyAuthorization);
    },
    challengeRemoveFn: async (_authz: unknown, challenge: { token: string }) => {
      opts.challenges.delete(challenge.token);
    },
  });
  const info = acme.crypto.readCertificateInfo(cert);
  const stored: StoredCertificate = {
    domain: opts.domain,
    cert,
    key: key.toString(),
    notAfter: info.notAfter.toISOString(),
    directory: opts.directory,
  };
  await setFlag(db, CERTIFICATE_FLAG, JSON.stringify(stored));
  return stored;
}

/**
 * The certificate for the HTTPS server: loaded from the database, obtained when missing, renewed
 * when under 30 days remain (checked at start and every 12 hours), with retries. `context()` is
 * what the TLS handshake uses (null until there is one).
 */
export function certificates(opts: {
  db: DB;
  domain: string;
  email: string;
  directory: string;
  log: Logger;
  /** Told once after the third failure in a row (the studio's mail). */
  keepsFailing: (message: string) => Promise<unknown>;
  now?: () => number;
}) {
  const now = opts.now ?? Date.now;
  const challenges = new Map<string, string>();
  let current: { stored: StoredCertificate; context: SecureContext } | null = null;
  let failures = 0;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const adopt = (stored: StoredCertificate) => {
    current = { stored, context: tls.createSecureContext({ cert: stored.cert, key: stored.key }) };
  };

  function schedule(ms: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void check(), ms);
    timer.unref();
  }

  async function attempt(): Promise<void> {
    if (!current) {
      const stored = await storedCertificate(opts.db);
      if (stored?.domain === opts.domain) adopt(stored);
    }
    const remaining = current ? Date.parse(current.stored.notAfter) - now() : -1;
    if (current && remaining > RENEW_BEFORE_MS) return schedule(CHECK_EVERY_MS);
    const renewing = current !== null;
    try {
      const stored = await obtainCertificate(opts.db, { ...opts, challenges });
      adopt(stored);
      failures = 0;
      opts.log.info(
        `[acme] ${renewing ? "renewed the certificate" : "new certificate"} for ${opts.domain} until ${stored.notAfter}`,
      );
      schedule(CHECK_EVERY_MS);
    } catch (error) {
      failures++;
      const wait = Math.min(MAX_RETRY_MS, 60_000 * 2 ** (failures - 1));
      const reason = authorityReason(error);
      opts.log.error(
        `[acme] could not ${current ? "renew" : "get"} the certificate for ${opts.domain} from ${opts.directory}: ${reason}; trying again in ${Math.round(wait / 60_000)} min`,
      );
      if (failures === 3)
        await opts
          .keepsFailing(
            `The certificate for ${opts.domain} could not be ${current ? `renewed (it expires ${current.stored.notAfter})` : "obtained"}: ${reason}`,
          )
          .catch(() => undefined);
      schedule(wait);
    }
  }

  /** One check now (a renewal when due); concurrent calls share one. */
  function check(): Promise<void> {
    running ??= attempt().finally(() => (running = null));
    return running;
  }

  return {
    challenges,
    context: () => current?.context ?? null,
    certificate: () => current?.stored ?? null,
    check,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

export type Certificates = ReturnType<typeof certificates>;
