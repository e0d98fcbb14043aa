/**
 * Which mail provider the environment names, and the rules its settings follow (issue 33.2):
 * pure functions, read by the env schema at boot and by the mailer. No I/O.
 */

/** The sender when no provider is set (nothing leaves the machine then, so it is only printed). */
export const DEFAULT_MAIL_FROM = "Studio Rowan <hello@studiorowan.example>";

export type MailProvider = "sendgrid" | "smtp" | "none";

type ProviderVars = { SENDGRID_API_KEY?: string; SMTP_URL?: string };

export function mailProvider(e: ProviderVars): MailProvider {
  if (e.SENDGRID_API_KEY) return "sendgrid";
  if (e.SMTP_URL) return "smtp";
  return "none";
}

/**
 * In production with no provider every message stays in the outbox: clients receive nothing and
 * email sign-in cannot work. The console says so and the sign-in form does not offer a link.
 */
export function mailIsOff(e: ProviderVars & { NODE_ENV?: string; isProduction?: boolean }): boolean {
  const production = e.isProduction ?? e.NODE_ENV === "production";
  return production && mailProvider(e) === "none";
}

/** The one line a production server without a mail provider prints at start. */
export const MAIL_OFF_WARNING =
  "[mail] Mail is off: no SMTP_URL or SENDGRID_API_KEY is set, so clients receive nothing and email sign-in is unavailable";

/** The value with any credentials between `//` and `@` hidden, for messages. */
export function withoutPassword(value: string): string {
  return value.replace(/\/\/[^/@]*@/, (m) => {
    const user = m.slice(2, -1).split(":")[0];
    return `//${user ? `${user}:***` : "***"}@`;
  });
}

const ADDRESS = /^[^\s@<>",]+@[^\s@<>",]+\.[^\s@<>",]+$/;

/** "hello@studio.com" or "Studio <hello@studio.com>": the address inside, or null. */
function senderAddress(from: string): string | null {
  const named = /^[^<>]*<([^<>]+)>$/.exec(from.trim());
  const address = (named ? named[1] : from).trim();
  return ADDRESS.test(address) ? address : null;
}

/**
 * The one rule set for the mail settings: a problem as one line naming the variable and what is
 * wrong with its value (a password is never printed), or null when they are usable.
 */
export function mailSettingsProblem(e: ProviderVars & { MAIL_FROM?: string }): string | null {
  if (e.SENDGRID_API_KEY && e.SMTP_URL)
    return "SENDGRID_API_KEY and SMTP_URL are both set: choose one mail provider and remove the other";
  if (e.SMTP_URL) {
    const shown = withoutPassword(e.SMTP_URL);
    let url: URL;
    try {
      url = new URL(e.SMTP_URL);
    } catch {
      return `SMTP_URL must be a URL such as smtp://user:pass@host:587 or smtps://user:pass@host:465, got '${shown}'`;
    }
    if (url.protocol !== "smtp:" && url.protocol !== "smtps:")
      return `SMTP_URL must start with smtp:// or smtps://, got '${shown}'`;
    if (!url.hostname) return `SMTP_URL must name a host (smtp://user:pass@host:587), got '${shown}'`;
  }
  const provider = e.SENDGRID_API_KEY ? "SENDGRID_API_KEY" : e.SMTP_URL ? "SMTP_URL" : null;
  if (provider && !e.MAIL_FROM)
    return `MAIL_FROM is required when ${provider} is set: the sender, such as "Studio <hello@your-domain.com>"`;
  if (e.MAIL_FROM && !senderAddress(e.MAIL_FROM))
    return `MAIL_FROM must be an email address or "Name <address>", got '${e.MAIL_FROM}'`;
  return null;
}

/** "jane@example.com" → "j***@example.com": enough for an operator to tell messages apart, no more. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${address[0]}***${address.slice(at)}`;
}
