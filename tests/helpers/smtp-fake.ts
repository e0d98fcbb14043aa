/**
 * A real SMTP server (smtp-server) on a free loopback port for tests: it asks for a user and a
 * password, keeps every message it accepts (envelope and raw text), and can be told to refuse.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { from: string; to: string[]; raw: string };

export type SmtpFake = {
  port: number;
  /** smtp://user:pass@127.0.0.1:port */
  url: string;
  received: ReceivedMail[];
  /** When set, every message is refused with this SMTP reply (e.g. "550 Mailbox unavailable"). */
  refuse: { code: number; message: string } | null;
  /** Resolves with the first message (already received or to come) for which `match` is true. */
  waitFor: (match: (m: ReceivedMail) => boolean, ms?: number) => Promise<ReceivedMail>;
  close: () => Promise<void>;
};

export async function startSmtpFake(user = "studio", pass = "s3cret-pass"): Promise<SmtpFake> {
  const received: ReceivedMail[] = [];
  const waiters: { match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];
  const fake = { refuse: null } as SmtpFake;
  const server = new SMTPServer({
    // Plain SMTP with AUTH over it: the test checks credentials, not TLS.
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) return cb(null, { user });
      const err = Object.assign(new Error("Authentication failed"), { responseCode: 535 });
      return cb(err);
    },
    onData(stream, session, cb) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (c: string) => (raw += c));
      stream.on("end", () => {
        if (fake.refuse) {
          return cb(Object.assign(new Error(fake.refuse.message), { responseCode: fake.refuse.code }));
        }
        const m: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        };
        received.push(m);
        for (const w of waiters.splice(0)) {
          if (w.match(m)) w.resolve(m);
          else waiters.push(w);
        }
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return Object.assign(fake, {
    port,
    url: `smtp://${user}:${pass}@127.0.0.1:${port}`,
    received,
    waitFor(match: (m: ReceivedMail) => boolean, ms = 15_000) {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise<ReceivedMail>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no such message reached the SMTP server")), ms);
        waiters.push({
          match,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** A header of the message's top part, unfolded (e.g. "Subject"). */
export function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, " ");
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The MIME parts of a message whose Content-Type starts with `type`, decoded (base64, quoted-printable or plain). */
export function partsOfType(raw: string, type: string): { headers: string; body: string }[] {
  const parts: { headers: string; body: string }[] = [];
  for (const chunk of raw.split(/\r?\n--[^\r\n]+/)) {
    const [headers, ...rest] = chunk.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
    const unfolded = headers.replace(/\r?\n[ \t]+/g, " ");
    const ct = /^content-type:\s*([^\r\n]+)/im.exec(unfolded)?.[1] ?? "";
    if (!ct.toLowerCase().startsWith(type)) continue;
    const cte = (/^content-transfer-encoding:\s*(\S+)/im.exec(unfolded)?.[1] ?? "7bit").toLowerCase();
    const encoded = rest.join("\n\n");
    const body =
      cte === "base64"
        ? Buffer.from(encoded.replace(/\s+/g, ""), "base64").toString("utf8")
        : cte === "quoted-printable"
          ? Buffer.from(
              encoded
                .replace(/=\r?\n/g, "")
                .replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
              "latin1",
            ).toString("utf8")
          : encoded;
    parts.push({ headers: unfolded, body });
  }
  return parts;
}
