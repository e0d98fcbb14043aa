import type { CalendarSettings } from "#domain/calendar-settings";
import { claimableSlot, SlotUnavailable } from "../calendar/calls.server";
import type { DB } from "../db/db.server";
import { nowIso } from "../db/json";
import { queueMail, type Mail, type QueuedMail } from "../email/mailer.server";
import { CALL_COLUMNS, callOfRow, type Call } from "./call.server";
import { planReminders } from "./meeting.server";

/**
 * A built-in call moved or cancelled (issue 43.7), by the client on `/call/<token>` or by the
 * owner in the console. A client may change it until the owner's cut-off (Settings → Calendar,
 * default 24 hours before it); the owner at any time before it starts. A move claims its new time
 * as a booking does (the slots again in the write transaction, the unique index behind them), with
 * the call's own time left out of what blocks it; the .ics SEQUENCE grows, reminders are planned
 * again, and both sides are written to in the same transaction.
 */

export type ChangeBy = "client" | "owner";

/** Why a call cannot be changed now. */
export class CallLocked extends Error {
  constructor(
    readonly reason: "cutoff" | "started" | "cancelled" | "not-builtin",
    message: string,
  ) {
    super(message);
    this.name = "CallLocked";
  }
}

/** Whether `by` may still change `call` at `now`, or the reason it may not (its message for the page). */
export function changeProblem(
  call: Call,
  calendar: CalendarSettings,
  by: ChangeBy,
  now: number,
  studioEmail: string,
): CallLocked | null {
  if (call.provider !== "builtin")
    return new CallLocked("not-builtin", "This call was booked in another calendar: change it from its own email.");
  if (call.status !== "scheduled") return new CallLocked("cancelled", "This call was cancelled.");
  const start = Date.parse(call.startAt);
  if (start <= now) return new CallLocked("started", "This call has already taken place.");
  if (by === "client" && start - now < calendar.cutoffHours * 3_600_000)
    return new CallLocked(
      "cutoff",
      `It is less than ${calendar.cutoffHours} hours before the call, so it can no longer be changed here: please write to ${studioEmail}.`,
    );
  return null;
}

async function readCall(db: DB, bookingId: string): Promise<Call | null> {
  const row = await db.selectFrom("bookings").select(CALL_COLUMNS).where("id", "=", bookingId).executeTakeFirst();
  return row ? callOfRow(row) : null;
}

export type ChangeResult = { call: Call; queued: QueuedMail[] };

/** The booking's call when `by` may change it now (read in the change's transaction), else CallLocked. */
async function changeableCall(
  db: DB,
  bookingId: string,
  opts: { calendar: CalendarSettings; by: ChangeBy; studioEmail: string },
  now: Date,
): Promise<Call> {
  const call = await readCall(db, bookingId);
  if (!call) throw new CallLocked("cancelled", "This call is not there any more.");
  const problem = changeProblem(call, opts.calendar, opts.by, now.getTime(), opts.studioEmail);
  if (problem) throw problem;
  return call;
}

/**
 * Moves the call to the free time starting at `start` (epoch ms), seen in `timeZone`. Throws
 * CallLocked or SlotUnavailable; `mails` are the messages of the moved call, queued with it.
 */
export async function moveCall(
  db: DB,
  bookingId: string,
  opts: {
    start: number;
    timeZone: string;
    calendar: CalendarSettings;
    by: ChangeBy;
    studioEmail: string;
    mails: (call: Call, before: Call) => Mail[];
    now?: Date;
  },
): Promise<ChangeResult> {
  const now = opts.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const before = await changeableCall(trx, bookingId, opts, now);
    if (Date.parse(before.startAt) === opts.start) throw new SlotUnavailable("unavailable");
    const slot = await claimableSlot(trx, opts.calendar.availability, opts.start, now.getTime(), { except: bookingId });
    await trx
      .updateTable("bookings")
      .set({
        meeting_start_at: new Date(slot.start).toISOString(),
        meeting_end_at: new Date(slot.end).toISOString(),
        invitee_timezone: opts.timeZone,
        meeting_sequence: before.sequence + 1,
        meeting_updated_at: nowIso(now),
        updated_at: nowIso(now),
      })
      .where("id", "=", bookingId)
      .execute()
      .catch((error: unknown) => {
        if (String((error as { code?: unknown }).code).startsWith("SQLITE_CONSTRAINT_UNIQUE"))
          throw new SlotUnavailable("taken");
        throw error;
      });
    await planReminders(trx, bookingId, now, "The call moved: a new reminder replaces this one.");
    const call = (await readCall(trx, bookingId))!;
    const queued = await queueMail(trx, opts.mails(call, before), now);
    return { call, queued };
  });
}

/** Cancels the call; its reminders are cancelled and `mails` (with METHOD:CANCEL) queued. */
export async function cancelCall(
  db: DB,
  bookingId: string,
  opts: {
    calendar: CalendarSettings;
    by: ChangeBy;
    studioEmail: string;
    mails: (call: Call) => Mail[];
    now?: Date;
  },
): Promise<ChangeResult> {
  const now = opts.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const before = await changeableCall(trx, bookingId, opts, now);
    await trx
      .updateTable("bookings")
      .set({
        meeting_status: "cancelled",
        meeting_sequence: before.sequence + 1,
        meeting_updated_at: nowIso(now),
        updated_at: nowIso(now),
      })
      .where("id", "=", bookingId)
      .execute();
    await planReminders(trx, bookingId, now, "The call was cancelled.");
    const call = (await readCall(trx, bookingId))!;
    const queued = await queueMail(trx, opts.mails(call), now);
    return { call, queued };
  });
}
