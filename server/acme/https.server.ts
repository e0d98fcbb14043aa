import type { DB } from "../db/db.server";
import type { Env } from "../env.server";
import { sendMail } from "../email/mailer.server";
import { log } from "../log.server";
import { certificates, type Certificates } from "./certificates.server";

/**
 * With DOMAIN set, the certificate's keeper, started once the database is ready: it loads the
 * stored certificate (a restart or a restored studio serves at once) or orders one, and renews it;
 * failing three times in a row, it mails STUDIO_EMAIL.
 */
export function startCertificates(e: Env, db: DB): Certificates | null {
  if (!e.DOMAIN || !e.ACME_EMAIL) return null;
  const certs = certificates({
    db,
    domain: e.DOMAIN,
    email: e.ACME_EMAIL,
    directory: e.ACME_DIRECTORY,
    log,
    keepsFailing: (message) =>
      sendMail(db, e, {
        to: e.STUDIO_EMAIL,
        subject: `The HTTPS certificate for ${e.DOMAIN} keeps failing`,
        text: `${message}\n\nThe server keeps trying (every hour at most). Check that ${e.DOMAIN} points to this server and that ports 80 and 443 reach it.\n`,
        html: `<p>${message.replace(/[<>&]/g, "")}</p><p>The server keeps trying (every hour at most). Check that ${e.DOMAIN} points to this server and that ports 80 and 443 reach it.</p>`,
      }),
  });
  void certs.check();
  return certs;
}
