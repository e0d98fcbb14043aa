import { STAGE_STATE_LABELS } from "#domain/payment-plan";
import type { AdminStage } from "../types";

/** How a payment toward a stage was made, in the owner's words. */
export const METHOD_LABELS: Record<string, string> = {
  card: "Card (Stripe)",
  bank: "Bank transfer",
  cash: "Cash",
  other: "Other",
};

/** A stage's badge colours by state. */
export const STATE_STYLES: Record<AdminStage["state"], string> = {
  planned: "bg-paper-sunk text-ink-soft",
  requested: "bg-accent-soft text-accent-ink",
  overdue: "bg-danger-soft text-danger",
  paid: "bg-shop-soft text-shop-ink",
};

export const shortDay = (isoDate: string) =>
  new Date(`${isoDate.slice(0, 10)}T12:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });

/** What a stage's badge says: its state, and the date that matters for it. */
export function stateText(s: AdminStage): string {
  if (s.state === "paid" && s.paidAt) return `Paid ${shortDay(s.paidAt)}`;
  if ((s.state === "requested" || s.state === "overdue") && s.dueOn)
    return `${STAGE_STATE_LABELS[s.state]} · due ${shortDay(s.dueOn)}`;
  return STAGE_STATE_LABELS[s.state];
}
