/**
 * `{name}` placeholders in an owner's text filled in (issue 40.2): in one pass, each value inserted
 * literally. A `$` in a value is a dollar sign, never a replacement pattern (`$&`, `$'`), and a
 * value holding `{another}` is not filled again, so what comes out is at most the saved text plus
 * one value per placeholder. Names not in `values` stay as written.
 */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{([a-z]+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}
