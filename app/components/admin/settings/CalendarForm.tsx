import type { ReactNode } from "react";
import { CALENDAR_PROVIDERS, hoursField, PROVIDER_LABELS, type CalendarProvider } from "#domain/calendar-settings";
import { WEEKDAY_NAMES, WEEKDAYS } from "#domain/availability";
import { Group, RadioGroup, Select, TextArea, TextInput } from "../form/fields";
import { SectionForm, useSettingsForm, type Reply, type Values } from "./section-form";

const PROVIDER_HINTS: Record<CalendarProvider, string> = {
  builtin:
    "Clients pick a free time on step 6 of the booking, with or without JavaScript; the times come from your hours below and your calendars.",
  calendly: "The embedded Calendly page from Settings → Studio's calendar link.",
};

/** The Calls group's numbers: each field, its label and (for one) its hint. */
const CALL_FIELDS = [
  ["callMinutes", "Call length (minutes)"],
  ["intervalMinutes", "Start a call every (minutes)"],
  ["bufferBeforeMinutes", "Buffer before (minutes)"],
  ["bufferAfterMinutes", "Buffer after (minutes)"],
  ["noticeHours", "Minimum notice (hours)"],
  ["windowDays", "Booking window (days)"],
  ["maxPerDay", "At most calls a day", "Empty: no limit"],
] as const;

/** An example of what to type, kept on one line. */
function Example({ children }: { children: ReactNode }) {
  return <span className="whitespace-nowrap">{children}</span>;
}

/**
 * Settings → Calendar (issue 43): where clients book the consultation call, the built-in
 * calendar's hours and rules, and the meeting place. Plain text fields, so it saves without
 * JavaScript; the section's schema names each problem under its field.
 */
export function CalendarForm({
  values,
  lastResult,
  timeZones,
}: {
  values: Values;
  lastResult: Reply;
  timeZones: string[];
}) {
  const [form, fields] = useSettingsForm<Record<string, string>>("calendar", values, lastResult);
  // What was saved (or just typed) stays a choice even where this runtime's list lacks it.
  const zone = typeof fields.timeZone.initialValue === "string" ? fields.timeZone.initialValue : "";
  const zones = zone && !timeZones.includes(zone) ? [zone, ...timeZones] : timeZones;
  return (
    <SectionForm form={form} section="calendar">
      <Group title="Booking the call">
        <RadioGroup
          field={fields.provider}
          legend="Where clients book the call"
          options={CALENDAR_PROVIDERS.map((p) => ({ value: p, label: PROVIDER_LABELS[p], hint: PROVIDER_HINTS[p] }))}
        />
      </Group>
      <Group title="Your hours">
        <Select
          field={fields.timeZone}
          label="Time zone"
          options={zones.map((z) => ({ value: z, label: z.replaceAll("_", " ") }))}
          className="sm:max-w-sm"
        />
        <div className="grid max-w-2xl gap-4">
          {WEEKDAYS.map((day) => (
            <TextInput
              key={day}
              field={fields[hoursField(day)]}
              label={WEEKDAY_NAMES[day]}
              placeholder="Closed"
              labelBeside
              hint={
                day === "1" ? (
                  <>
                    Ranges like <Example>09:00-12:00, 13:00-17:00</Example>. Empty: closed that day.
                  </>
                ) : undefined
              }
            />
          ))}
        </div>
      </Group>
      <Group title="Calls">
        <div className="grid items-start gap-5 sm:grid-cols-2 xl:grid-cols-3">
          {CALL_FIELDS.map(([name, label, hint]) => (
            <TextInput key={name} field={fields[name]} label={label} hint={hint} inputMode="numeric" maxLength={6} />
          ))}
        </div>
      </Group>
      <Group title="Date overrides">
        <TextArea
          field={fields.overrides}
          label="Days off and other hours"
          rows={4}
          hint={
            <>
              One date a line: <Example>2027-01-05 off</Example>, or <Example>2027-01-06 10:00-14:00</Example> for other
              hours that day.
            </>
          }
        />
      </Group>
      <Group title="Meeting place">
        <TextInput
          field={fields.meetingUrl}
          label="Your video call link"
          type="url"
          inputMode="url"
          placeholder="https://"
          maxLength={500}
          hint="Your own Zoom, Meet or Whereby room, sent with every booked call. Empty: you call the client on the phone number they gave."
        />
        <TextInput
          field={fields.cutoffHours}
          label="Clients may reschedule or cancel until (hours before the call)"
          inputMode="numeric"
          maxLength={6}
          className="sm:max-w-md"
        />
      </Group>
    </SectionForm>
  );
}
