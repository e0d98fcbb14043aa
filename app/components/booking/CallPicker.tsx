import { Link, useNavigate } from "@remix-run/react";
import { ChevronLeft, ChevronRight, Clock } from "lucide-react";
import { useEffect } from "react";
import type { CallPicker as Picker } from "../../../server/booking/call-picker.server";
import { FieldError } from "./Field";

/** `path` with more query parameters. */
const withQuery = (path: string, query: string) => `${path}${path.includes("?") ? "&" : "?"}${query}`;

/**
 * Step 6's own calendar (issue 43.4): the next days with free times, each time a radio of the
 * step's plain form, so a booking completes with JavaScript off. The zone select changes the zone
 * the times are shown in (its button without JavaScript; at once with it); with JavaScript, a first
 * visit is shown its browser's zone. Every label comes from the server.
 */
export function CallPicker({
  picker,
  error,
  path = "/booking?step=6",
  title = "Pick a time for your call",
  empty = "Confirm your booking and we will email you to find a time together.",
}: {
  picker: Picker;
  error?: string;
  /** The page the times are on (step 6, or a call's own page): its links and zone changes stay there. */
  path?: string;
  title?: string;
  /** What follows "There are no free times in the next N days." */
  empty?: string;
}) {
  const navigate = useNavigate();
  const showZone = (zone: string) =>
    navigate(withQuery(path, `tz=${encodeURIComponent(zone)}`), { replace: true, preventScrollReset: true });
  const pageLink = (start: string) => withQuery(path, `start=${start}&tz=${encodeURIComponent(picker.timeZone)}`);
  useEffect(() => {
    if (picker.chosen) return;
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (browser && browser !== picker.timeZone && picker.zones.includes(browser)) showZone(browser);
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <section aria-labelledby="call-title" className="mt-10 rounded-card border border-line bg-white p-5 sm:p-6">
      <h2 id="call-title" className="text-2xl">
        {title}
      </h2>
      <p className="mt-2 flex items-center gap-2 text-sm text-ink-muted">
        <Clock aria-hidden="true" className="h-4 w-4 shrink-0" />
        {picker.minutes} minutes, {picker.place === "video" ? "by video call" : "by phone"}. Times are shown in{" "}
        {picker.zoneLabel}.
      </p>

      <div className="mt-5 flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 sm:max-w-sm">
          <label htmlFor="callTimeZone" className="field-label">
            Your time zone
          </label>
          <select
            id="callTimeZone"
            name="callTimeZone"
            defaultValue={picker.timeZone}
            key={picker.timeZone}
            className="field-input pr-10"
            onChange={(e) => showZone(e.currentTarget.value)}
          >
            {picker.zones.map((z) => (
              <option key={z} value={z}>
                {z.replace(/_/g, " ")}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" name="intent" value="timezone" formNoValidate className="btn-ghost">
          Show times
        </button>
      </div>

      <FieldError id="slot" error={error} />

      {picker.days.length === 0 ? (
        <p className="mt-6 rounded-field bg-paper-raised px-4 py-3 text-sm">
          There are no free times in the next {picker.windowDays} days. {empty}
        </p>
      ) : (
        <div className="mt-6 grid gap-6">
          {picker.days.map((day, d) => (
            <fieldset key={day.date}>
              <legend className="text-sm font-semibold">{day.label}</legend>
              <div className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-5">
                {day.slots.map((slot, i) => (
                  <label key={slot.start} className="relative block">
                    <input
                      type="radio"
                      name="slot"
                      value={slot.start}
                      required={d === 0 && i === 0}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? "slot-error" : undefined}
                      className="peer slot-input"
                    />
                    <span className="slot-label">{slot.label}</span>
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
        </div>
      )}

      {picker.earlier || picker.later ? (
        <nav aria-label="More dates" className="mt-6 flex justify-between gap-3">
          {picker.earlier ? (
            <Link to={pageLink(picker.earlier)} preventScrollReset className="btn-ghost">
              <ChevronLeft aria-hidden="true" className="h-4 w-4" /> Earlier dates
            </Link>
          ) : (
            <span />
          )}
          {picker.later ? (
            <Link to={pageLink(picker.later)} preventScrollReset className="btn-ghost">
              Later dates <ChevronRight aria-hidden="true" className="h-4 w-4" />
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
