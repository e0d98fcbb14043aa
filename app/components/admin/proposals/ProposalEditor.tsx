import { Plus, Trash2 } from "lucide-react";
import type { z } from "zod";
import { proposalFormSchema, type proposalFormValues } from "#domain/proposal";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import { Group, TextArea, TextInput } from "../form/fields";
import { useConsoleForm } from "../form/use-console-form";

type Values = Record<string, unknown>;
/** The form's fields as typed (strings; lists of items and stages). */
type Fields = ReturnType<typeof proposalFormValues>;
const schema = proposalFormSchema as unknown as z.ZodType<z.output<typeof proposalFormSchema>, z.ZodTypeDef, Fields>;

/**
 * A draft proposal's editor (issue 44.1): the summary and scope, line items, discount, the payment
 * plan (checked against the total as it is typed), the terms for this client and the expiry date.
 * The server reads what was typed again with the same schema.
 */
export function ProposalEditor({ id, values, onDone }: { id: string; values: Values; onDone: () => void }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const save = trpc.admin.proposals.update.useMutation({
    onSuccess: async () => {
      toast.success("Proposal saved");
      await utils.admin.proposals.forBooking.invalidate();
      onDone();
    },
    onError: (e) => refuse(e.message),
  });
  const [form, fields, { refused, refuse, formProps }] = useConsoleForm({
    id: `proposal-${id}`,
    schema,
    defaultValue: values as Record<string, string>,
    onValid: (typed) => save.mutate({ id, fields: typed }),
  });
  const items = fields.items.getFieldList();
  const stages = fields.stages.getFieldList();
  return (
    <form {...formProps} className="grid gap-6" aria-label="Edit the proposal">
      <Group title="Proposal">
        <TextInput field={fields.title} label="Title" maxLength={160} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput field={fields.expiresOn} label="Open until (YYYY-MM-DD)" placeholder="2027-01-31" />
          <TextInput field={fields.startDate} label="Start date" maxLength={60} />
        </div>
        <TextArea field={fields.clientAddress} label="Client’s address (on the proposal and invoices)" rows={2} />
      </Group>
      <Group title="Project summary">
        <TextInput field={fields.goal} label="Goal" />
        <TextInput field={fields.audience} label="Audience" />
        <TextArea field={fields.features} label="Features" rows={3} />
        <TextArea field={fields.scope} label="Scope" rows={4} hint="Separate paragraphs with a blank line." />
      </Group>
      <Group title="Items">
        <ol className="grid gap-3">
          {items.map((item, i) => {
            const f = item.getFieldset();
            return (
              <li key={item.key} className="grid items-end gap-3 sm:grid-cols-[1fr_9rem_auto]">
                <TextInput field={f.label} label={`Item ${i + 1}`} maxLength={160} />
                <TextInput field={f.amount} label="Amount" prefix="$" inputMode="decimal" />
                <button
                  {...form.remove.getButtonProps({ name: fields.items.name, index: i })}
                  className="btn-ghost px-3 py-2 text-danger"
                  aria-label={`Remove item ${i + 1}`}
                  disabled={items.length === 1}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </button>
              </li>
            );
          })}
        </ol>
        {fields.items.errors?.length ? (
          <p className="field-error" role="alert">
            {fields.items.errors[0]}
          </p>
        ) : null}
        <div>
          <button
            {...form.insert.getButtonProps({ name: fields.items.name, defaultValue: { label: "", amount: "" } })}
            className="btn-ghost"
          >
            <Plus aria-hidden="true" className="h-4 w-4" /> Add an item
          </button>
        </div>
        <div className="grid gap-3 sm:grid-cols-[1fr_9rem]">
          <TextInput field={fields.discountLabel} label="Discount name" placeholder="Discount" maxLength={160} />
          <TextInput field={fields.discountAmount} label="Discount" prefix="$" inputMode="decimal" />
        </div>
      </Group>
      <Group
        title="Payment plan"
        description="The stages must add up to the total; the first is asked for when the client signs."
      >
        <ol className="grid gap-3">
          {stages.map((stage, i) => {
            const f = stage.getFieldset();
            return (
              <li
                key={stage.key}
                className="grid items-end gap-3 rounded-field border border-line p-3 sm:grid-cols-[1fr_9rem_auto]"
              >
                <TextInput field={f.label} label={`Stage ${i + 1}`} maxLength={60} />
                <TextInput field={f.amount} label="Amount" prefix="$" inputMode="decimal" />
                <button
                  {...form.remove.getButtonProps({ name: fields.stages.name, index: i })}
                  className="btn-ghost px-3 py-2 text-danger"
                  aria-label={`Remove stage ${i + 1}`}
                  disabled={stages.length === 1}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </button>
                <div className="sm:col-span-3">
                  <TextInput field={f.due} label="When it is due" maxLength={120} />
                </div>
              </li>
            );
          })}
        </ol>
        {fields.stages.errors?.length ? (
          <p className="field-error" role="alert" data-testid="plan-error">
            {fields.stages.errors[0]}
          </p>
        ) : null}
        <div>
          <button
            {...form.insert.getButtonProps({
              name: fields.stages.name,
              defaultValue: { label: "", amount: "", due: "" },
            })}
            className="btn-ghost"
          >
            <Plus aria-hidden="true" className="h-4 w-4" /> Add a stage
          </button>
        </div>
      </Group>
      <Group title="Terms">
        <TextArea field={fields.terms} label="Terms for this client" rows={12} />
      </Group>
      {refused ? (
        <p className="field-error" role="alert">
          {refused}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" className="btn-ghost" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="btn-dark" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save proposal"}
        </button>
      </div>
    </form>
  );
}
