import { z } from "zod";
import { createCheckout } from "../../shop/checkout.server";
import { createDownload } from "../../shop/downloads.server";
import { myPurchases } from "../../shop/purchases.server";
import { rateLimit } from "../../rate-limit.server";
import { createTRPCRouter, protectedProcedure } from "../trpc";

const templateInput = z.object({ templateId: z.string().trim().min(1).max(64) });

export const purchasesRouter = createTRPCRouter({
  mine: protectedProcedure.query(({ ctx }) => myPurchases(ctx.db, ctx.user.id)),
});

export const checkoutRouter = createTRPCRouter({
  create: protectedProcedure.input(templateInput).mutation(async ({ ctx, input }) => {
    // The edge counts the attempt (issue 41.3): the shop's service takes plain values.
    await rateLimit("checkout", ctx.user.id);
    return createCheckout(ctx.db, ctx.env, ctx.user, input.templateId);
  }),
});

export const downloadsRouter = createTRPCRouter({
  create: protectedProcedure
    .input(templateInput)
    .mutation(({ ctx, input }) => createDownload(ctx.db, ctx.env, ctx.user.id, input.templateId)),
});
