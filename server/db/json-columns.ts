import { z } from "zod";

/**
 * The shapes of the JSON columns that are not plain string lists (read with `fromJson` /
 * `listFromJson` of server/db/json.ts). The booking form's own shapes (the draft's state, uploaded
 * files) live with the form in app/lib/booking-state.ts.
 */

/** bookings.payment_history: one entry per payment recorded in the console. */
export const paymentEntrySchema = z.object({ amount: z.number().int(), date: z.string(), note: z.string().optional() });
export type PaymentEntry = z.infer<typeof paymentEntrySchema>;

/**
 * bookings.addons: the add-ons chosen, with their quantities, and (since issue 29) the name and
 * unit price (cents) they had when the booking was made.
 */
export const bookingAddonSchema = z.object({
  id: z.string(),
  quantity: z.number().int().positive(),
  name: z.string().optional(),
  price: z.number().int().nonnegative().optional(),
});

/** bookings.uploaded_files: each uploaded file's name and size (the paths are in uploaded_file_urls). */
export const bookingFileSchema = z.object({ name: z.string(), size: z.number().nonnegative() });
export type BookingFile = z.infer<typeof bookingFileSchema>;

/**
 * email_outbox.attachments: files sent with a message (the call's .ics, a signed PDF);
 * `encoding` "base64": a binary file; absent: text.
 */
export const mailAttachmentSchema = z.object({
  filename: z.string(),
  contentType: z.string(),
  content: z.string(),
  encoding: z.literal("base64").optional(),
});

/** sessions.data: who is signed in, and where sign-in returns to; other keys as remix-auth keeps them. */
export const sessionDataSchema = z
  .object({ userId: z.string().optional(), authRedirect: z.string().optional() })
  .catchall(z.unknown());

const link = z.string().nullable();

/** calendly_webhook_events.meeting: a call as a webhook told it, kept for the booking it belongs to. */
export const storedMeetingSchema = z.object({
  status: z.enum(["scheduled", "cancelled", "rescheduled"]),
  startAt: z.string(),
  endAt: z.string(),
  timezone: z.string(),
  joinUrl: link,
  cancelUrl: link,
  rescheduleUrl: link,
  eventUri: z.string(),
  inviteeUri: z.string(),
  email: z.string(),
  newInviteeUri: z.string().nullable(),
});

// ---------- Proposals and invoices (issue 44) ----------

const cents = z.number().int();
const party = z.object({ name: z.string(), company: z.string(), email: z.string(), address: z.string() });

/** invoices.studio: the studio's names and address when the invoice was issued. */
export const invoiceStudioSchema = z.object({
  name: z.string(),
  legalName: z.string(),
  address: z.string(),
  taxId: z.string(),
  email: z.string(),
});
/** invoices.client */
export const invoicePartySchema = party;
/** invoices.items, proposals' items: `{label, amount}` in cents. */
export const lineItemSchema = z.object({ label: z.string(), amount: cents });
/** invoices.tax */
export const invoiceTaxSchema = z.object({
  label: z.string(),
  rate: z.number(),
  mode: z.enum(["inclusive", "exclusive"]),
  amount: cents,
});
/** proposals.content: what the proposal says, frozen once sent. */
export const proposalContentSchema = z.object({
  title: z.string(),
  client: party,
  summary: z.object({ goal: z.string(), audience: z.string(), features: z.string(), startDate: z.string() }),
  scope: z.string(),
  items: z.array(lineItemSchema),
  discount: lineItemSchema.nullable(),
  stages: z.array(z.object({ label: z.string(), amount: cents, due: z.string() })),
  terms: z.string(),
});
