import { z } from "zod";
import { BOOKING_STATUSES } from "#domain/booking-status";
import { MAX_AMOUNT_CENTS } from "#domain/money";
import { templateFormSchema } from "#domain/template-form";
import { TEMPLATE_FILE_BUCKETS } from "#domain/template-files";
import {
  adminBooking,
  adminBookings,
  adminPurchases,
  adminStats,
  adminTemplates,
  bookingFileLink,
  createTemplate,
  deleteBooking,
  deleteTemplate,
  removeSampleTemplates,
  setBookingStatus,
  setFeatured,
  updateTemplate,
  upcomingCalls,
} from "../../admin/admin.server";
import { deleteTemplateFile } from "../../admin/template-files.server";
import { moneyView, recentLedger } from "../../payments/money.server";
import { backupNow, backupStatus, listBackups, offsiteBackups } from "../../admin/backups.server";
import { offsiteFrom } from "../../db/offsite.server";
import { BackupError, defaultBackupDir, NothingToBackUp } from "../../db/backup.server";
import { currentSchedule, rescheduleBackups } from "../../db/backup-schedule.server";
import { refundPayment } from "../../payments/refunds.server";
import { addStage, paymentPlan, removeStage, updateStage } from "../../payments/plan.server";
import { recordPayment } from "../../payments/ledger.server";
import { requestStagePayment, sendStageReminder } from "../../payments/requests.server";
import { revokeAccess } from "../../shop/purchases.server";
import { sendReceipt } from "../../shop/receipt.server";
import { DomainError } from "../../errors";
import { mailOverview, retryMail, sendTestMail } from "../../email/mail-console.server";
import { getStudio } from "../../studio/studio.server";
import { adminProcedure, createTRPCRouter } from "../trpc";

const id = z.string().trim().min(1).max(64);
const storedPath = z.string().min(1).max(500);
const statuses = z.enum(BOOKING_STATUSES);
/** A page of a console list and its search (`q`): the console keeps both in the URL. */
const listInput = z.object({
  page: z.number().int().min(1).max(100_000).optional(),
  q: z.string().max(200).optional(),
});

function notFound(what: string): never {
  throw new DomainError("not-found", `${what} not found`);
}

export const adminRouter = createTRPCRouter({
  stats: adminProcedure.query(({ ctx }) => adminStats(ctx.db)),
  /** Backups on this machine, the schedule, the last success and an unresolved failure; "Back up now". */
  backups: createTRPCRouter({
    list: adminProcedure.query(async ({ ctx }) => ({
      ...(await backupStatus(ctx.db, currentSchedule())),
      backups: listBackups(defaultBackupDir(ctx.env.DATA_DIR, ctx.env.BACKUP_DIR)),
      offsite: await offsiteBackups(offsiteFrom(ctx.env)),
    })),
    /** The schedule changed in the console: saved, and the running one replaced. */
    schedule: adminProcedure
      .input(z.object({ cron: z.string().max(100), keep: z.number().int() }))
      .mutation(async ({ ctx, input }) => {
        const r = await rescheduleBackups(ctx.db, input);
        return { next: r.next?.toISOString() ?? null };
      }),
    now: adminProcedure.mutation(async ({ ctx }) => {
      try {
        return await backupNow(
          ctx.db,
          ctx.env.DATA_DIR,
          defaultBackupDir(ctx.env.DATA_DIR, ctx.env.BACKUP_DIR),
          ctx.env.BACKUP_KEEP,
        );
      } catch (error) {
        if (error instanceof NothingToBackUp) throw new DomainError("not-found", error.message);
        if (error instanceof BackupError) throw new DomainError("failed", error.message);
        throw error;
      }
    }),
  }),
  /** Mail: the provider and sender, whether mail is off, the messages that gave up; a test email; Retry. */
  mail: createTRPCRouter({
    status: adminProcedure.query(({ ctx }) => mailOverview(ctx.db, ctx.env)),
    /** One message through the provider now, to the signed-in admin or the address typed; its answer. */
    test: adminProcedure
      .input(z.object({ to: z.string().trim().max(254).email("Please enter a valid email").optional() }).optional())
      .mutation(async ({ ctx, input }) => {
        const { identity } = await getStudio(ctx.db, { studioEmail: ctx.env.STUDIO_EMAIL });
        return sendTestMail(ctx.db, ctx.env, input?.to || ctx.user.email, identity.name);
      }),
    /** A message that gave up, queued again and delivered now; its answer. */
    retry: adminProcedure
      .input(z.object({ id: z.number().int().positive() }))
      .mutation(({ ctx, input }) => retryMail(ctx.db, ctx.env, input.id)),
  }),
  /** Money received by month (the studio's time zone), its parts, twelve months, and the pipeline. */
  money: createTRPCRouter({
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
  }),
  templates: createTRPCRouter({
    list: adminProcedure.query(({ ctx }) => adminTemplates(ctx.db)),
    create: adminProcedure.input(templateFormSchema).mutation(({ ctx, input }) => createTemplate(ctx.db, input)),
    update: adminProcedure.input(z.object({ id, data: templateFormSchema })).mutation(async ({ ctx, input }) => {
      const r = await updateTemplate(ctx.db, input.id, input.data);
      if (!r.updated) notFound("Template");
      return r;
    }),
    setFeatured: adminProcedure.input(z.object({ id, featured: z.boolean() })).mutation(async ({ ctx, input }) => {
      if (!(await setFeatured(ctx.db, input.id, input.featured))) notFound("Template");
      return { ok: true };
    }),
    delete: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
      if (!(await deleteTemplate(ctx.db, input.id))) notFound("Template");
      return { ok: true };
    }),
    /** "Remove sample templates": the sample templates nobody bought, with their files. */
    removeSamples: adminProcedure.mutation(({ ctx }) => removeSampleTemplates(ctx.db, ctx.env.DATA_DIR)),
    /** Removes a stored image or archive of the template form (and the edited template's reference to it). */
    deleteFile: adminProcedure
      .input(z.object({ bucket: z.enum(TEMPLATE_FILE_BUCKETS), path: storedPath, templateId: id.optional() }))
      .mutation(async ({ ctx, input }) => {
        const r = await deleteTemplateFile(ctx.db, ctx.env.DATA_DIR, input);
        if (r === "invalid") throw new DomainError("invalid", "Invalid file path");
        if (r === "in-use") throw new DomainError("conflict", "Another template uses this file");
        if (r === "missing") notFound("File");
        return { ok: true };
      }),
  }),
  bookings: createTRPCRouter({
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
  }),
  purchases: createTRPCRouter({
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
  }),
});
