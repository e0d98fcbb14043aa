import { z } from "zod";
import { templateFormSchema } from "#domain/template-form";
import { TEMPLATE_FILE_BUCKETS } from "#domain/template-files";
import {
  adminTemplates,
  createTemplate,
  deleteTemplate,
  removeSampleTemplates,
  setFeatured,
  updateTemplate,
} from "../../../admin/templates.server";
import { deleteTemplateFile } from "../../../admin/template-files.server";
import { DomainError } from "../../../errors";
import { adminProcedure, createTRPCRouter } from "../../trpc";
import { id, notFound, storedPath } from "./inputs";

export const templatesRouter = createTRPCRouter({
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
});
