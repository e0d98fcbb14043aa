import { z } from "zod";
import { adminPurchases } from "../../../admin/purchases.server";
import { revokeAccess } from "../../../shop/purchases.server";
import { sendReceipt } from "../../../shop/receipt.server";
import { adminProcedure, createTRPCRouter } from "../../trpc";
import { id, listInput } from "./inputs";

export const purchasesRouter = createTRPCRouter({
  list: adminProcedure.input(listInput.optional()).query(({ ctx, input }) => adminPurchases(ctx.db, input)),
  /** Emails the buyer the receipt again: the license key and a download link signed now. */
  resendReceipt: adminProcedure
    .input(z.object({ id }))
    .mutation(({ ctx, input }) => sendReceipt(ctx.db, ctx.env, input.id)),
  /** Takes the buyer's access away: downloads are refused from now on, links already sent included. */
  revoke: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await revokeAccess(ctx.db, input.id);
    return { ok: true };
  }),
});
