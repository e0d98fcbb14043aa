/**
 * What of a posted form reaches conform's parser. Conform reads dotted and bracketed names as
 * paths (`items[3].quote`) and its own `__intent__` and `__state__` as JSON: a hostile
 * `items[99999999].quote` would build a 100-million-element array, and bad JSON would throw.
 * Every form of the house passes one of these two filters first (issue 40.5). Client-safe.
 */

const INTENT_NAME = "__intent__";
const STATE_NAME = "__state__";

/**
 * Plain names only (`a` or `a.b`), as the booking steps and the setup form post: no list can be
 * built. In the browser the form is the page's own and carries conform's intents (`intents: true`).
 */
const PLAIN_NAME = /^[A-Za-z][\w-]{0,63}(\.[\w-]{1,64})?$/;
export function plainEntries(form: FormData, intents: boolean): FormData {
  const out = new FormData();
  for (const [k, v] of form.entries()) if (PLAIN_NAME.test(k) || (intents && k === INTENT_NAME)) out.append(k, v);
  return out;
}

/** The largest list index a form with lists (Settings) posts: its longest list holds 20 rows. */
export const MAX_LIST_INDEX = 49;

const LIST_NAME = /^[A-Za-z][\w-]{0,63}(?:\[\d{1,3}\]|\.[A-Za-z][\w-]{0,63}){0,4}$/;

/** A name whose every index is at most `maxIndex`. */
function boundedName(name: string, maxIndex: number): boolean {
  if (!LIST_NAME.test(name)) return false;
  for (const m of name.matchAll(/\[(\d+)\]/g)) if (Number(m[1]) > maxIndex) return false;
  return true;
}

/** Conform's intent or state as JSON: an object, and any index it names within bounds. */
function boundedJson(value: FormDataEntryValue, maxIndex: number): boolean {
  if (typeof value !== "string" || value.length > 10_000) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return false;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return false;
  const payload = (parsed as { payload?: unknown }).payload;
  if (payload && typeof payload === "object") {
    const { index, name } = payload as { index?: unknown; name?: unknown };
    if (index !== undefined && (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index > maxIndex))
      return false;
    if (name !== undefined && (typeof name !== "string" || !boundedName(name, maxIndex))) return false;
  }
  return true;
}

/**
 * Names with lists (`tiers[1].addOns[0].price`), each index at most `maxIndex` and at most four
 * levels deep; conform's intent and state only when they are JSON objects whose index is within
 * bounds. Anything else is dropped, so the schema sees at most `maxIndex + 1` rows of a list and
 * says what is wrong in the form's own words.
 */
export function listEntries(form: FormData, maxIndex = MAX_LIST_INDEX): FormData {
  const out = new FormData();
  for (const [k, v] of form.entries()) {
    if (k === INTENT_NAME || k === STATE_NAME ? boundedJson(v, maxIndex) : boundedName(k, maxIndex)) out.append(k, v);
  }
  return out;
}
