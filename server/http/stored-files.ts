import type { NextFunction, Request, Response } from "express";
import type send from "send";
import { decideStoredFile } from "./stored-file-access";

/**
 * GET and HEAD /files/<bucket>/<path>: public images, or signed links (?exp=…&sig=…) for
 * everything else (stored-file-access.ts decides). The file goes out through `send`:
 * Range requests (a 100 MB archive resumes where it stopped), ETag and Last-Modified with 304s,
 * HEAD, streamed from disk.
 */
export function storedFiles(sendFile: typeof send) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const url = new URL(req.originalUrl, "http://files");
    let decision;
    try {
      decision = await decideStoredFile(
        req.params.bucket ?? "",
        (req.params as Record<string, string>)[0] ?? "",
        url.searchParams,
      );
    } catch (error) {
      return next(error);
    }
    if (!decision.ok) {
      res.status(decision.status).set("Cache-Control", "no-store").type("text/plain").send(decision.message);
      return;
    }
    const headers = decision.headers;
    sendFile(req, decision.file, {
      etag: true,
      lastModified: true,
      cacheControl: false,
      acceptRanges: true,
      dotfiles: "allow",
      index: false,
    })
      .on("headers", (r) => {
        for (const [k, v] of Object.entries(headers)) r.setHeader(k, v);
      })
      .on("error", (error: { status?: number }) => {
        if (res.headersSent) return void res.destroy();
        res
          .status(error.status === 404 ? 404 : 500)
          .set("Cache-Control", "no-store")
          .type("text/plain")
          .send(error.status === 404 ? "Not found" : "Could not read the file");
      })
      .pipe(res);
  };
}
