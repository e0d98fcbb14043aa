// The two classes server/rate-limit.server.ts uses, from their own files: the package's index loads
// every store it has (Redis, Mongo, Postgres, the cluster's, which loads node:cluster), some 1.5 ms
// of a cold start for a server that uses the memory store alone (issue 42.4).
declare module "rate-limiter-flexible/lib/RateLimiterMemory.js" {
  import { RateLimiterMemory } from "rate-limiter-flexible";
  export = RateLimiterMemory;
}
declare module "rate-limiter-flexible/lib/RateLimiterRes.js" {
  import { RateLimiterRes } from "rate-limiter-flexible";
  export = RateLimiterRes;
}
