/**
 * What a service refuses, in the domain's words (issue 20.4): services throw a DomainError and
 * never an HTTP or tRPC error; one adapter maps the kind to the answer (`trpcCodeOf` in
 * server/trpc/trpc.ts for every procedure, `httpStatusOf` for routes that answer themselves).
 */
export type DomainErrorKind =
  "not-found" | "forbidden" | "conflict" | "invalid" | "unavailable" | "rate-limited" | "failed";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DomainError";
  }
}

/** Too many attempts from one client: the one rate-limit error, with the seconds until it may try again. */
export class TooManyRequests extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("rate-limited", message);
    this.name = "TooManyRequests";
  }
}

const HTTP_STATUS: Record<DomainErrorKind, number> = {
  "not-found": 404,
  forbidden: 403,
  conflict: 409,
  invalid: 400,
  unavailable: 412,
  "rate-limited": 429,
  failed: 500,
};

export function httpStatusOf(error: DomainError): number {
  return HTTP_STATUS[error.kind];
}
