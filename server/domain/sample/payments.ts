import type { PaymentTerms } from "../payment-plan";

/**
 * The sample studio's payment terms (SPEC.md §9: "20% upfront, 50% mid-project, 30% at final
 * delivery; invoices due within 3 business days"): every new booking's plan, until the owner
 * changes them in Settings → Payments.
 */
export const samplePaymentTerms: PaymentTerms = {
  stages: [
    { label: "Deposit", percent: 20, description: "Upfront, to reserve your start date" },
    { label: "Design approval", percent: 50, description: "Mid-project, at design approval" },
    { label: "Final delivery", percent: 30, description: "At final delivery, before launch" },
  ],
  dueBusinessDays: 3,
};
