import { Plus, Trash2 } from "lucide-react";
import { Checkbox, Group, TextArea, TextInput } from "../form/fields";
import { SectionForm, useSettingsForm, type Reply, type Values } from "./section-form";

/** The forms' fields as they are typed (strings; "on" for a ticked box). */

type AddOnFields = {
  id: string;
  name: string;
  description: string;
  price: string;
  allowMultiple: string;
  maxQuantity: string;
};
type PackagesFields = {
  tiers: (Record<"id" | "name" | "basePrice" | "priceLabel" | "timeline" | "description", string> &
    Record<"recommended" | "offered" | "included" | "notIncluded" | "cta" | "depositPercent", string> & {
      addOns: AddOnFields[];
    })[];
};

/** Settings → Packages: each package's offer, price, texts and add-ons. */
export function PackagesForm({ values, lastResult }: { values: Values; lastResult: Reply }) {
  const [form, fields] = useSettingsForm<PackagesFields>("packages", values, lastResult);
  const tiers = fields.tiers.getFieldList();
  return (
    <SectionForm form={form} section="packages">
      {fields.tiers.errors?.length ? (
        <p className="field-error" role="alert" id={fields.tiers.errorId}>
          {fields.tiers.errors[0]}
        </p>
      ) : null}
      {tiers.map((tier) => {
        const t = tier.getFieldset();
        const addOns = t.addOns.getFieldList();
        const id = String(t.id.initialValue ?? "");
        return (
          <Group key={tier.key} title={`${String(t.name.initialValue || id)} package`}>
            <input type="hidden" name={t.id.name} value={id} />
            <div className="grid gap-x-5 gap-y-4 sm:grid-cols-2">
              <Checkbox field={t.offered} label="Offered" hint="Shown on the site and in the booking." />
              <Checkbox field={t.recommended} label="Recommended" hint="Marked “Most Popular”." />
            </div>
            <div className="grid gap-5 sm:grid-cols-2">
              <TextInput field={t.name} label="Name" />
              <TextInput field={t.timeline} label="Timeline" placeholder="2-3 weeks" />
              <TextInput field={t.basePrice} label="Price" prefix="$" inputMode="numeric" hint="Whole dollars." />
              <TextInput
                field={t.priceLabel}
                label="Price label (optional)"
                hint={id === "custom" ? "Shown instead of the price, e.g. $15k-25k+." : "Shown instead of the price."}
              />
              <TextInput field={t.depositPercent} label="Deposit (%)" inputMode="numeric" />
              <TextInput field={t.cta} label="Button text" />
            </div>
            <TextArea field={t.description} label="Description" rows={3} />
            <div className="grid gap-5 sm:grid-cols-2">
              <TextArea field={t.included} label="Included" rows={6} hint="One item per line." />
              <TextArea field={t.notIncluded} label="Not included" rows={6} hint="One item per line." />
            </div>
            <div>
              <h3 className="font-sans text-sm font-semibold text-ink">Add-ons</h3>
              {id === "custom" ? (
                <p className="mt-1 text-sm text-ink-muted">Shown on the packages page; quoted after the call.</p>
              ) : null}
              {addOns.length === 0 ? <p className="mt-2 text-sm text-ink-muted">No add-ons yet.</p> : null}
              <ul className="mt-3 grid gap-4">
                {addOns.map((addOn, j) => {
                  const a = addOn.getFieldset();
                  return (
                    <li key={addOn.key} className="rounded-field border border-line bg-paper p-4">
                      <input type="hidden" name={a.id.name} value={String(a.id.initialValue ?? "")} />
                      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
                        <TextInput field={a.name} label="Add-on name" />
                        <TextInput field={a.price} label="Price" prefix="$" inputMode="numeric" />
                      </div>
                      <TextInput field={a.description} label="Description" className="mt-4" />
                      <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
                        <div className="flex flex-wrap items-end gap-5">
                          <Checkbox field={a.allowMultiple} label="Several allowed" />
                          <TextInput field={a.maxQuantity} label="Maximum" inputMode="numeric" className="w-28" />
                        </div>
                        <button
                          {...form.remove.getButtonProps({ name: t.addOns.name, index: j })}
                          className="btn-ghost px-3 py-1.5 text-danger"
                          aria-label={`Remove ${String(a.name.initialValue || "this add-on")} from ${String(t.name.initialValue)}`}
                        >
                          <Trash2 aria-hidden="true" className="h-4 w-4" /> Remove
                        </button>
                      </div>
                    </li>
                  );
                })}
              </ul>
              <button
                {...form.insert.getButtonProps({
                  name: t.addOns.name,
                  defaultValue: { id: "", name: "", description: "", price: "", allowMultiple: "", maxQuantity: "1" },
                })}
                className="btn-ghost mt-4"
                aria-label={`Add an add-on to the ${String(t.name.initialValue || id)} package`}
              >
                <Plus aria-hidden="true" className="h-4 w-4" /> Add an add-on
              </button>
            </div>
          </Group>
        );
      })}
    </SectionForm>
  );
}
