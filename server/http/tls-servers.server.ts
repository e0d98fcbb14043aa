import http from "node:http";
import type { Certificates } from "../acme/certificates.server";

// Read when this module loads, not imported: the server's bundle hoists every import of a
// built-in to its top, and only a start with DOMAIN loads this module (issue 42.4).
const https = process.getBuiltinModule("node:https");

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

const CHALLENGE = /^\/\.well-known\/acme-challenge\/([A-Za-z0-9_-]{1,256})$/;

/**
 * Automatic HTTPS's two listeners (issue 45.3). `secure`: the site over TLS, its certificate
 * picked at each handshake from the keeper (`certs()`, null until the server has booted; a
 * handshake before the first certificate fails). `plain`, on HTTP_PORT: the authority's HTTP-01
 * challenges, and every other request sent to https://DOMAIN with the same path (301; the host is
 * always DOMAIN, never the request's), or 503 while no certificate exists yet.
 */
export function tlsServers(opts: {
  onRequest: Handler;
  logRequest: <T>(req: http.IncomingMessage, res: http.ServerResponse, handle: () => T) => T;
  domain: string;
  httpsPort: number;
  certs: () => Certificates | null;
}) {
  const secure = https.createServer(
    {
      minVersion: "TLSv1.2",
      SNICallback: (_name, done) => {
        const context = opts.certs()?.context();
        if (context) done(null, context);
        else done(new Error(`no certificate for ${opts.domain} yet`));
      },
    },
    opts.onRequest,
  );
  const origin = `https://${opts.domain}${opts.httpsPort === 443 ? "" : `:${opts.httpsPort}`}`;
  const plain = http.createServer((req, res) =>
    opts.logRequest(req, res, () => {
      const url = req.url ?? "/";
      const token = CHALLENGE.exec(url)?.[1];
      if (token) {
        const answer = opts.certs()?.challenges.get(token);
        res.writeHead(answer ? 200 : 404, { "Content-Type": "text/plain" });
        res.end(answer ?? "Not Found");
        return;
      }
      if (!opts.certs()?.context()) {
        res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8", "Retry-After": "60" });
        res.end(`The certificate for ${opts.domain} is not ready yet: try again in a minute.`);
        return;
      }
      res.writeHead(301, { Location: origin + (url.startsWith("/") ? url : "/"), "Content-Length": "0" });
      res.end();
    }),
  );
  return { secure, plain };
}
