import type http from "node:http";
import path from "node:path";
import { runtimeFile, runtimeFilesOnDemand } from "../runtime-files";
import { namesAFile } from "./file-paths";
import { storedFiles } from "./stored-files";

/**
 * The files app: the browser build, fonts, stored files and the favicon, through express's static
 * serving, gzipped by the compression middleware; a path no file answers (robots.txt, sitemap.xml,
 * a booking's .ics) goes on to `fallback` (Remix). server/index.ts makes it at the first request for
 * a file: express, compression and send are imported then, not evaluated at every start (issue
 * 42.4; an import by name, which the bundles follow and load only when called).
 */
export async function createFilesApp(opts: {
  publicDir: string;
  /** TRUST_PROXY, as express's "trust proxy" setting takes it. */
  trustProxy: string | number;
  fallback: (req: http.IncomingMessage, res: http.ServerResponse) => void;
}): Promise<(req: http.IncomingMessage, res: http.ServerResponse) => void> {
  const [{ default: express }, { default: compression }, { default: send }] = await Promise.all([
    import("express"),
    import("compression"),
    import("send"),
  ]);
  const files = express();
  files.disable("x-powered-by");
  files.set("trust proxy", opts.trustProxy);
  files.use(compression());
  // The single binary puts a file of public/ in place at its first request (server/runtime-files.ts):
  // only a path the payload names exactly is written, so a request reaches nothing else.
  if (runtimeFilesOnDemand())
    files.use((req, _res, next) => {
      try {
        publicFileInPlace(req.path);
      } catch (error) {
        return next(error); // The runtime folder could not be written (a full disk): said, not a 404.
      }
      next();
    });
  files.use("/build", express.static(path.join(opts.publicDir, "build"), { immutable: true, maxAge: "1y" }));
  files.use("/fonts", express.static(path.join(opts.publicDir, "fonts"), { immutable: true, maxAge: "1y" }));
  // Stored files (images, booking files, template archives): decided by the domain, sent by `send`.
  files.get("/files/:bucket/*", storedFiles(send));
  // Other files in public/ (the favicon): only paths that name a file are looked up on disk.
  const publicFiles = express.static(opts.publicDir, { maxAge: "1h", index: false, redirect: false });
  files.use((req, res, next) => (namesAFile(req.path) ? publicFiles(req, res, next) : next()));
  files.use((req, res) => opts.fallback(req, res));
  return files;
}

/** Puts public/`urlPath` in place from the binary's payload when the payload has that file. */
function publicFileInPlace(urlPath: string): void {
  let name: string;
  try {
    name = `public${decodeURIComponent(urlPath)}`;
  } catch {
    return; // Not a path send() would serve either: it answers 400.
  }
  runtimeFile(name);
}
