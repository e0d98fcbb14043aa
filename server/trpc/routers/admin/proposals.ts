import { z } from "zod";
import { countersignProposal } from "../../../contracts/countersign.server";
import { bookingProposals } from "../../../contracts/console.server";
import {
  createProposal,
  extendProposal,
  reviseProposal,
  sendProposal,
  updateProposal,
} from "../../../contracts/proposals.server";
import { requestFacts } from "../../../contracts/trail.server";
import { adminInvoices } from "../../../payments/invoices.server";
import { adminProcedure, createTRPCRouter } from "../../trpc";
import { id } from "./inputs";

/**
 * Proposals and invoices in the console (issue 44): a booking's proposals with their trails, and
 * the owner's steps: create, edit (the form's fields as typed, read again by the form's schema on
 * the server), send, extend, revise, countersign; the studio's invoices.
 */
export const proposalsRouter = createTRPCRouter({
  forBooking: adminProcedure
    .input(z.object({ bookingId: id }))
    .query(({ ctx, input }) => bookingProposals(ctx.db, ctx.env, input.bookingId)),
  create: adminProcedure.input(z.object({ bookingId: id })).mutation(async ({ ctx, input }) => ({
    id: await createProposal(ctx.db, ctx.env, input.bookingId, ctx.user.email),
  })),
  update: adminProcedure
    .input(z.object({ id, fields: z.record(z.string().max(64), z.string().max(40_000)) }))
    .mutation(async ({ ctx, input }) => {
      await updateProposal(ctx.db, ctx.env, input.id, input.fields);
      return { ok: true };
    }),
  send: adminProcedure
    .input(z.object({ id }))
    .mutation(({ ctx, input }) => sendProposal(ctx.db, ctx.env, input.id, ctx.user.email)),
  extend: adminProcedure.input(z.object({ id, expiresOn: z.string().max(10) })).mutation(async ({ ctx, input }) => {
    await extendProposal(ctx.db, ctx.env, input.id, input.expiresOn, ctx.user.email);
    return { ok: true };
  }),
  revise: adminProcedure
    .input(z.object({ id }))
    .mutation(async ({ ctx, input }) => ({ id: await reviseProposal(ctx.db, ctx.env, input.id, ctx.user.email) })),
  countersign: adminProcedure.input(z.object({ id, name: z.string().max(200) })).mutation(async ({ ctx, input }) => {
    const who = ctx.request ? requestFacts(ctx.request, ctx.ip) : { ip: ctx.ip ?? null, userAgent: null };
    await countersignProposal(ctx.db, ctx.env, input.id, input.name, { email: ctx.user.email, ...who });
    return { ok: true };
  }),
  invoices: adminProcedure.query(({ ctx }) => adminInvoices(ctx.db)),
});
