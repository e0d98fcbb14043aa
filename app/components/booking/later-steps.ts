import { lazyModule } from "~/lib/lazy-module";

/** The wizard's later-step enhancements (./enhancements), loaded apart and kept once loaded. */
export const laterSteps = lazyModule(() => import("./enhancements"));
