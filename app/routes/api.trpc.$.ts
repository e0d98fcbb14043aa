import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getSessionUser } from "../../server/auth/auth.server";
import { db } from "../../server/db.server";
import { appRouter } from "../../server/trpc/root";
import { createContextInner } from "../../server/trpc/trpc";

async function handle(request: Request) {
  if (request.method === "POST") {
    const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
    if (!type.startsWith("application/json")) {
      return Response.json({ error: { message: "tRPC mutations accept only JSON" } }, { status: 415 });
    }
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: async () => createContextInner({ db: db(), user: await getSessionUser(request), request }),
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path}`, error);
    },
    responseMeta() {
      return { headers: new Headers({ "Cache-Control": "no-store" }) };
    },
  });
}

export const loader = ({ request }: LoaderFunctionArgs) => handle(request);
export const action = ({ request }: ActionFunctionArgs) => handle(request);
