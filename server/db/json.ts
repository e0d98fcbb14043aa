/**
 * Typed helpers for list columns stored as JSON text.
 * Reading never throws: corrupt text yields the fallback (and is logged once).
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

export function fromJson<T>(text: string | null | undefined, fallback: T): T {
  if (text == null || text === "") return fallback;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (Array.isArray(fallback) && !Array.isArray(parsed)) return fallback;
    return (parsed ?? fallback) as T;
  } catch {
    console.warn("[db] ignoring corrupt JSON column value");
    return fallback;
  }
}

export function stringList(text: string | null | undefined): string[] {
  return fromJson<unknown[]>(text, []).filter((v): v is string => typeof v === "string");
}

/** Current time as a UTC ISO-8601 string, the one timestamp format of the database. */
export function nowIso(date: Date = new Date()): string {
  return date.toISOString();
}
