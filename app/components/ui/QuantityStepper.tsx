import { Minus, Plus } from "lucide-react";
import { useEffect, useState, type MouseEvent } from "react";

/**
 * An add-on's quantity: − and + buttons around a number box (SPEC §4: minimum 1, at 1 the −
 * removes the add-on; the caller decides that through `onChange(quantity - 1)`). The box keeps
 * what is being typed until it is a whole number, so clearing it and typing "4" gives 4.
 *
 * Until the add-on is chosen only + shows (it chooses it): the − and the box appear once the row's
 * checkbox is checked, by CSS (`group/addon` on the row), so also without JavaScript.
 *
 * `submit` makes the buttons submit buttons (name/value) so a form without JavaScript can apply
 * them on the server; with JavaScript the click is handled here and the form is not sent.
 */
/** Hidden until the row (`group/addon`) has its checkbox checked (whole strings, for Tailwind to find). */
const SHOWN_WHEN_CHOSEN_FLEX = "hidden group-has-[:checked]/addon:flex";
const SHOWN_WHEN_CHOSEN_BLOCK = "hidden group-has-[:checked]/addon:block";

export function QuantityStepper({
  label,
  name,
  value,
  max,
  selected,
  onChange,
  submit,
  enabled = true,
}: {
  /** The add-on's name, for the buttons' and the box's accessible names. */
  label: string;
  name: string;
  value: number;
  max: number;
  selected: boolean;
  onChange: (quantity: number) => void;
  submit?: { name: string; decrease: string; increase: string };
  /** False before hydration where the buttons only work with JavaScript. */
  enabled?: boolean;
}) {
  const [draft, setDraft] = useState(String(value));
  useEffect(() => setDraft(String(value)), [value]);

  const click = (next: number) => (e: MouseEvent<HTMLButtonElement>) => {
    e.preventDefault();
    onChange(next);
  };
  const button =
    "stepper-btn flex h-9 w-9 shrink-0 items-center justify-center rounded-full border border-line-strong text-ink hover:bg-paper-sunk focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ink disabled:opacity-40";
  /** − or +: a submit button without JavaScript (its intent as value), a plain button with it. */
  const step = (kind: "decrease" | "increase", next: number, disabled: boolean) => (
    <button
      key={kind}
      type={submit ? "submit" : "button"}
      name={submit?.name}
      value={submit?.[kind]}
      formNoValidate
      className={kind === "decrease" ? `${button} ${SHOWN_WHEN_CHOSEN_FLEX}` : button}
      onClick={click(next)}
      disabled={disabled}
      aria-label={`${kind === "decrease" ? "Decrease" : "Increase"} quantity of ${label}`}
    >
      {kind === "decrease" ? (
        <Minus aria-hidden="true" className="h-4 w-4" />
      ) : (
        <Plus aria-hidden="true" className="h-4 w-4" />
      )}
    </button>
  );
  return (
    <div className="ml-auto flex items-center gap-1" role="group" aria-label={`${label} quantity`}>
      {step("decrease", value - 1, !enabled || !selected)}
      <input
        type="number"
        inputMode="numeric"
        name={name}
        min={1}
        max={max}
        step={1}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          const n = Number(e.target.value);
          if (e.target.value.trim() !== "" && Number.isInteger(n) && n >= 1) {
            const clamped = Math.min(max, n);
            onChange(clamped);
            if (clamped !== n) setDraft(String(clamped));
          }
        }}
        onBlur={() => setDraft(String(value))}
        aria-label={`${label} quantity`}
        className={`field-input w-16 px-2 py-1.5 text-center ${SHOWN_WHEN_CHOSEN_BLOCK}`}
      />
      {step("increase", selected ? value + 1 : 1, !enabled || (selected && value >= max))}
    </div>
  );
}
