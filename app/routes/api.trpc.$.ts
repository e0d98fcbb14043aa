import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getSessionUser } from "../../server/http/session.server";
import { db } from "../../server/db.server";
import { noteServerError } from "../../server/http/disk-full.server";
import { LIMITS, rateLimit, TooManyRequests } from "../../server/rate-limit.server";
import { appRouter } from "../../server/trpc/root";
import { createContextInner } from "../../server/trpc/trpc";

/** A tRPC-shaped error answer, for refusals before tRPC runs. */
function refusal(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return Response.json(
    { error: { message, code: -32000, data: { code, httpStatus: status } } },
    { status, headers: { "Cache-Control": "no-store", ...headers } },
  );
}

async function handle(request: Request, clientKey: string) {
  if (request.method === "POST") {
    const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
    if (!type.startsWith("application/json"))
      return refusal(415, "UNSUPPORTED_MEDIA_TYPE", "tRPC mutations accept only JSON");
    // Every mutation in a batch counts.
    const procedures = new URL(request.url).pathname.replace(/^\/api\/trpc\/?/, "").split(",").length;
    try {
      await rateLimit("trpc-mutation", clientKey, Math.min(procedures, LIMITS["trpc-mutation"].max + 1));
    } catch (error) {
      if (!(error instanceof TooManyRequests)) throw error;
      return refusal(429, "TOO_MANY_REQUESTS", error.message, { "Retry-After": String(error.retryAfterSeconds) });
    }
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: async () =>
      createContextInner({ db: db(), user: await getSessionUser(request), request, ip: clientKey || null }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") noteServerError(error.cause ?? error, `[trpc] ${path}`);
    },
    responseMeta({ errors }) {
      const headers = new Headers({ "Cache-Control": "no-store" });
      const limited = errors.find((e) => e.cause instanceof TooManyRequests)?.cause;
      if (limited instanceof TooManyRequests) headers.set("Retry-After", String(limited.retryAfterSeconds));
      return { headers };
    },
  });
}

export const loader = ({ request, context }: LoaderFunctionArgs) => handle(request, context.clientIp ?? "");
export const action = ({ request, context }: ActionFunctionArgs) => handle(request, context.clientIp ?? "");
