import { z } from "zod";
import { trimmed } from "./form-text";
import { parseStep } from "./booking-schema";

/**
 * The first-run setup form (`/setup?token=…`, issue 29): one zod schema read by conform on both
 * sides (`useForm` in the browser, `parseWithZod` in the action), with plain field names only
 * (form-entries.ts), as the booking steps are read on the server.
 */
export const STUDIO_NAME_MAX = 80;

export const setupSchema = z.object({
  token: z.preprocess(trimmed, z.string().min(1, "This setup link is incomplete").max(200)),
  studioName: z.preprocess(
    trimmed,
    z
      .string()
      .min(1, "Studio name is required")
      .max(STUDIO_NAME_MAX, `Please keep the studio name under ${STUDIO_NAME_MAX} characters`),
  ),
  email: z.preprocess(
    trimmed,
    z.string().min(1, "Please enter a valid email").max(254).email("Please enter a valid email"),
  ),
});

export type SetupForm = z.infer<typeof setupSchema>;

/** The posted setup form through conform (plain field names only, as every form of the house). */
export function parseSetup(form: FormData, opts: { intents?: boolean } = {}) {
  return parseStep(form, setupSchema, opts);
}
