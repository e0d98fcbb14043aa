// The one adapter from the domain's refusals (server/errors.ts) to the web's answers: HTTP
// statuses and headers for routes that answer themselves, tRPC codes for every procedure
// (server/trpc/trpc.ts's middleware). Services never build either.
import type { TRPCError } from "@trpc/server";
import type { DomainError, DomainErrorKind, TooManyRequests } from "../errors";

const HTTP_STATUS: Record<DomainErrorKind, number> = {
  "not-found": 404,
  forbidden: 403,
  conflict: 409,
  invalid: 400,
  unavailable: 412,
  "rate-limited": 429,
  refused: 422,
  failed: 500,
};

export function httpStatusOf(error: DomainError): number {
  return HTTP_STATUS[error.kind];
}

/** A rate-limited client is told when it may try again. */
export function retryAfterHeaders(error: TooManyRequests): Record<string, string> {
  return { "Retry-After": String(error.retryAfterSeconds) };
}

const TRPC_CODE: Record<DomainErrorKind, TRPCError["code"]> = {
  "not-found": "NOT_FOUND",
  forbidden: "FORBIDDEN",
  conflict: "CONFLICT",
  invalid: "BAD_REQUEST",
  unavailable: "PRECONDITION_FAILED",
  "rate-limited": "TOO_MANY_REQUESTS",
  refused: "UNPROCESSABLE_CONTENT",
  failed: "INTERNAL_SERVER_ERROR",
};

/** The one adapter from the domain's refusals to tRPC's codes, for every procedure. */
export function trpcCodeOf(error: DomainError): TRPCError["code"] {
  return TRPC_CODE[error.kind];
}
