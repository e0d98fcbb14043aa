import { emptyFormState, type BookingFormState } from "#domain/booking-state";
import { magicLinkEmail } from "../auth/magic-link-email";
import type { Call } from "../booking/call.server";
import { bookingEmails, reminderMail, type BookingMailSettings } from "../booking/emails.server";
import { orderNumberOf, receiptMail } from "../shop/receipt.server";
import type { Mail } from "../email/mailer.server";

/** One message as the preview page lists it. */
export type SampleEmail = { id: string; name: string; mail: Mail };

/**
 * Every message the studio sends, built by the code that sends it, with sample data: what the
 * preview page (/dev/emails, `npm run dev` only) shows the operator, and what the email tests
 * render in Chromium at 390 px.
 */

/** Whether the preview page is served: in development (`npm run dev`) only, never on `npm start` or in production. */
export function previewsServed(e: { NODE_ENV: string }): boolean {
  return e.NODE_ENV === "development";
}
export function sampleEmails(e: BookingMailSettings, now = new Date()): SampleEmail[] {
  const app = e.APP_URL;
  const studio = e.studio.identity;
  const state: BookingFormState = {
    ...emptyFormState(),
    selectedPackage: "growth",
    name: "Ada Lovelace",
    email: "ada@example.com",
    company: "Analytical Engines Ltd",
    phone: "+44 20 7946 0000",
    isNewSite: false,
    websiteUrl: "https://analytical-engines.example",
    primaryGoal: "lead-gen",
    targetAudience: "Founders of early-stage B2B companies in Europe",
    inspiration1: "https://linear.app",
    inspiration2: "https://stripe.com",
    mustHaveFeatures: "Case studies, a contact form, a blog and a careers page",
    niceToHaveFeatures: "A newsletter sign-up",
    preferredStartDate: new Date(now.getTime() + 30 * 86400_000).toISOString().slice(0, 10),
    timelineFlexibility: "flexible",
    selectedAddOns: ["crm-integration"],
    addOnQuantities: { "crm-integration": 1 },
    source: "utm:newsletter",
  };
  const files = [{ name: "brand-book.pdf", size: 2_400_000, path: "bookings/sample/1-brand-book.pdf" }];
  const start = new Date(now.getTime() + 3 * 86400_000);
  start.setUTCHours(14, 0, 0, 0);
  const call: Call = {
    bookingId: "sample-booking",
    status: "scheduled",
    startAt: start.toISOString(),
    endAt: new Date(start.getTime() + 20 * 60_000).toISOString(),
    timezone: "Europe/London",
    joinUrl: "https://meet.example.com/studio-rowan/ada",
    cancelUrl: "https://calendly.com/cancellations/SAMPLE",
    rescheduleUrl: "https://calendly.com/reschedulings/SAMPLE",
    sequence: 0,
    updatedAt: now.toISOString(),
    email: state.email,
    name: state.name,
    provider: "calendly",
    phone: null,
  };
  const [confirmation, notification] = bookingEmails("sample-booking", state, files, e, {
    state: "call",
    call,
    reminders: ["reminder_24h", "reminder_1h"],
  });
  const [unscheduled] = bookingEmails("sample-booking", state, files, e, {
    state: "unknown",
    remindersPromised: true,
  });
  const purchaseId = "4f9c2a7e-1b3d-4c8e-9a21-5d6f7e8a9b0c";
  const link = `${app}/auth/callback?token=${"x".repeat(180)}`;
  return [
    {
      id: "magic-link",
      name: "Magic link",
      mail: { to: state.email, subject: `Your sign-in link for ${studio.name}`, ...magicLinkEmail(link, studio) },
    },
    { id: "booking-confirmation", name: "Booking confirmation (time known)", mail: confirmation },
    { id: "booking-confirmation-unscheduled", name: "Booking confirmation (no time yet)", mail: unscheduled },
    { id: "studio-notification", name: "Studio notification", mail: notification },
    { id: "reminder-24h", name: "Reminder, 24 hours before", mail: reminderMail(call, "reminder_24h", studio) },
    { id: "reminder-1h", name: "Reminder, 1 hour before", mail: reminderMail(call, "reminder_1h", studio) },
    {
      id: "receipt",
      name: "Purchase receipt",
      mail: receiptMail(
        {
          to: state.email,
          orderNumber: orderNumberOf(purchaseId, studio.name),
          purchasedAt: now.toISOString(),
          templateName: "Marginalia",
          amountPaid: 5900,
          licenseKey: "ABCD2345-EFGH6789-JKLM2345-NPQR6789",
          downloadLink: `${app}/files/template-files/marginalia.zip?exp=${Math.floor(now.getTime() / 1000) + 3600}&sig=${"a".repeat(64)}`,
          pageLink: `${app}/templates/marginalia`,
        },
        studio,
      ),
    },
  ];
}
