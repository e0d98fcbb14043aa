/**
 * Waits for `read` to give a value (sync or async), asked every 50 ms, and resolves with it; fails
 * naming `what` after `ms` (a guard against what never happens, not a measure).
 */
export async function until<T>(
  what: string,
  read: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 15_000,
): Promise<T> {
  for (const deadline = Date.now() + ms; ;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
