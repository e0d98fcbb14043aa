import { z } from "zod";
import { log } from "../log.server";

/**
 * JSON columns (lists and records stored as TEXT), read through their zod schemas (issue 20.2):
 * what the code gets is what the type says, whatever the row holds. Reading never throws:
 * corrupt text or a value of the wrong shape yields the fallback (and is logged).
 */
export function toJson(value: unknown): string {
  return JSON.stringify(value ?? null);
}

function parseText(text: string | null | undefined): unknown {
  if (text == null || text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    log.warn("[db] ignoring corrupt JSON column value");
    return undefined;
  }
}

/** A JSON column read through `schema`; `fallback` when it is empty, corrupt or of another shape. */
export function fromJson<T>(
  text: string | null | undefined,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  fallback: T,
): T {
  const value = parseText(text);
  if (value === undefined || value === null) return fallback;
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  log.warn(`[db] ignoring a JSON column value of the wrong shape: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return fallback;
}

/** A JSON list column: the items that match `item` (others are dropped and logged). */
export function listFromJson<T>(text: string | null | undefined, item: z.ZodType<T, z.ZodTypeDef, unknown>): T[] {
  const value = parseText(text);
  if (!Array.isArray(value)) return [];
  const out: T[] = [];
  for (const v of value) {
    const parsed = item.safeParse(v);
    if (parsed.success) out.push(parsed.data);
  }
  if (out.length < value.length) log.warn(`[db] dropped ${value.length - out.length} list item(s) of the wrong shape`);
  return out;
}

export function stringList(text: string | null | undefined): string[] {
  return listFromJson(text, z.string());
}

/** Current time as a UTC ISO-8601 string, the one timestamp format of the database. */
export function nowIso(date: Date = new Date()): string {
  return date.toISOString();
}
