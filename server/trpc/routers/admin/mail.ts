import { z } from "zod";
import { mailOverview, retryMail, sendTestMail } from "../../../email/mail-console.server";
import { getStudio } from "../../../studio/studio.server";
import { adminProcedure, createTRPCRouter } from "../../trpc";

/** Mail: the provider and sender, whether mail is off, the messages that gave up; a test email; Retry. */
export const mailRouter = createTRPCRouter({
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
});
