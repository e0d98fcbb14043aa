/**
 * tRPC, laid out the create-t3-app way: context, initialisation, procedures.
 */
import { refusalFor } from "../auth/guards.server";
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { SessionUser } from "../auth/auth.server";
import type { DB } from "../db/db.server";
import { env as readEnv, type Env } from "../env.server";
import { trpcCodeOf } from "../http/domain-errors";
import { DomainError } from "../errors";
import { STORAGE_FULL_MESSAGE } from "../http/disk-full.server";
import { isDiskFull } from "../storage/storage.server";

// 1. Context
/** `ip`: the client's address as the edge read it (behind a trusted proxy, the forwarded one). */
export type Context = { db: DB; env: Env; user: SessionUser | null; request?: Request; ip?: string | null };

/**
 * The context without HTTP, for tests and server-side callers. Procedures hand services the db and
 * the settings (`env`, read here at the edge unless given), as services never read them themselves.
 */
export function createContextInner(opts: {
  db: DB;
  env?: Env;
  user: SessionUser | null;
  request?: Request;
  ip?: string | null;
}): Context {
  return { db: opts.db, env: opts.env ?? readEnv(), user: opts.user, request: opts.request, ip: opts.ip ?? null };
}

// 2. Initialisation
const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    return {
      ...shape,
      // A full disk is told in words, never as the system's ENOSPC text.
      message: isDiskFull(error.cause) ? STORAGE_FULL_MESSAGE : shape.message,
      data: {
        ...shape.data,
        zodError: error.cause instanceof ZodError ? error.cause.flatten() : null,
      },
    };
  },
});

// 3. Procedures
export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;

const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: trpcCodeOf(cause), message: cause.message, cause });
  }
  return result;
});

export const publicProcedure = t.procedure.use(domainErrors);

/** Signed-in users only (UNAUTHORIZED otherwise). */
export const protectedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Please sign in first." });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** Admins only (the one guard's rule): UNAUTHORIZED for anonymous callers, FORBIDDEN for signed-in non-admins. */
export const adminProcedure = protectedProcedure.use(({ ctx, next }) => {
  if (refusalFor(ctx.user, "admin")) throw new TRPCError({ code: "FORBIDDEN", message: "Admin access required" });
  return next({ ctx });
});
