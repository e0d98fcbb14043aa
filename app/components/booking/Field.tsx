import type { ElementType, InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";

export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="field-error" role="alert">
      {error}
    </p>
  ) : null;
}

export function Field({
  id,
  label,
  error,
  hint,
  children,
  optional,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  children: ReactNode;
  optional?: boolean;
}) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
        {optional ? <span className="ml-1 font-normal text-ink-muted">(optional)</span> : null}
      </label>
      {children}
      {hint ? <div className="mt-1.5 text-sm text-ink-muted">{hint}</div> : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

/** Props that tie an input to its error message for screen readers. */
export function describedBy(id: string, error?: string) {
  return error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

type FramedProps = { id: string; label: string; value: string; error?: string; hint?: ReactNode; optional?: boolean };
type ControlAttributes<A> = Omit<A, "id" | "name" | "value" | "defaultValue" | "className">;

/**
 * A text control in its Field: named as its id, showing what was typed, its message tied to it for
 * screen readers. Other attributes (type, autoComplete, min, rows, placeholder...) pass through.
 */
function framed<A>(tag: "input" | "textarea") {
  const Control = tag as ElementType;
  return function FramedField({
    id,
    label,
    value,
    error,
    hint,
    optional,
    ...attributes
  }: FramedProps & ControlAttributes<A>) {
    return (
      <Field id={id} label={label} optional={optional} error={error} hint={hint}>
        <Control
          id={id}
          name={id}
          {...attributes}
          defaultValue={value}
          className="field-input"
          {...describedBy(id, error)}
        />
      </Field>
    );
  };
}

/** A one-line field (see framed). */
export const InputField = framed<InputHTMLAttributes<HTMLInputElement>>("input");
/** A multi-line field (see framed). */
export const TextAreaField = framed<TextareaHTMLAttributes<HTMLTextAreaElement>>("textarea");
