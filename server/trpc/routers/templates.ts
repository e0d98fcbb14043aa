import { z } from "zod";
import { CATEGORIES } from "#domain/categories";
import { featuredTemplates, listTemplates, relatedTemplates, templateBySlug } from "../../shop/templates.server";
import { ownedTemplateIds } from "../../shop/purchases.server";
import { DomainError } from "../../errors";
import { createTRPCRouter, publicProcedure } from "../trpc";

const slug = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9-]+$/);

export const templatesRouter = createTRPCRouter({
  /** All templates newest first, each with `owned` for the signed-in user. */
  list: publicProcedure.query(async ({ ctx }) => {
    const [templates, owned] = await Promise.all([
      listTemplates(ctx.db),
      ctx.user ? ownedTemplateIds(ctx.db, ctx.user.id) : Promise.resolve(new Set<string>()),
    ]);
    return templates.map((t) => ({ ...t, owned: owned.has(t.id) }));
  }),
  bySlug: publicProcedure.input(z.object({ slug })).query(async ({ ctx, input }) => {
    const t = await templateBySlug(ctx.db, input.slug);
    if (!t) throw new DomainError("not-found", "Template not found");
    return t;
  }),
  featured: publicProcedure.query(({ ctx }) => featuredTemplates(ctx.db, 4)),
  related: publicProcedure
    .input(z.object({ templateId: z.string().min(1).max(64), category: z.enum(CATEGORIES) }))
    .query(({ ctx, input }) => relatedTemplates(ctx.db, input.templateId, input.category, 3)),
});
