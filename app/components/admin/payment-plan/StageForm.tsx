import { formatMoney } from "#domain/money";
import { parseAmount, percentOf } from "#domain/payment-plan";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import { stageFormSchema } from "#domain/console-forms";
import { useConsoleForm } from "../form/use-console-form";
import type { AdminStage } from "../types";
import { usePlanChanged } from "./use-plan-changed";

/** A field's message, announced as it appears (the plan's forms are small: one message at a time). */
function Refusal({ id, text }: { id?: string; text?: string | null }) {
  return text ? (
    <p id={id} className="field-error" role="alert">
      {text}
    </p>
  ) : null;
}

/**
 * Editing a stage (name and amount), or adding one when no stage is given: checked as the server
 * checks it (the stage's name, the amount in dollars and cents) before anything is sent.
 */
export function StageForm({
  bookingId,
  stage,
  total,
  onDone,
}: {
  bookingId: string;
  stage?: AdminStage;
  total: number;
  onDone: () => void;
}) {
  const toast = useToast();
  const changed = usePlanChanged(bookingId);
  const done = async (message: string) => {
    toast.success(message);
    await changed();
    onDone();
  };
  const update = trpc.admin.bookings.updateStage.useMutation({
    onSuccess: () => done("Stage saved"),
    onError: (e) => refuse(e.message),
  });
  const add = trpc.admin.bookings.addStage.useMutation({
    onSuccess: () => done("Stage added"),
    onError: (e) => refuse(e.message),
  });
  const [form, fields, { refused, refuse, formProps }] = useConsoleForm({
    id: stage ? `stage-${stage.id}` : `stage-new-${bookingId}`,
    schema: stageFormSchema,
    defaultValue: {
      label: stage?.label ?? "",
      amount: stage ? (stage.amount / 100).toFixed(2).replace(/\.00$/, "") : "",
    },
    onValid: ({ label = "", amount = "" }) => {
      if (stage) update.mutate({ id: bookingId, stageId: stage.id, label, amount });
      else add.mutate({ id: bookingId, label, amount: amount.trim() ? amount : undefined });
    },
  });
  const busy = update.isPending || add.isPending;
  const shareId = `${form.id}-share`;
  const cents = parseAmount(String(fields.amount.value ?? ""));
  return (
    <form {...formProps} className="grid gap-3 rounded-field border border-line-strong p-3">
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem]">
        <div>
          <label htmlFor={fields.label.id} className="field-label">
            Stage name
          </label>
          <input
            id={fields.label.id}
            name={fields.label.name}
            defaultValue={String(fields.label.initialValue ?? "")}
            className="field-input"
            maxLength={60}
            aria-invalid={fields.label.errors ? true : undefined}
            aria-describedby={fields.label.errors ? fields.label.errorId : undefined}
          />
          <Refusal id={fields.label.errorId} text={fields.label.errors?.[0]} />
        </div>
        <div>
          <label htmlFor={fields.amount.id} className="field-label">
            Amount (USD)
          </label>
          <input
            id={fields.amount.id}
            name={fields.amount.name}
            defaultValue={String(fields.amount.initialValue ?? "")}
            className="field-input"
            inputMode="decimal"
            placeholder={stage ? undefined : "The rest of the total"}
            aria-describedby={fields.amount.errors ? `${shareId} ${fields.amount.errorId}` : shareId}
            aria-invalid={fields.amount.errors || refused ? true : undefined}
          />
          <p id={shareId} className="mt-1 text-xs text-ink-muted">
            {"cents" in cents ? `${percentOf(cents.cents, total)}% of ${formatMoney(total)}` : " "}
          </p>
          <Refusal id={fields.amount.errorId} text={fields.amount.errors?.[0]} />
        </div>
      </div>
      <Refusal text={refused} />
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn-ghost px-3 py-1.5" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn-dark px-3 py-1.5" disabled={busy} aria-busy={busy}>
          {busy ? "Saving…" : stage ? "Save stage" : "Add stage"}
        </button>
      </div>
    </form>
  );
}
