import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { listEntries } from "./form-entries";
import { text, trimmed } from "./form-text";
import { formatMoney } from "./money";
import { MAX_STAGE_LABEL, MAX_STAGES, parseAmount } from "./payment-plan";
import { MAX_TERMS } from "./contract-settings";

/**
 * A proposal (issue 44): what the studio offers a client after the call, and the rules its
 * console form and its sending are checked by. Client-safe: the console's form (conform) and the
 * server's procedures parse the same schema, so a field is refused the same way on both sides.
 * Amounts are cents; the form types dollars.
 */

export type ProposalItem = { label: string; amount: number };
export type ProposalStage = { label: string; amount: number; due: string };

export type ProposalContent = {
  title: string;
  client: { name: string; company: string; email: string; address: string };
  summary: { goal: string; audience: string; features: string; startDate: string };
  scope: string;
  items: ProposalItem[];
  discount: ProposalItem | null;
  stages: ProposalStage[];
  terms: string;
};

export const MAX_ITEMS = 20;
export const MIN_SIGNER_NAME = 2;

/** The words of the proposal's rules, as the owner and the client read them. */
export const PROPOSAL_MESSAGES = {
  planMismatch: (planned: number, total: number) =>
    `The payment plan adds up to ${formatMoney(planned)} but the proposal's total is ${formatMoney(total)}: make them agree before sending.`,
  noItems: "Add at least one item",
  noTotal: "The proposal's total must be above $0",
  discountTooLarge: "The discount is more than the items add up to",
  expiresPast: "Pick an expiry date from today on",
  notDraft: "This version was already sent, so it cannot be changed. Send a revision instead.",
  signerName: `Please type your full name (at least ${MIN_SIGNER_NAME} characters)`,
  consent: "Please tick the box to agree to the terms and to sign electronically",
  alreadySigned: "This proposal is already signed.",
  declined: "This proposal was declined, so it can no longer be signed.",
  expired: (on: string) => `This proposal expired on ${on}. Ask the studio for a new one.`,
  replaced: "A newer version replaced this proposal. Please open the latest version.",
  notSignable: "This proposal cannot be signed.",
  countersignOff: "Countersigning is off for this proposal.",
  notSignedYet: "The client has not signed this proposal yet.",
  alreadyCountersigned: "You already countersigned this proposal.",
  signedNeverChanges: "A signed proposal never changes.",
  versionSigned: (v: number) =>
    `The client already signed version ${v}: this proposal is an agreement now, so no other version can be sent.`,
} as const;

/** The sentence the client agrees to, kept word for word in the audit trail. */
export const CONSENT_TEXT = "I agree to these terms and to sign electronically";

export function itemsTotal(items: readonly ProposalItem[], discount: ProposalItem | null): number {
  return items.reduce((sum, i) => sum + i.amount, 0) - (discount?.amount ?? 0);
}

export function planTotal(stages: readonly ProposalStage[]): number {
  return stages.reduce((sum, s) => sum + s.amount, 0);
}

/** Why the content cannot be sent (items and plan disagree, nothing to pay), or null. */
export function sendingProblem(c: Pick<ProposalContent, "items" | "discount" | "stages">): string | null {
  if (c.items.length === 0) return PROPOSAL_MESSAGES.noItems;
  const total = itemsTotal(c.items, c.discount);
  if (total <= 0) return c.discount ? PROPOSAL_MESSAGES.discountTooLarge : PROPOSAL_MESSAGES.noTotal;
  const planned = planTotal(c.stages);
  if (planned !== total) return PROPOSAL_MESSAGES.planMismatch(planned, total);
  return null;
}

// ---------- The console's form ----------

/** Dollars typed ("1,250.50") to cents, with the plan's own messages. */
const money = z.preprocess(trimmed, z.string()).transform((v, ctx) => {
  const r = parseAmount(v);
  if ("error" in r) {
    ctx.addIssue({ code: "custom", message: r.error });
    return z.NEVER;
  }
  return r.cents;
});
const isoDate = z.preprocess(
  trimmed,
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date as YYYY-MM-DD")
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "Enter a real date"),
);

export const proposalFormSchema = z
  .object({
    title: text(160, "Give the proposal a title"),
    clientAddress: text(500),
    goal: text(2000),
    audience: text(2000),
    features: text(4000),
    startDate: text(60),
    scope: text(20_000),
    items: z.preprocess(
      (v) => v ?? [],
      z
        .array(z.object({ label: text(160, "Name the item"), amount: money }))
        .min(1, PROPOSAL_MESSAGES.noItems)
        .max(MAX_ITEMS, `At most ${MAX_ITEMS} items`),
    ),
    discountLabel: text(160),
    discountAmount: z.preprocess(trimmed, z.string()).transform((v, ctx) => {
      if (v === "" || v === "0" || v === "0.00") return 0;
      const r = parseAmount(v);
      if ("error" in r) {
        ctx.addIssue({ code: "custom", message: r.error });
        return z.NEVER;
      }
      return r.cents;
    }),
    stages: z.preprocess(
      (v) => v ?? [],
      z
        .array(
          z.object({
            label: text(MAX_STAGE_LABEL, "Give the stage a name"),
            amount: money,
            due: text(120),
          }),
        )
        .min(1, "Add at least one stage")
        .max(MAX_STAGES, `A plan has at most ${MAX_STAGES} stages`),
    ),
    terms: text(MAX_TERMS, "The terms are required"),
    expiresOn: isoDate,
  })
  .superRefine((v, ctx) => {
    const discount = v.discountAmount ? { label: v.discountLabel || "Discount", amount: v.discountAmount } : null;
    const total = itemsTotal(v.items, discount);
    if (total <= 0)
      ctx.addIssue({ code: "custom", path: ["discountAmount"], message: PROPOSAL_MESSAGES.discountTooLarge });
    const planned = planTotal(v.stages.map((s) => ({ ...s, due: s.due })));
    if (total > 0 && planned !== total)
      ctx.addIssue({ code: "custom", path: ["stages"], message: PROPOSAL_MESSAGES.planMismatch(planned, total) });
  });

export type ProposalForm = z.input<typeof proposalFormSchema>;

/** The form's fields of a proposal's content (amounts as dollars). */
export function proposalFormValues(c: ProposalContent, expiresOn: string) {
  const dollars = (cents: number) => (cents / 100).toFixed(2);
  return {
    title: c.title,
    clientAddress: c.client.address,
    goal: c.summary.goal,
    audience: c.summary.audience,
    features: c.summary.features,
    startDate: c.summary.startDate,
    scope: c.scope,
    items: c.items.map((i) => ({ label: i.label, amount: dollars(i.amount) })),
    discountLabel: c.discount?.label ?? "",
    discountAmount: c.discount ? dollars(c.discount.amount) : "",
    stages: c.stages.map((s) => ({ label: s.label, amount: dollars(s.amount), due: s.due })),
    terms: c.terms,
    expiresOn,
  };
}

/** The parsed form applied to a draft's content (the client's name, company and email stay the booking's). */
export function contentFromForm(
  before: ProposalContent,
  v: z.output<typeof proposalFormSchema>,
): { content: ProposalContent; expiresOn: string } {
  return {
    content: {
      title: v.title,
      client: { ...before.client, address: v.clientAddress },
      summary: { goal: v.goal, audience: v.audience, features: v.features, startDate: v.startDate },
      scope: v.scope,
      items: v.items,
      discount: v.discountAmount ? { label: v.discountLabel || "Discount", amount: v.discountAmount } : null,
      stages: v.stages,
      terms: v.terms,
    },
    expiresOn: v.expiresOn,
  };
}

/** The console's form data parsed the same way in the browser and on the server. */
export function parseProposalForm(formData: FormData) {
  return parseWithZod(listEntries(formData), { schema: proposalFormSchema, disableAutoCoercion: true });
}

/** P-0007, P-0007 v2 */
export function proposalReference(n: number, version: number): string {
  const base = `P-${String(n).padStart(4, "0")}`;
  return version > 1 ? `${base} v${version}` : base;
}

/** The signer's typed name: trimmed, spaces folded; a problem when under two characters. */
export function signerName(input: unknown): { name: string } | { error: string } {
  const name = String(input ?? "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 200);
  return [...name].length < MIN_SIGNER_NAME ? { error: PROPOSAL_MESSAGES.signerName } : { name };
}
