import type { Availability } from "#domain/availability";
import type { DB } from "../db/db.server";
import type { Interval, Slot } from "./slots.server";
import { busyTimes } from "./sources.server";

/** The slots' arithmetic, with Temporal's polyfill, loaded at the first slot asked for, not at every start (issue 42.4). */
const slots = () => import("./slots.server");

/**
 * The built-in calendar's calls (issue 43.4, 43.5): the free slots a visitor is offered (the
 * availability, minus the owner's busy times and every call already booked, whichever calendar it
 * came from), and the check a confirm makes of its slot, inside the confirm's write transaction,
 * against the same three: of two visitors confirming one time, the second finds it taken (and the
 * unique index on a built-in call's start stops a write that slipped past).
 */

type Reader = DB;

/** Every scheduled call that has not ended by `now`: the times the studio is already on a call. */
export async function bookedCalls(db: Reader, now: number, except?: string): Promise<Interval[]> {
  let query = db
    .selectFrom("bookings")
    .select(["meeting_start_at", "meeting_end_at"])
    .where("meeting_status", "=", "scheduled")
    .where("meeting_end_at", ">", new Date(now).toISOString());
  if (except) query = query.where("id", "!=", except);
  const rows = await query.execute();
  return rows.flatMap((r) => {
    const start = Date.parse(r.meeting_start_at ?? "");
    const end = Date.parse(r.meeting_end_at ?? "");
    return Number.isFinite(start) && Number.isFinite(end) ? [{ start, end }] : [];
  });
}

/** The free slots from now to the end of the booking window, earliest first. */
export async function openSlots(
  db: Reader,
  availability: Availability,
  now: number,
  { except }: { except?: string } = {},
): Promise<Slot[]> {
  const [busy, calls] = await Promise.all([busyTimes(db), bookedCalls(db, now, except)]);
  return (await slots()).freeSlots(availability, { now, busy, calls });
}

/** Why a posted slot cannot be booked: another call has it now, or it was never one of the times offered. */
export class SlotUnavailable extends Error {
  constructor(readonly reason: "taken" | "unavailable") {
    super(
      reason === "taken"
        ? "That time was just taken, please pick another"
        : "That time is not available, please pick one of the times shown",
    );
    this.name = "SlotUnavailable";
  }
}

/**
 * The slot starting at `start` when it is free at `now` (call in the confirm's transaction);
 * otherwise SlotUnavailable: "taken" when a call booked since overlaps it, "unavailable" when it is
 * in the past, inside the notice, beyond the window, outside the hours, in a busy time, or no slot
 * start at all (a forged post). `except`: a booking whose own call does not count (the call moved).
 */
export async function claimableSlot(
  trx: Reader,
  availability: Availability,
  start: number,
  now: number,
  { except }: { except?: string } = {},
): Promise<Slot> {
  const [busy, calls] = await Promise.all([busyTimes(trx), bookedCalls(trx, now, except)]);
  const { freeSlots } = await slots();
  const slot = freeSlots(availability, { now, busy, calls }).find((s) => s.start === start);
  if (slot) return slot;
  // Free were it not for the calls booked meanwhile: taken by another visitor.
  const withoutCalls = freeSlots(availability, { now, busy, calls: [] }).some((s) => s.start === start);
  throw new SlotUnavailable(withoutCalls ? "taken" : "unavailable");
}
