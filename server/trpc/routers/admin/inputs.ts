import { z } from "zod";
import { BOOKING_STATUSES } from "#domain/booking-status";
import { DomainError } from "../../../errors";

/** What the console's procedures read alike: ids, stored paths, statuses, a list page and its search. */
export const id = z.string().trim().min(1).max(64);
export const storedPath = z.string().min(1).max(500);
export const statuses = z.enum(BOOKING_STATUSES);
/** A page of a console list and its search (`q`): the console keeps both in the URL. */
export const listInput = z.object({
  page: z.number().int().min(1).max(100_000).optional(),
  q: z.string().max(200).optional(),
});

export function notFound(what: string): never {
  throw new DomainError("not-found", `${what} not found`);
}
