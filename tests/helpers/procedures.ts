import type { AnyTRPCRouter } from "@trpc/server";

type RouterDef = {
  procedures: Record<string, { _def: { type: string } }>;
  lazy: Record<string, { load(): Promise<void> }>;
};

/**
 * Every procedure of `router` by its dotted path, the lazily loaded routers (the console's,
 * server/trpc/root.ts) loaded first: until its first call a lazy router's procedures are not listed.
 */
export async function everyProcedure(router: AnyTRPCRouter): Promise<RouterDef["procedures"]> {
  const def = router._def as unknown as RouterDef;
  // Loading one can reveal lazy routers nested in it.
  while (Object.keys(def.lazy).length) await Promise.all(Object.values(def.lazy).map((l) => l.load()));
  return def.procedures;
}
