import type { ReactNode } from "react";

/**
 * The console's form fields (Settings, templates), each driven by conform's field metadata: its
 * name, ids, what it held and its messages, shown under the field.
 */

/** What an input needs of conform's field: its name, ids, what it held and its messages. */
export type FormField = {
  name: string;
  id: string;
  errorId: string;
  descriptionId: string;
  initialValue?: unknown;
  errors?: string[];
  key?: string;
};

const text = (v: unknown) => (typeof v === "string" ? v : v === undefined || v === null ? "" : String(v));

function aria(field: FormField, hint?: ReactNode) {
  const ids = [hint ? field.descriptionId : "", field.errors?.length ? field.errorId : ""].filter(Boolean);
  return {
    "aria-invalid": field.errors?.length ? (true as const) : undefined,
    "aria-describedby": ids.length ? ids.join(" ") : undefined,
  };
}

function Message({ field }: { field: FormField }) {
  return field.errors?.length ? (
    <p id={field.errorId} className="field-error">
      {field.errors[0]}
    </p>
  ) : null;
}

function Hint({ field, hint }: { field: FormField; hint?: ReactNode }) {
  return hint ? (
    <p id={field.descriptionId} className="mt-1.5 text-sm text-ink-muted">
      {hint}
    </p>
  ) : null;
}

/**
 * A field's frame: its visible label above the control, then its hint and message. `beside` puts
 * the label to the left of the control from 640 px (a column of short rows, such as a week's days).
 */
function Labelled({
  field,
  label,
  hint,
  className,
  beside,
  children,
}: {
  field: FormField;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  beside?: boolean;
  children: ReactNode;
}) {
  if (beside)
    return (
      <div className={`sm:grid sm:grid-cols-[8rem_minmax(0,1fr)] sm:gap-x-4 ${className ?? ""}`}>
        <label htmlFor={field.id} className="field-label sm:mb-0 sm:pt-3">
          {label}
        </label>
        <div className="min-w-0">
          {children}
          <Hint field={field} hint={hint} />
          <Message field={field} />
        </div>
      </div>
    );
  return (
    <div className={className}>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      {children}
      <Hint field={field} hint={hint} />
      <Message field={field} />
    </div>
  );
}

/** A one-line field with its visible label, hint and message. */
export function TextInput({
  field,
  label,
  hint,
  type = "text",
  inputMode,
  prefix,
  className = "",
  maxLength,
  placeholder,
  required,
  min,
  step,
  labelBeside,
  autoComplete,
}: {
  field: FormField;
  label: ReactNode;
  hint?: ReactNode;
  type?: "text" | "email" | "url" | "number" | "password";
  inputMode?: "numeric" | "decimal" | "email" | "url" | "text";
  prefix?: string;
  className?: string;
  maxLength?: number;
  placeholder?: string;
  required?: boolean;
  min?: string;
  step?: string;
  /** The label to the left of the input from 640 px. */
  labelBeside?: boolean;
  /** What the browser may fill in (a password for another service: "new-password"). */
  autoComplete?: string;
}) {
  const input = (
    <input
      key={field.key}
      id={field.id}
      name={field.name}
      type={type}
      inputMode={inputMode}
      autoComplete={autoComplete}
      defaultValue={text(field.initialValue)}
      maxLength={maxLength}
      placeholder={placeholder}
      required={required}
      min={min}
      step={step}
      className={`field-input ${prefix ? "pl-7" : ""}`}
      {...aria(field, hint)}
    />
  );
  return (
    <Labelled field={field} label={label} hint={hint} className={className} beside={labelBeside}>
      {prefix ? (
        <div className="relative">
          <span
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-ink-muted"
          >
            {prefix}
          </span>
          {input}
        </div>
      ) : (
        input
      )}
    </Labelled>
  );
}

/** A text area with its visible label, hint and message. */
export function TextArea({
  field,
  label,
  hint,
  rows = 4,
  className = "",
  required,
}: {
  field: FormField;
  label: ReactNode;
  hint?: ReactNode;
  rows?: number;
  className?: string;
  required?: boolean;
}) {
  return (
    <Labelled field={field} label={label} hint={hint} className={className}>
      <textarea
        key={field.key}
        id={field.id}
        name={field.name}
        rows={rows}
        required={required}
        defaultValue={text(field.initialValue)}
        className="field-input leading-relaxed"
        {...aria(field, hint)}
      />
    </Labelled>
  );
}

/** A checkbox with its label beside it. */
export function Checkbox({ field, label, hint }: { field: FormField; label: string; hint?: ReactNode }) {
  return (
    <div>
      <label htmlFor={field.id} className="flex cursor-pointer items-start gap-3">
        <input
          key={field.key}
          id={field.id}
          name={field.name}
          type="checkbox"
          defaultChecked={field.initialValue === "on" || field.initialValue === true}
          className="mt-1 h-4 w-4 rounded border-line-strong text-accent focus:ring-accent"
          {...aria(field, hint)}
        />
        <span className="text-sm font-medium text-ink">{label}</span>
      </label>
      {hint ? (
        <p id={field.descriptionId} className="ml-7 mt-1 text-sm text-ink-muted">
          {hint}
        </p>
      ) : null}
      <Message field={field} />
    </div>
  );
}

/** A select with its visible label, hint and message. */
export function Select({
  field,
  label,
  options,
  required,
  hint,
  className,
}: {
  field: FormField;
  label: ReactNode;
  options: { value: string; label: string }[];
  required?: boolean;
  hint?: ReactNode;
  className?: string;
}) {
  return (
    <Labelled field={field} label={label} hint={hint} className={className}>
      <select
        key={field.key}
        id={field.id}
        name={field.name}
        required={required}
        defaultValue={text(field.initialValue)}
        className="field-input"
        {...aria(field, hint)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </Labelled>
  );
}

/**
 * One choice of a few, each a card with its label and hint (the hint tied to its button for screen
 * readers); the whole card picks it, and the picked one is outlined in ink. The message is under
 * the cards, tied to every button.
 */
export function RadioGroup({
  field,
  legend,
  options,
}: {
  field: FormField;
  legend: ReactNode;
  options: { value: string; label: string; hint?: ReactNode }[];
}) {
  const chosen = text(field.initialValue);
  const invalid = Boolean(field.errors?.length);
  return (
    <fieldset>
      <legend className="field-label">{legend}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {options.map((o, i) => {
          // The first button carries the field's own id, so a message's link to the field lands on it.
          const id = i === 0 ? field.id : `${field.id}-${o.value}`;
          const hintId = `${field.id}-${o.value}-hint`;
          const describedBy = [o.hint ? hintId : "", invalid ? field.errorId : ""].filter(Boolean).join(" ");
          return (
            <div
              key={o.value}
              className="relative flex items-start gap-3 rounded-field border border-line-strong bg-white p-4 has-[:checked]:border-ink has-[:checked]:ring-1 has-[:checked]:ring-ink"
            >
              <input
                key={field.key}
                id={id}
                type="radio"
                name={field.name}
                value={o.value}
                defaultChecked={chosen === o.value}
                className="mt-0.5 h-4 w-4 shrink-0 border-line-strong text-ink focus:ring-ink"
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy || undefined}
              />
              <div>
                {/* The label's box covers the card: a tap anywhere on it picks this choice. */}
                <label
                  htmlFor={id}
                  className="cursor-pointer font-semibold leading-tight text-ink after:absolute after:inset-0 after:rounded-field"
                >
                  {o.label}
                </label>
                {o.hint ? (
                  <p id={hintId} className="mt-1 text-sm text-ink-muted">
                    {o.hint}
                  </p>
                ) : null}
              </div>
            </div>
          );
        })}
      </div>
      <Message field={field} />
    </fieldset>
  );
}

/** A group of fields under a heading. */
export function Group({ title, children, description }: { title: string; description?: string; children: ReactNode }) {
  return (
    <fieldset className="rounded-card border border-line bg-paper-raised p-5 sm:p-6">
      <legend className="float-left mb-4 w-full font-display text-2xl">{title}</legend>
      {description ? <p className="clear-left -mt-2 mb-4 text-sm text-ink-muted">{description}</p> : null}
      <div className="clear-left grid gap-5">{children}</div>
    </fieldset>
  );
}
