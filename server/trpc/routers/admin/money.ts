import { z } from "zod";
import { moneyView, recentLedger } from "../../../payments/money.server";
import { refundPayment } from "../../../payments/refunds.server";
import { adminProcedure, createTRPCRouter } from "../../trpc";
import { id } from "./inputs";

/** Money received by month (the studio's time zone), its parts, twelve months, and the pipeline. */
export const moneyRouter = createTRPCRouter({
  view: adminProcedure
    .input(
      z
        .object({
          month: z
            .string()
            .regex(/^\d{4}-\d{2}$/)
            .optional(),
        })
        .optional(),
    )
    .query(({ ctx, input }) => moneyView(ctx.db, ctx.env.STUDIO_TIMEZONE, input?.month)),
  recent: adminProcedure.query(({ ctx }) => recentLedger(ctx.db)),
  /** Refunds a card payment of the ledger, in full (no amount) or in part, through Stripe. */
  refund: adminProcedure
    .input(z.object({ paymentId: id, amount: z.string().max(32).optional() }))
    .mutation(({ ctx, input }) => refundPayment(ctx.db, ctx.env, input.paymentId, input.amount)),
});
