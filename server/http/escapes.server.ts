import type { Logger } from "pino";
import { log } from "../log.server";
import { escapedFrom } from "./disk-full.server";

/**
 * What happens to an exception or a rejected promise that nothing caught (issue 40.1). Raised
 * while a request was handled (the request scope of server/http/disk-full.server.ts), it is that
 * request's fault: one JSON line with the request's id, the request dropped, and the server goes
 * on serving everyone else. Raised outside any request, the state of the process is unknown: one
 * fatal line, then exit 1 (systemd starts it again).
 *
 * The streams and emitters of a request handle their errors where they are made
 * (server/storage/multipart.server.ts); this is the last line, not the way errors are handled.
 */
export function keepServingThroughRequestFaults(logger: Logger = log, exit: (code: number) => void = process.exit) {
  const escaped = (error: unknown, what: string) => {
    const from = escapedFrom();
    if (from) {
      logger.error(
        { err: error, reqId: from.reqId },
        `[server] ${what} escaped while request ${from.reqId} was handled; that request is dropped and the server goes on`,
      );
      from.drop();
      return;
    }
    logger.fatal({ err: error }, `[server] ${what} escaped outside any request; stopping`);
    exit(1);
  };
  process.on("uncaughtException", (error) => escaped(error, "an exception"));
  process.on("unhandledRejection", (reason) => escaped(reason, "a rejected promise"));
}
