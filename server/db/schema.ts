import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/** Column with a database default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** JSON list stored as TEXT; read and written through `server/db/json.ts`. */
export type JsonText = string;

import type { Category } from "#domain/categories";
import type { PackageId } from "#domain/packages";
import type { BookingStatus } from "#domain/booking-status";
import type { DocumentCountersTable, InvoicesTable, ProposalEventsTable, ProposalsTable } from "./schema-documents";

export type * from "./schema-documents";

export type TemplateCategory = Category;
export type { BookingStatus };
export type PaymentStatus = "unpaid" | "partial" | "paid";
export type PackageType = PackageId;
/** `cancelled`: never sent (a reminder of a call that was cancelled, moved, or had begun). */
export type OutboxStatus = "pending" | "sent" | "logged" | "failed" | "cancelled";
/** A plain message, or one of the two reminders of a booking's call (issue 18). */
export type OutboxKind = "message" | "reminder_24h" | "reminder_1h";
/** What is known of the call in the calendar (null: no call known yet). */
export type MeetingStatus = "scheduled" | "cancelled" | "rescheduled";

export interface UsersTable {
  id: string;
  email: string;
  full_name: string | null;
  created_at: Defaulted<string>;
  updated_at: Defaulted<string>;
}

export interface AdminUsersTable {
  id: string;
  is_super_admin: Defaulted<number>;
  created_at: Defaulted<string>;
}

export interface SessionsTable {
  id: string;
  user_id: string | null;
  data: Defaulted<JsonText>;
  created_at: Defaulted<string>;
  expires_at: string;
}

export interface AuthTokensTable {
  token_hash: string;
  email: string;
  client_key: Defaulted<string>;
  redirect_to: string | null;
  created_at: Defaulted<string>;
  expires_at: string;
  used_at: string | null;
}

export interface TemplatesTable {
  id: string;
  name: string;
  slug: string;
  tagline: string;
  description: string;
  category: TemplateCategory;
  price: number;
  original_price: number | null;
  on_sale: Defaulted<number>;
  featured: Defaulted<number>;
  rating: Defaulted<number>;
  review_count: Defaulted<number>;
  sales_count: Defaulted<number>;
  /** 1 for the demo templates a fresh data folder starts with ("Remove sample templates" deletes them). */
  sample: Defaulted<number>;
  features: Defaulted<JsonText>;
  included: Defaulted<JsonText>;
  tech_stack: Defaulted<JsonText>;
  tags: Defaulted<JsonText>;
  images: Defaulted<JsonText>;
  image_url: string | null;
  file_url: string | null;
  created_at: Defaulted<string>;
  updated_at: Defaulted<string>;
}

export interface PurchasesTable {
  id: string;
  user_id: string;
  template_id: string;
  amount_paid: number;
  license_key: string;
  stripe_session_id: string | null;
  /** The Stripe payment intent of the checkout, so a refund or dispute finds its purchase. */
  stripe_payment_intent: Defaulted<string | null>;
  /**
   * Whether the purchase grants access: `refunded` when the payment was refunded in full or
   * disputed, `revoked` when the studio took access away from the console.
   */
  status: Defaulted<PurchaseStatus>;
  created_at: Defaulted<string>;
  /** When the studio revoked access (status `revoked`). */
  revoked_at: Defaulted<string | null>;
}

export type PurchaseStatus = "active" | "refunded" | "revoked";

export interface StripeEventsTable {
  id: string;
  type: string;
  processed_at: Defaulted<string>;
}

export type RevocationReason = "refunded" | "disputed";

/**
 * Checkout sessions (`cs_…`) and payment intents (`pi_…`) that were refunded or disputed: they
 * never grant access again, whatever Stripe sends or the success URL shows later (decision 009).
 */
export interface StripeRevocationsTable {
  stripe_id: string;
  kind: "checkout_session" | "payment_intent";
  reason: RevocationReason;
  stripe_event_id: string;
  created_at: Defaulted<string>;
}

export interface DownloadLogsTable {
  id: Generated<number>;
  purchase_id: string;
  user_id: string;
  template_id: string;
  ip_address: Defaulted<string>;
  created_at: Defaulted<string>;
}

export interface BookingsTable {
  id: string;
  user_id: string | null;
  email: string;
  full_name: string;
  company_name: string;
  /** The client's address for proposals and invoices (issue 44), as the owner entered it. */
  billing_address: Defaulted<string>;
  phone: string | null;
  package_type: PackageType;
  package_price: number;
  /** The package's name when the booking was made (null: booked before issue 29; read the sample's). */
  package_name: Defaulted<string | null>;
  total_amount: number;
  discount_percent: Defaulted<number>;
  campaign_accepted: Defaulted<number>;
  amount_paid: Defaulted<number>;
  payment_status: Defaulted<PaymentStatus>;
  payment_history: Defaulted<JsonText>;
  website_url: string | null;
  is_new_site: Defaulted<number>;
  project_description: Defaulted<string>;
  project_goals: Defaulted<JsonText>;
  target_audience: Defaulted<string>;
  inspiration_urls: Defaulted<JsonText>;
  design_preferences: Defaulted<string>;
  desired_start_date: string | null;
  timeline_urgency: Defaulted<"flexible" | "rush">;
  addons: Defaulted<JsonText>;
  uploaded_files: Defaulted<JsonText>;
  uploaded_file_urls: Defaulted<JsonText>;
  source: string | null;
  status: Defaulted<BookingStatus>;
  created_at: Defaulted<string>;
  updated_at: Defaulted<string>;
  /** `https://api.calendly.com/scheduled_events/{uuid}` of the call (decision 014). */
  calendly_event_uri: Defaulted<string | null>;
  /** `…/scheduled_events/{uuid}/invitees/{uuid}`: unique, one booking per invitee. */
  calendly_invitee_uri: Defaulted<string | null>;
  meeting_status: Defaulted<MeetingStatus | null>;
  /** The call's start and end, UTC ISO-8601, as Calendly's API or signed webhook says. */
  meeting_start_at: Defaulted<string | null>;
  meeting_end_at: Defaulted<string | null>;
  /** The zone the visitor picked the time in (IANA name). */
  invitee_timezone: Defaulted<string | null>;
  meeting_join_url: Defaulted<string | null>;
  meeting_cancel_url: Defaulted<string | null>;
  meeting_reschedule_url: Defaulted<string | null>;
  /** Bumped whenever the call moves or is cancelled: the .ics SEQUENCE. */
  meeting_sequence: Defaulted<number>;
  meeting_updated_at: Defaulted<string | null>;
  /** When the server next asks Calendly for the call (null: nothing to ask). */
  meeting_fetch_next_at: Defaulted<string | null>;
  meeting_fetch_attempts: Defaulted<number>;
  meeting_fetch_error: Defaulted<string | null>;
  /** Which calendar the call was booked in: the studio's own ('builtin') or Calendly; null: none known. */
  meeting_provider: Defaulted<"builtin" | "calendly" | null>;
  /** Where the visit came from (first touch): issue 18.6. */
  utm_source: Defaulted<string | null>;
  utm_medium: Defaulted<string | null>;
  utm_campaign: Defaulted<string | null>;
  referrer: Defaulted<string | null>;
}

export interface BookingDraftsTable {
  id: string;
  booking_id: string;
  data: Defaulted<JsonText>;
  uploaded_files: Defaulted<JsonText>;
  confirmed_at: string | null;
  created_at: Defaulted<string>;
  updated_at: Defaulted<string>;
}

export interface EmailOutboxTable {
  id: Generated<number>;
  to_email: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: Defaulted<OutboxStatus>;
  error: string | null;
  attempts: Defaulted<number>;
  /** For a pending message: when it is (next) due; a reminder's send-after time. */
  next_attempt_at: string | null;
  created_at: Defaulted<string>;
  sent_at: string | null;
  /** JSON list of `MailAttachment`, or null. */
  attachments: Defaulted<JsonText | null>;
  /** The booking a reminder belongs to (deleted with it). */
  booking_id: Defaulted<string | null>;
  kind: Defaulted<OutboxKind>;
  /** Not sent after this moment (a reminder once its call has begun): cancelled instead. */
  expires_at: Defaulted<string | null>;
  /** A payment reminder's stage (dropped when the stage is paid or the booking cancelled). */
  stage_id: Defaulted<string | null>;
}

/**
 * Calendly webhooks processed, by id (`<event>:<invitee uri>`): a replay finds its row and
 * changes nothing. An `invitee.created` that matched no booking yet keeps its `meeting` (JSON) for
 * the booking confirmed later by the same email (decision 014).
 */
export interface CalendlyWebhookEventsTable {
  id: string;
  event: string;
  invitee_uri: string;
  email: string;
  booking_id: string | null;
  meeting: JsonText | null;
  outcome: string;
  received_at: Defaulted<string>;
}

export interface Database {
  users: UsersTable;
  admin_users: AdminUsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  templates: TemplatesTable;
  purchases: PurchasesTable;
  stripe_events: StripeEventsTable;
  stripe_revocations: StripeRevocationsTable;
  download_logs: DownloadLogsTable;
  bookings: BookingsTable;
  booking_drafts: BookingDraftsTable;
  email_outbox: EmailOutboxTable;
  calendly_webhook_events: CalendlyWebhookEventsTable;
  catalogue_version: CatalogueVersionTable;
  studio_settings: StudioSettingsTable;
  studio_flags: StudioFlagsTable;
  setup_tokens: SetupTokensTable;
  booking_stages: BookingStagesTable;
  payments: PaymentsTable;
  calendar_sources: CalendarSourcesTable;
  document_counters: DocumentCountersTable;
  proposals: ProposalsTable;
  proposal_events: ProposalEventsTable;
  invoices: InvoicesTable;
}

/** One of the owner's calendars the built-in calendar reads busy times from (issue 43.3). */
export interface CalendarSourcesTable {
  id: string;
  kind: "ics" | "caldav";
  label: string;
  url: string;
  username: string | null;
  password: string | null;
  etag: string | null;
  last_modified: string | null;
  /** The last known busy times: JSON `[[start, end], ...]`, epoch milliseconds. */
  busy: Defaulted<JsonText>;
  synced_at: string | null;
  error: string | null;
  error_at: string | null;
  created_at: Defaulted<string>;
}

/** One stage of a booking's payment plan (issue 31): what is asked for, and when it was paid. */
export interface BookingStagesTable {
  id: string;
  booking_id: string;
  /** 0, 1, 2, ...: the order the stages are paid in. */
  position: number;
  label: string;
  /** Cents, above 0. */
  amount: number;
  /** The `/pay/<token>` link, set when the stage is first requested. */
  pay_token: Defaulted<string | null>;
  requested_at: Defaulted<string | null>;
  /** YYYY-MM-DD in STUDIO_TIMEZONE: 3 business days after the request. */
  due_on: Defaulted<string | null>;
  /** The last Stripe Checkout Session made for the stage, its URL and when it expires. */
  checkout_session_id: Defaulted<string | null>;
  checkout_url: Defaulted<string | null>;
  checkout_expires_at: Defaulted<string | null>;
  /** How many sessions were made: the next session's idempotency key. */
  sessions_made: Defaulted<number>;
  paid_at: Defaulted<string | null>;
  created_at: Defaulted<string>;
  updated_at: Defaulted<string>;
}

export type LedgerKind = "payment" | "refund";
export type PaymentMethod = "card" | "bank" | "cash" | "other";

/** The ledger (issue 31): every payment and refund, booking or template, by card or by hand. */
export interface PaymentsTable {
  id: string;
  kind: LedgerKind;
  /** Cents, above 0; `kind` says which way it went. */
  amount: number;
  method: PaymentMethod;
  booking_id: Defaulted<string | null>;
  stage_id: Defaulted<string | null>;
  purchase_id: Defaulted<string | null>;
  /** A refund's payment. */
  refund_of: Defaulted<string | null>;
  /** Who paid (or was refunded) and for what, as they were then: kept when a booking is deleted. */
  party: Defaulted<string>;
  subject: Defaulted<string>;
  stripe_payment_intent: Defaulted<string | null>;
  stripe_checkout_session: Defaulted<string | null>;
  stripe_refund: Defaulted<string | null>;
  note: Defaulted<string | null>;
  occurred_at: string;
  created_at: Defaulted<string>;
}

/** One row per section of the console's Settings (issue 29); no row: the sample studio's content. */
export interface StudioSettingsTable {
  section: string;
  data: JsonText;
  /** 1 while the section still holds the sample studio's content. */
  sample: Defaulted<number>;
  updated_at: Defaulted<string>;
  /** The email of the admin who saved it last (null: never saved). */
  updated_by: string | null;
}

/** Facts about the data folder (e.g. `sample_templates_seeded`). */
export interface StudioFlagsTable {
  key: string;
  value: string;
  updated_at: Defaulted<string>;
}

/** The first run's one-time setup link, hashed (24 hours, single use, dead once an admin exists). */
export interface SetupTokensTable {
  token_hash: string;
  created_at: Defaulted<string>;
  expires_at: string;
  used_at: string | null;
}

/** One row (id 1): the catalogue's version, one more after every change to what public pages show. */
export interface CatalogueVersionTable {
  id: number;
  version: Defaulted<number>;
}

export type TemplateRow = Selectable<TemplatesTable>;
export type NewTemplateRow = Insertable<TemplatesTable>;
export type TemplateUpdate = Updateable<TemplatesTable>;
export type BookingRow = Selectable<BookingsTable>;
export type NewBookingRow = Insertable<BookingsTable>;
export type UserRow = Selectable<UsersTable>;
export type PurchaseRow = Selectable<PurchasesTable>;
export type OutboxRow = Selectable<EmailOutboxTable>;
