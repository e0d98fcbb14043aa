/**
 * The schemas of the console's other forms (the template form's is `templateFormSchema`, Settings'
 * are `parseSection`'s), read by conform in the browser. Each is built from the rules the server
 * applies to the same input (`parseAmount`, `parseStageLabel`, the tRPC procedure's own checks), so
 * the browser refuses what the server would, in the same words.
 */
import { z } from "zod";
import { parseAmount, parseStageLabel } from "./payment-plan";

/** A string checked by one of the domain's parse functions: refused with its message. */
function ruled(parse: (value: string) => object) {
  return z.string().superRefine((value, ctx) => {
    const result = parse(value);
    if ("error" in result && typeof result.error === "string")
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.error });
  });
}

/** A stage of a booking's plan: its name, and its amount (left empty, the server decides). */
export const stageFormSchema = z.object({
  label: ruled(parseStageLabel),
  amount: ruled((v) => (v.trim() ? parseAmount(v) : {})),
});

/** Record payment: an amount up to what the booking has left to pay, how it was paid, toward which stage. */
export const recordPaymentSchema = (left: number) =>
  z.object({
    amount: ruled((v) => parseAmount(v, { left })),
    method: z.enum(["bank", "cash", "other"]),
    stageId: z.string().optional(),
    note: z.string().trim().max(500).optional(),
  });

/** Refund: an amount up to what is left of the payment. */
export const refundSchema = (left: number) =>
  z.object({ amount: ruled((v) => parseAmount(v, { left, leftLabel: "is left of this payment" })) });

/** Delete Booking: the word typed out. */
export const deleteBookingSchema = z.object({
  confirm: z.string().refine((v) => v === "DELETE", "Type DELETE to confirm"),
});

const email = z.string().email();

/** Send test email: to the signed-in admin when empty, else a valid address (as `admin.mail.test` checks). */
export const testMailSchema = z.object({
  to: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === "" || email.safeParse(v).success, "Please enter a valid email"),
});

/** The backup schedule: the server checks the expression and the count, and says why it refuses. */
export const backupScheduleSchema = z.object({ cron: z.string().max(100), keep: z.string() });
