import { z } from "zod";
import {
  adminBooking,
  adminBookings,
  bookingFileLink,
  deleteBooking,
  setBookingStatus,
  upcomingCalls,
} from "../../../admin/bookings.server";
import { callTimes, ownerCancelCall, ownerMoveCall } from "../../../admin/calls.server";
import { adminProcedure, createTRPCRouter } from "../../trpc";
import { bookingPaymentProcedures } from "./payments";
import { id, listInput, notFound, statuses, storedPath } from "./inputs";

export const bookingsRouter = createTRPCRouter({
  list: adminProcedure
    .input(listInput.extend({ status: statuses.optional() }).optional())
    .query(({ ctx, input }) => adminBookings(ctx.db, ctx.env, input)),
  /** The next five scheduled calls, soonest first. */
  upcoming: adminProcedure.query(({ ctx }) => upcomingCalls(ctx.db, ctx.env)),
  /** One booking, for its details opened by link (it may not be on the page shown). */
  get: adminProcedure
    .input(z.object({ id }))
    .query(async ({ ctx, input }) => (await adminBooking(ctx.db, ctx.env, input.id)) ?? notFound("Booking")),
  setStatus: adminProcedure.input(z.object({ id, status: statuses })).mutation(async ({ ctx, input }) => {
    if (!(await setBookingStatus(ctx.db, input.id, input.status))) notFound("Booking");
    return { ok: true };
  }),
  // A built-in call moved or cancelled by the owner (issue 43.7): the times to move it to, the move, the cancel.
  callTimes: adminProcedure.input(z.object({ id })).query(({ ctx, input }) => callTimes(ctx.db, input.id)),
  moveCall: adminProcedure
    .input(z.object({ id, startAt: z.string().datetime() }))
    .mutation(({ ctx, input }) => ownerMoveCall(ctx.db, ctx.env, input.id, input.startAt)),
  cancelCall: adminProcedure
    .input(z.object({ id }))
    .mutation(({ ctx, input }) => ownerCancelCall(ctx.db, ctx.env, input.id)),
  // The booking's money: its payment plan, payments by hand, requests and reminders (payments.ts).
  ...bookingPaymentProcedures,
  delete: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    if (!(await deleteBooking(ctx.db, ctx.env.DATA_DIR, input.id))) notFound("Booking");
    return { ok: true };
  }),
  /** A fresh signed link per click: View (images, inline) or Download. */
  fileLink: adminProcedure
    .input(z.object({ id, path: storedPath, purpose: z.enum(["view", "download"]) }))
    .query(
      async ({ ctx, input }) =>
        (await bookingFileLink(
          ctx.db,
          ctx.env.DATA_DIR,
          ctx.env.SESSION_SECRET,
          input.id,
          input.path,
          input.purpose,
        )) ?? notFound("File"),
    ),
});
