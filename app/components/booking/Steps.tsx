import { useState, type ReactNode } from "react";
import type { AddOn, PackageTier } from "#domain/packages";
import { EMPTY_CATALOGUE, type Catalogue } from "#domain/catalogue";
import { AUDIENCE_MAX, PRIMARY_GOALS, TIMELINE_OPTIONS } from "#domain/booking-rules";
import { QuantityStepper } from "~/components/ui/QuantityStepper";
import { formatDollars } from "#domain/money";
import { computeTotal, setQuantity, toggleAddOn, type Selection } from "#domain/pricing";
import { describedBy, FieldError, InputField, TextAreaField } from "./Field";

export type Values = Record<string, unknown>;
export type Errors = Record<string, string | undefined>;

const s = (v: unknown) => (typeof v === "string" ? v : "");

export function Step1({
  values,
  errors,
  packages,
}: {
  values: Values;
  errors: Errors;
  packages: Pick<PackageTier, "id" | "name" | "priceDisplay" | "timeline" | "recommended">[];
}) {
  return (
    <div className="space-y-8">
      <fieldset>
        <legend className="field-label">Which package are you interested in?</legend>
        <div
          className={`grid gap-3 ${packages.length === 3 ? "sm:grid-cols-3" : packages.length === 2 ? "sm:grid-cols-2" : ""}`}
          {...describedBy("selectedPackage", errors.selectedPackage)}
        >
          {packages.map((p) => (
            <RadioCard
              key={p.id}
              name="selectedPackage"
              value={p.id}
              checked={s(values.selectedPackage) === p.id}
              className="relative flex cursor-pointer flex-col rounded-card border border-line-strong bg-white p-5 transition-colors"
              inputClassName="absolute right-4 top-4 h-4 w-4 border-line-strong text-ink focus:ring-ink"
            >
              <span className="font-display text-2xl">{p.name}</span>
              <span className="mt-1 text-sm text-ink-muted">
                {p.priceDisplay} · {p.timeline}
              </span>
              {p.recommended ? (
                <span className="mt-3 self-start rounded-full bg-ink px-2 py-0.5 text-xs font-semibold text-paper">
                  Most Popular
                </span>
              ) : null}
            </RadioCard>
          ))}
        </div>
        <FieldError id="selectedPackage" error={errors.selectedPackage} />
      </fieldset>
      <div className="grid gap-6 sm:grid-cols-2">
        <TextField id="name" label="Your name" autoComplete="name" values={values} errors={errors} />
        <TextField id="email" label="Email" type="email" autoComplete="email" values={values} errors={errors} />
        <TextField id="company" label="Company" autoComplete="organization" values={values} errors={errors} />
        <TextField id="phone" label="Phone" type="tel" autoComplete="tel" optional values={values} errors={errors} />
      </div>
    </div>
  );
}

/** One option of a radio group drawn as a card (its layout in className): ticked, it is outlined in ink. */
function RadioCard({
  name,
  value,
  checked,
  className,
  inputClassName = "h-4 w-4 border-line-strong text-ink focus:ring-ink",
  children,
}: {
  name: string;
  value: string;
  checked: boolean;
  className: string;
  inputClassName?: string;
  children: ReactNode;
}) {
  return (
    <label className={`${className} has-[:checked]:border-ink has-[:checked]:ring-1 has-[:checked]:ring-ink`}>
      <input type="radio" name={name} value={value} defaultChecked={checked} className={inputClassName} />
      {children}
    </label>
  );
}

/** A one-line field of a step: its label, what was typed, its message tied to it for screen readers. */
function TextField({
  id,
  label,
  type = "text",
  autoComplete,
  optional,
  values,
  errors,
}: {
  id: string;
  label: string;
  type?: string;
  autoComplete: string;
  optional?: boolean;
  values: Values;
  errors: Errors;
}) {
  return (
    <InputField
      id={id}
      label={label}
      type={type}
      autoComplete={autoComplete}
      optional={optional}
      value={s(values[id])}
      error={errors[id]}
    />
  );
}

function AudienceField({ value, error }: { value: string; error?: string }) {
  const [count, setCount] = useState(value.length);
  return (
    <TextAreaField
      id="targetAudience"
      label="Who is your target audience?"
      error={error}
      hint={
        <span className="flex justify-between">
          <span>At least 10 characters.</span>
          <span aria-live="polite" className={count > AUDIENCE_MAX ? "text-danger" : ""}>
            {count}/{AUDIENCE_MAX}
          </span>
        </span>
      }
      rows={3}
      maxLength={AUDIENCE_MAX}
      value={value}
      onChange={(e) => setCount(e.target.value.length)}
    />
  );
}

export function Step2({ values, errors }: { values: Values; errors: Errors }) {
  return (
    <div className="space-y-8">
      <div>
        <InputField
          id="websiteUrl"
          label="Current website"
          type="url"
          inputMode="url"
          placeholder="https://"
          value={s(values.websiteUrl)}
          error={errors.websiteUrl}
        />
        <label className="mt-3 flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="isNewSite"
            defaultChecked={values.isNewSite === "on"}
            className="h-4 w-4 rounded border-line-strong text-ink focus:ring-ink"
          />
          This is a new site (no current website)
        </label>
      </div>
      <fieldset>
        <legend className="field-label">Primary goal</legend>
        <div className="grid gap-3 sm:grid-cols-2" {...describedBy("primaryGoal", errors.primaryGoal)}>
          {PRIMARY_GOALS.map((g) => (
            <RadioCard
              key={g.id}
              name="primaryGoal"
              value={g.id}
              checked={s(values.primaryGoal) === g.id}
              className="flex cursor-pointer items-center gap-3 rounded-field border border-line-strong bg-white px-4 py-3"
            >
              {g.label}
            </RadioCard>
          ))}
        </div>
        <FieldError id="primaryGoal" error={errors.primaryGoal} />
      </fieldset>
      <AudienceField value={s(values.targetAudience)} error={errors.targetAudience} />
    </div>
  );
}

export function Step3({ values, errors }: { values: Values; errors: Errors }) {
  return (
    <div className="space-y-8">
      <fieldset className="space-y-4">
        <legend className="field-label">Websites you like (at least one)</legend>
        {[1, 2, 3].map((n) => {
          const id = `inspiration${n}`;
          return (
            <div key={id}>
              <label htmlFor={id} className="sr-only">
                Inspiration website {n}
              </label>
              <input
                id={id}
                name={id}
                type="url"
                inputMode="url"
                placeholder="https://"
                defaultValue={s(values[id])}
                className="field-input"
                {...describedBy(id, errors[id])}
              />
              <FieldError id={id} error={errors[id]} />
            </div>
          );
        })}
      </fieldset>
      <TextAreaField
        id="mustHaveFeatures"
        label="Must-have features"
        error={errors.mustHaveFeatures}
        hint="At least 20 characters: pages, integrations, anything essential."
        rows={4}
        value={s(values.mustHaveFeatures)}
      />
      <TextAreaField
        id="niceToHaveFeatures"
        label="Nice-to-have features"
        optional
        rows={3}
        value={s(values.niceToHaveFeatures)}
      />
    </div>
  );
}

export function Step4({
  values,
  errors,
  selection,
  addOns,
  campaign,
  catalogue,
  earliest,
  computed,
  enhanced,
}: {
  values: Values;
  errors: Errors;
  selection: Selection;
  addOns: AddOn[];
  campaign?: { badge: string; title: string; requirement: string; discountPercent: number };
  catalogue: Catalogue | null;
  earliest: string;
  computed: boolean;
  /** JavaScript runs: the total follows every change, no Update button. */
  enhanced: boolean;
}) {
  const [sel, setSel] = useState(selection);
  const prices = catalogue ?? EMPTY_CATALOGUE;
  const price = computeTotal(sel, { catalogue: prices, context: "booking" });
  const flex = s(values.timelineFlexibility) || "flexible";
  return (
    <div className="space-y-8">
      <div className="grid gap-6 sm:grid-cols-2">
        <InputField
          id="preferredStartDate"
          label="Preferred start date"
          hint="At least 2 weeks from today."
          type="date"
          min={earliest}
          value={s(values.preferredStartDate)}
          error={errors.preferredStartDate}
        />
        <fieldset>
          <legend className="field-label">Timeline</legend>
          <div className="grid grid-cols-2 gap-3">
            {TIMELINE_OPTIONS.map((o) => (
              <RadioCard
                key={o.id}
                name="timelineFlexibility"
                value={o.id}
                checked={flex === o.id}
                className="flex cursor-pointer items-center gap-2 rounded-field border border-line-strong bg-white px-4 py-2.5"
              >
                {o.label}
              </RadioCard>
            ))}
          </div>
          <FieldError id="timelineFlexibility" error={errors.timelineFlexibility} />
        </fieldset>
      </div>

      {addOns.length ? (
        <fieldset>
          <legend className="field-label">Add-ons</legend>
          <ul className="divide-y divide-line rounded-card border border-line bg-white">
            {addOns.map((a) => {
              const checked = sel.selectedAddOns.includes(a.id);
              const qty = sel.addOnQuantities[a.id] ?? 1;
              return (
                <li
                  key={a.id}
                  className="group/addon flex flex-wrap items-center justify-between gap-x-3 gap-y-2 px-4 py-3"
                >
                  <label className="flex min-w-0 grow basis-60 cursor-pointer items-start gap-3">
                    <input
                      type="checkbox"
                      name="selectedAddOns"
                      value={a.id}
                      checked={checked}
                      onChange={() => setSel(toggleAddOn(sel, a.id))}
                      className="mt-1 h-4 w-4 rounded border-line-strong text-accent focus:ring-accent"
                    />
                    <span>
                      <span className="block font-medium">{a.name}</span>
                      <span className="block text-sm text-ink-muted">
                        {formatDollars(a.price)}
                        {a.allowMultiple ? ` each · up to ${a.maxQuantity}` : ""}
                      </span>
                    </span>
                  </label>
                  {a.allowMultiple ? (
                    <QuantityStepper
                      label={a.name}
                      name={`addOnQuantities.${a.id}`}
                      value={qty}
                      max={a.maxQuantity}
                      selected={checked}
                      onChange={(q) => setSel(setQuantity(sel, a.id, q, prices))}
                      submit={{ name: "intent", decrease: `decrease:${a.id}`, increase: `increase:${a.id}` }}
                    />
                  ) : null}
                </li>
              );
            })}
          </ul>
        </fieldset>
      ) : null}

      {campaign ? (
        <label className="flex cursor-pointer items-start gap-3 rounded-card border border-accent/30 bg-accent-soft/60 p-5">
          <input
            type="checkbox"
            name="campaignAccepted"
            checked={sel.campaignAccepted}
            onChange={(e) => setSel({ ...sel, campaignAccepted: e.target.checked })}
            className="mt-1 h-4 w-4 rounded border-line-strong text-accent focus:ring-accent"
          />
          <span>
            <span className="inline-flex rounded-full bg-accent px-2 py-0.5 text-xs font-bold text-white">
              {campaign.badge}
            </span>
            <span className="mt-1 block font-semibold">{campaign.title}</span>
            <span className="block text-sm text-ink-muted">{campaign.requirement}</span>
          </span>
        </label>
      ) : null}

      <div className="flex flex-wrap items-center justify-between gap-3 rounded-card bg-paper-sunk px-5 py-4">
        <span className="text-sm font-medium">
          {computed ? "Estimated total" : "Add-ons (quoted with your project)"}
        </span>
        <span className="flex items-center gap-4">
          {/* Without JavaScript the total is computed by the server: this re-renders the step with it. */}
          {!enhanced && addOns.length ? (
            <button type="submit" name="intent" value="update" formNoValidate className="btn-ghost px-4 py-1.5 text-sm">
              Update total
            </button>
          ) : null}
          <output aria-live="polite" className="font-display text-3xl" data-testid="booking-total">
            {computed ? formatDollars(price.total) : "$15k-25k+"}
          </output>
        </span>
      </div>
    </div>
  );
}
