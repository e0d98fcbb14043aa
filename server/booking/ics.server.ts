/**
 * The consultation call as an iCalendar file (RFC 5545), written by hand: one VEVENT with a UID
 * stable per booking, a SEQUENCE that grows when the call moves, the join link, and two display
 * alarms (`TRIGGER:-PT24H`, `TRIGGER:-PT1H`). Lines end in CRLF and are folded at 75 octets
 * without splitting a UTF-8 character; TEXT values are escaped (decision 014).
 */

export type IcsCall = {
  bookingId: string;
  /** Host of the site (APP_URL), the UID's domain part. */
  host: string;
  startAt: string;
  endAt: string;
  sequence: number;
  /** When this version of the call was learnt (DTSTAMP); stable, so the same call gives the same file. */
  stampAt: string;
  status: "scheduled" | "cancelled";
  summary: string;
  description: string;
  joinUrl: string | null;
  /** Where it happens in words (LOCATION): the join link, or a phone call; null: none known. */
  location?: string | null;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
};

/** `REQUEST` for the email attachment (an invitation), `PUBLISH` for the download (an import). */
export type IcsMethod = "REQUEST" | "PUBLISH";

/** Control characters other than newline and tab: not allowed in a content line (§3.1). */
function withoutControls(value: string, keepNewlines: boolean): string {
  let out = "";
  for (const ch of value) {
    const c = ch.charCodeAt(0);
    if ((c < 0x20 && !(keepNewlines && (c === 0x0a || c === 0x09))) || c === 0x7f) continue;
    out += ch;
  }
  return out;
}

/** RFC 5545 §3.3.11: backslash, semicolon, comma and newlines escaped. */
export function escapeText(value: string): string {
  return withoutControls(value.replace(/\r\n?/g, "\n"), true)
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\n/g, "\\n");
}

/** A parameter value (CN=...), always quoted; it may hold no DQUOTE or control character (§3.2). */
function paramValue(value: string): string {
  return `"${withoutControls(value, false).replace(/"/g, "")}"`;
}

/** A mail address fit for a `mailto:` URI value (anything odd is dropped). */
function mailto(email: string): string {
  return `mailto:${email.replace(/[^A-Za-z0-9.!#$%&'*+/=?^_`{|}~@-]/g, "")}`;
}

/** `20260303T130000Z` */
export function icsUtc(iso: string): string {
  return new Date(iso)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** Folds one content line into chunks of at most 75 octets, continuation lines led by a space. */
export function foldLine(line: string): string {
  const bytes = Buffer.from(line, "utf8");
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Never cut inside a UTF-8 sequence: back up over continuation bytes (10xxxxxx).
    while (end < bytes.length && end > start && (bytes[end] & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString("utf8"));
    start = end;
    limit = 74; // the leading space counts
  }
  return parts.join("\r\n ");
}

/** One call's VEVENT: its lines, unfolded. */
export function eventLines(call: IcsCall): string[] {
  const location = call.location ?? call.joinUrl;
  return [
    "BEGIN:VEVENT",
    `UID:booking-${call.bookingId.replace(/[^A-Za-z0-9-]/g, "")}@${call.host.replace(/[^A-Za-z0-9.-]/g, "")}`,
    `DTSTAMP:${icsUtc(call.stampAt)}`,
    `SEQUENCE:${Math.max(0, Math.floor(call.sequence))}`,
    `DTSTART:${icsUtc(call.startAt)}`,
    `DTEND:${icsUtc(call.endAt)}`,
    `SUMMARY:${escapeText(call.summary)}`,
    `DESCRIPTION:${escapeText(call.description)}`,
    ...(location ? [`LOCATION:${escapeText(location)}`] : []),
    ...(call.joinUrl ? [`URL:${call.joinUrl}`] : []),
    `STATUS:${call.status === "cancelled" ? "CANCELLED" : "CONFIRMED"}`,
    "TRANSP:OPAQUE",
    `ORGANIZER;CN=${paramValue(call.organizer.name)}:${mailto(call.organizer.email)}`,
    `ATTENDEE;CN=${paramValue(call.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:${mailto(call.attendee.email)}`,
    ...alarm("-PT24H", `${call.summary} starts in 24 hours`),
    ...alarm("-PT1H", `${call.summary} starts in 1 hour`),
    "END:VEVENT",
  ];
}

/** A calendar of `events` (each an eventLines), folded, CRLF line ends. `name` titles a feed. */
export function icsCalendar(method: "REQUEST" | "PUBLISH" | "CANCEL", events: string[][], name?: string): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Studio site//Consultation//EN",
    "CALSCALE:GREGORIAN",
    `METHOD:${method}`,
    ...(name ? [`X-WR-CALNAME:${escapeText(name)}`] : []),
    ...events.flat(),
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join("\r\n") + "\r\n";
}

export function callIcs(call: IcsCall, method: IcsMethod): string {
  return icsCalendar(method === "REQUEST" && call.status === "cancelled" ? "CANCEL" : method, [eventLines(call)]);
}

function alarm(trigger: string, description: string): string[] {
  return [
    "BEGIN:VALARM",
    "ACTION:DISPLAY",
    `DESCRIPTION:${escapeText(description)}`,
    `TRIGGER:${trigger}`,
    "END:VALARM",
  ];
}
