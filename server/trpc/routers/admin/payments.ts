import { z } from "zod";
import { MAX_AMOUNT_CENTS } from "#domain/money";
import { addStage, paymentPlan, removeStage, updateStage } from "../../../payments/plan.server";
import { recordPayment } from "../../../payments/ledger.server";
import { requestStagePayment, sendStageReminder } from "../../../payments/requests.server";
import { adminProcedure } from "../../trpc";
import { id, notFound } from "./inputs";

/** The booking's money in the console (server/payments): its plan, payments by hand, requests and reminders. */
export const bookingPaymentProcedures = {
  /** Money that came by transfer, cash or other means, toward a stage (the first unpaid one unless named). */
  recordPayment: adminProcedure
    .input(
      z.object({
        id,
        /** Dollars as typed ("1,700.50"), or cents as a number. */
        amount: z.union([z.number().int().min(1).max(MAX_AMOUNT_CENTS), z.string().max(32)]),
        method: z.enum(["bank", "cash", "card", "other"]).optional(),
        note: z.string().trim().max(500).optional(),
        stageId: id.optional(),
      }),
    )
    .mutation(({ ctx, input }) => recordPayment(ctx.db, input.id, input)),
  /** The booking's payment plan: its stages, what was paid on each, and whether they add up. */
  plan: adminProcedure.input(z.object({ id })).query(async ({ ctx, input }) => {
    const plan = (await paymentPlan(ctx.db, input.id, ctx.env.STUDIO_TIMEZONE)) ?? notFound("Booking");
    // Whether "Request payment" can work here (Stripe's keys set); the console explains it when not.
    return { ...plan, cardPayments: Boolean(ctx.env.STRIPE_SECRET_KEY) };
  }),
  updateStage: adminProcedure
    .input(
      z.object({
        id,
        stageId: id,
        label: z.string().max(200).optional(),
        amount: z.string().max(32).optional(),
        percent: z.string().max(16).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      await updateStage(ctx.db, input.id, input.stageId, input);
      return { ok: true };
    }),
  addStage: adminProcedure
    .input(z.object({ id, label: z.string().max(200), amount: z.string().max(32).optional() }))
    .mutation(async ({ ctx, input }) => ({ stageId: await addStage(ctx.db, input.id, input) })),
  removeStage: adminProcedure.input(z.object({ id, stageId: id })).mutation(async ({ ctx, input }) => {
    await removeStage(ctx.db, input.id, input.stageId);
    return { ok: true };
  }),
  /** Creates the stage's Stripe Checkout Session and emails the client its /pay link (once). */
  requestPayment: adminProcedure
    .input(z.object({ id, stageId: id }))
    .mutation(({ ctx, input }) => requestStagePayment(ctx.db, ctx.env, input.id, input.stageId)),
  sendReminder: adminProcedure
    .input(z.object({ id, stageId: id }))
    .mutation(({ ctx, input }) => sendStageReminder(ctx.db, ctx.env, input.id, input.stageId)),
};
