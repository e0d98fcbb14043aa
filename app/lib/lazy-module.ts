import { useEffect, useState } from "react";

/**
 * A module the first render of a page never shows (it appears only once JavaScript runs, after a
 * click or as an enhancement), loaded apart from the route's code so the page ships less script.
 * `preload()` starts loading it (once; again after a failure); `useModule(wanted)` gives it, null
 * until it has arrived, so the caller keeps showing what it showed before (no fallback, no flash).
 */
export function lazyModule<T>(load: () => Promise<T>) {
  let loaded: T | null = null;
  let pending: Promise<T> | null = null;
  function preload(): Promise<T> {
    pending ??= load().then(
      (m) => (loaded = m),
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  }
  function useModule(wanted = true): T | null {
    const [mod, setMod] = useState(loaded);
    useEffect(() => {
      if (mod || !wanted) return;
      let live = true;
      preload().then(
        (m) => live && setMod(() => m),
        (error: unknown) => console.warn("[lazy] a module could not be loaded", error),
      );
      return () => {
        live = false;
      };
    }, [mod, wanted]);
    return mod;
  }
  return { preload, useModule };
}
