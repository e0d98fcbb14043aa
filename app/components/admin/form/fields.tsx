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

/** A field's frame: its visible label above the control, then its hint and message. */
function Labelled({
  field,
  label,
  hint,
  className,
  children,
}: {
  field: FormField;
  label: ReactNode;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
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
}: {
  field: FormField;
  label: ReactNode;
  hint?: ReactNode;
  type?: "text" | "email" | "url" | "number";
  inputMode?: "numeric" | "decimal" | "email" | "url" | "text";
  prefix?: string;
  className?: string;
  maxLength?: number;
  placeholder?: string;
  required?: boolean;
  min?: string;
  step?: string;
}) {
  const input = (
    <input
      key={field.key}
      id={field.id}
      name={field.name}
      type={type}
      inputMode={inputMode}
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
    <Labelled field={field} label={label} hint={hint} className={className}>
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

/** A select with its visible label. */
export function Select({
  field,
  label,
  options,
  required,
}: {
  field: FormField;
  label: ReactNode;
  options: { value: string; label: string }[];
  required?: boolean;
}) {
  return (
    <Labelled field={field} label={label}>
      <select
        key={field.key}
        id={field.id}
        name={field.name}
        required={required}
        defaultValue={text(field.initialValue)}
        className="field-input"
        {...aria(field)}
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
