/**
 * What a service refuses, in the domain's words (issue 20.4): services throw a DomainError and
 * never an HTTP or tRPC error; one adapter, server/http/domain-errors.ts, maps the kind to the
 * answer (`trpcCodeOf` for every procedure, `httpStatusOf` and `retryAfterHeaders` for routes that
 * answer themselves).
 */
export type DomainErrorKind =
  | "not-found"
  | "forbidden"
  | "conflict"
  | "invalid"
  | "unavailable"
  | "rate-limited"
  /** A service we call (Stripe) looked at the request and refused it, with its reason: a 4xx. */
  | "refused"
  | "failed";

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
