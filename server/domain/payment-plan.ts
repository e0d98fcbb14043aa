/**
 * A booking's payment plan (issue 31): the stages a project is paid in, how a total is split into
 * them, when a requested stage is due, and what an amount typed by the owner may be. Pure and
 * client-safe: the console checks with it as the owner types, and the server again on every save.
 */
import { bareDollars, DECIMAL_DOLLARS, dollarsToCents, formatMoney, MAX_AMOUNT_CENTS, writtenAsDollars } from "./money";

/** One stage of the studio's default split, as Settings keeps it. */
export type StageSplit = { label: string; percent: number; description: string };

/** The studio's default plan: the stages every new booking starts with, and the payment terms. */
export type PaymentTerms = { stages: StageSplit[]; dueBusinessDays: number };

/** A stage's state in the console and on /pay. */
export type StageState = "planned" | "requested" | "overdue" | "paid";

export const MAX_STAGES = 8;

/** The terms in a sentence, for the packages page: "Invoices are due within 3 business days." */
export function invoiceTerms(terms: Pick<PaymentTerms, "dueBusinessDays">): string {
  const n = terms.dueBusinessDays;
  return `Invoices are due within ${n} business ${n === 1 ? "day" : "days"}.`;
}
export const MAX_STAGE_LABEL = 60;

/**
 * The total split into the stages' amounts, in cents: each stage its percent rounded to the cent,
 * the last one what is left, so the amounts always add up to the total. A stage that comes to $0
 * is left out (a booking of $0 has no stages).
 */
export function splitTotal(total: number, split: readonly StageSplit[]): { label: string; amount: number }[] {
  if (!(total > 0) || split.length === 0) return [];
  let left = total;
  const stages = split.map((s, i) => {
    const amount = i === split.length - 1 ? left : Math.min(left, Math.round((total * s.percent) / 100));
    left -= amount;
    return { label: s.label, amount };
  });
  return stages.filter((s) => s.amount > 0);
}

/** The percent of the total a stage's amount is, to one decimal place ("20", "33.3"). */
export function percentOf(amount: number, total: number): string {
  if (!(total > 0)) return "0";
  return String(Math.round((amount * 1000) / total) / 10);
}

/** A calendar date `days` business days (Monday to Friday) after `isoDate` (YYYY-MM-DD). */
export function addBusinessDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T12:00:00Z`);
  let added = 0;
  while (added < days) {
    d.setUTCDate(d.getUTCDate() + 1);
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) added++;
  }
  return d.toISOString().slice(0, 10);
}

/** A calendar date `days` after `isoDate` (YYYY-MM-DD), weekends included. */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Today's date (YYYY-MM-DD) in `zone`. */
export function todayIn(zone: string, now: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    now,
  );
}

/** What a stage is now: paid, requested (overdue once its due date has passed), or only planned. */
export function stageState(
  stage: { paidAt: string | null; requestedAt: string | null; dueOn: string | null },
  today: string,
): StageState {
  if (stage.paidAt) return "paid";
  if (!stage.requestedAt) return "planned";
  return stage.dueOn && stage.dueOn < today ? "overdue" : "requested";
}

export const STAGE_STATE_LABELS: Record<StageState, string> = {
  planned: "Not requested",
  requested: "Requested",
  overdue: "Overdue",
  paid: "Paid",
};

/** Whether the stages add up to the total, and if not, the sentence the console shows. */
export function planBalance(total: number, amounts: readonly number[]): { planned: number; mismatch: string | null } {
  const planned = amounts.reduce((sum, a) => sum + a, 0);
  if (planned === total) return { planned, mismatch: null };
  const diff = Math.abs(total - planned);
  return {
    planned,
    mismatch: `The stages add up to ${formatMoney(planned)}, ${formatMoney(diff)} ${
      planned < total ? "less" : "more"
    } than the booking's total of ${formatMoney(total)}.`,
  };
}

export const AMOUNT_MESSAGES = {
  required: "Enter an amount",
  invalid: "Enter an amount in dollars, like 1700 or 1700.50",
  positive: "Enter an amount above $0",
  cents: "Amounts are in whole cents (at most two decimals)",
  tooLarge: "Enter an amount up to $999,999.99, the most one card payment can be",
} as const;

/**
 * An amount typed by the owner ("1,700", "$1700.50") as cents, or the message saying what is wrong:
 * empty, not a number, zero or negative, or finer than a cent. `left`, when given, is the most it
 * may be ("That is more than is left of the total").
 */
export function parseAmount(
  input: string | number | null | undefined,
  opts: { left?: number; leftLabel?: string } = {},
): { cents: number } | { error: string } {
  const raw = typeof input === "number" ? String(input) : bareDollars(input ?? "");
  if (raw === "") return { error: AMOUNT_MESSAGES.required };
  if (/^-\d/.test(raw)) return { error: AMOUNT_MESSAGES.positive };
  if (!writtenAsDollars(raw)) return { error: AMOUNT_MESSAGES.invalid };
  if (Number(raw) <= 0) return { error: AMOUNT_MESSAGES.positive };
  if (/\.\d{3,}$/.test(raw)) return { error: AMOUNT_MESSAGES.cents };
  if (!DECIMAL_DOLLARS.test(raw) || Number(raw) * 100 > MAX_AMOUNT_CENTS) return { error: AMOUNT_MESSAGES.tooLarge };
  const cents = dollarsToCents(raw);
  if (cents === null || cents <= 0) return { error: AMOUNT_MESSAGES.positive };
  if (opts.left !== undefined && cents > opts.left)
    return {
      error: `That is more than ${opts.leftLabel ?? "is left of the total"} (${formatMoney(Math.max(0, opts.left))}).`,
    };
  return { cents };
}

/** The refusals of the plan's rules, in the owner's words. */
export const PLAN_MESSAGES = {
  paidLocked: "A paid stage cannot be changed.",
  requestedLocked: "This stage was already requested from the client, so it cannot be changed or removed.",
  cancelled: "This booking is cancelled: payments cannot be requested for it.",
  alreadyPaid: "This stage is already paid.",
  tooManyStages: `A plan has at most ${MAX_STAGES} stages.`,
  labelRequired: "Give the stage a name",
  labelTooLong: `Stage names are at most ${MAX_STAGE_LABEL} characters`,
  noStages: "This booking has no stage left to pay.",
} as const;

/** A stage's name as typed, trimmed, or the message saying what is wrong. */
export function parseStageLabel(input: string | null | undefined): { label: string } | { error: string } {
  const label = (input ?? "").trim().replace(/\s+/g, " ");
  if (!label) return { error: PLAN_MESSAGES.labelRequired };
  if (label.length > MAX_STAGE_LABEL) return { error: PLAN_MESSAGES.labelTooLong };
  return { label };
}

/** How far `zone`'s wall clock is ahead of UTC at `at`, in milliseconds. */
function zoneOffsetMs(at: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: zone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/** The moment it is `hour`:00 on `isoDate` (YYYY-MM-DD) in `zone` (a reminder's send time). */
export function zonedMoment(isoDate: string, hour: number, zone: string): Date {
  const wall = new Date(`${isoDate}T${String(hour).padStart(2, "0")}:00:00Z`);
  const first = new Date(wall.getTime() - zoneOffsetMs(wall, zone));
  const again = zoneOffsetMs(first, zone);
  return new Date(wall.getTime() - again);
}
