import net from "node:net";
import { webUrlProblem } from "#domain/web-url";

/**
 * The rules server/env.server.ts checks the variables by, each problem one line that names the
 * variable and what is wrong (issue 33.1), never a secret's value: production's secrets and
 * addresses, the proxies trusted, URL settings, and automatic HTTPS's DOMAIN (issue 45.3; also
 * `studio install`'s answers).
 */

/** The variables as given, as far as these rules read them. */
export type Given = {
  SESSION_SECRET?: string;
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  APP_URL?: string;
  ADMIN_EMAILS: string[];
  SUPER_ADMIN_EMAILS: string[];
  DOMAIN?: string;
  ACME_EMAIL?: string;
  ACME_DIRECTORY?: string;
  HTTPS_PORT: number;
  HTTP_PORT: number;
};

export const withoutTrailingSlash = (value: string) => value.replace(/\/+$/, "");

const TRUST_KEYWORDS = new Set(["loopback", "linklocal", "uniquelocal"]);

/** TRUST_PROXY as Express takes it, or null when a part is neither a keyword nor an address or range. */
export function trustProxySetting(value: string | undefined): string | number | null {
  const v = value ?? "loopback";
  if (/^\d+$/.test(v)) return Number(v);
  const parts = v.split(",").map((p) => p.trim());
  const ok = parts.every((p) => {
    if (TRUST_KEYWORDS.has(p)) return true;
    const [address, bits, extra] = p.split("/");
    if (extra !== undefined || !net.isIP(address)) return false;
    return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (net.isIPv4(address) ? 32 : 128));
  });
  return ok ? parts.join(",") : null;
}

/** Text that stands in for a secret instead of being one (the README's own placeholder among them). */
const PLACEHOLDER = /[<>]|change|example|openssl/i;

const EMAIL = /^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>".]+$/;

/**
 * What production needs besides the presence of its two secrets (issue 33.1): each problem a line
 * that names the variable and what is wrong, never a secret's value.
 */
export function productionProblems(e: Given, appUrl: string | null): string[] {
  const problems: string[] = [];
  const secret = e.SESSION_SECRET ?? "";
  if (secret && PLACEHOLDER.test(secret))
    problems.push("SESSION_SECRET is a placeholder, not a secret: set it to the output of `openssl rand -hex 32`");
  else if (secret && secret.length < 32)
    problems.push(
      `SESSION_SECRET must be at least 32 characters (the output of \`openssl rand -hex 32\` is 64), got ${secret.length}`,
    );
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET))
    problems.push(
      e.STRIPE_SECRET_KEY
        ? "STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: Stripe's webhooks (payments, refunds) would all be refused; set both, or neither"
        : "STRIPE_WEBHOOK_SECRET is set without STRIPE_SECRET_KEY: set both, or neither",
    );
  if (appUrl) {
    const u = new URL(appUrl);
    if (u.pathname !== "/" || u.search || u.hash || u.username)
      problems.push(`APP_URL must be an origin such as https://studio.example, without a path, got '${e.APP_URL}'`);
    else if (u.protocol !== "https:" && u.protocol !== "http:")
      problems.push(`APP_URL must be an http or https origin, got '${e.APP_URL}'`);
  }
  for (const key of ["ADMIN_EMAILS", "SUPER_ADMIN_EMAILS"] as const) {
    const bad = e[key].filter((address) => !EMAIL.test(address));
    if (bad.length)
      problems.push(`${key} must be a comma list of email addresses, got ${bad.map((b) => `'${b}'`).join(", ")}`);
  }
  return problems;
}

/** A host name as DNS and certificates take it: labels of letters, digits and dashes, a dot between. */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** DOMAIN's rule (also `studio install --domain`'s): null, or the line that says what is wrong. */
export function domainProblem(value: string): string | null {
  const domain = value.toLowerCase();
  return HOST_NAME.test(domain) && !net.isIP(domain)
    ? null
    : `DOMAIN must be a host name such as studio.example.com (no scheme, port or path), got '${value}'`;
}

/** An email address as ADMIN_EMAILS and ACME_EMAIL take it. */
export const isEmailAddress = (value: string) => EMAIL.test(value);

/**
 * DOMAIN, ACME_EMAIL and ACME_DIRECTORY (issue 45.3): each problem a line, and the public address
 * DOMAIN gives (https://DOMAIN, or with HTTPS_PORT when it is not 443).
 */
export function httpsProblems(e: Given): { problems: string[]; appUrl: string | null } {
  const problems: string[] = [];
  if (!e.DOMAIN) {
    for (const key of ["ACME_EMAIL", "ACME_DIRECTORY"] as const)
      if (e[key]) problems.push(`${key} is set without DOMAIN: set DOMAIN to the host name the certificate is for`);
    return { problems, appUrl: null };
  }
  const domain = e.DOMAIN.toLowerCase();
  const badDomain = domainProblem(e.DOMAIN);
  if (badDomain) problems.push(badDomain);
  if (!e.ACME_EMAIL || !EMAIL.test(e.ACME_EMAIL))
    problems.push(
      `DOMAIN needs ACME_EMAIL, the address the certificate authority writes to about the certificate${e.ACME_EMAIL ? `, got '${e.ACME_EMAIL}'` : ""}`,
    );
  if (e.ACME_DIRECTORY) {
    const bad = webUrlSettingProblem("ACME_DIRECTORY", e.ACME_DIRECTORY);
    if (bad && !/^https:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(e.ACME_DIRECTORY)) problems.push(bad);
  }
  if (e.HTTPS_PORT === e.HTTP_PORT) problems.push(`HTTPS_PORT and HTTP_PORT must differ, both are ${e.HTTPS_PORT}`);
  const appUrl = `https://${domain}${e.HTTPS_PORT === 443 ? "" : `:${e.HTTPS_PORT}`}`;
  if (e.APP_URL && withoutTrailingSlash(e.APP_URL) !== appUrl)
    problems.push(`APP_URL must be ${appUrl} with DOMAIN=${e.DOMAIN} (or be left out), got '${e.APP_URL}'`);
  return { problems, appUrl };
}

/**
 * A URL setting by the one rule of web-url.ts (https, plain http only on this machine, no user or
 * password): null, or the line that names the variable. A value holding credentials is not echoed.
 */
export function webUrlSettingProblem(name: string, value: string, credentialsHint = ""): string | null {
  switch (webUrlProblem(value)) {
    case null:
      return null;
    case "credentials":
      return `${name} must not hold a user name or password${credentialsHint}`;
    case "invalid":
      return `${name} must be an https URL, got '${value}'`;
    case "scheme":
      return `${name} must be an https URL (plain http only on 127.0.0.1 or localhost), got '${value}'`;
  }
}
