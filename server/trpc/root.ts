import { lazy } from "@trpc/server";
import { checkoutRouter, downloadsRouter, purchasesRouter } from "./routers/shop";
import { templatesRouter } from "./routers/templates";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  templates: templatesRouter,
  purchases: purchasesRouter,
  checkout: checkoutRouter,
  downloads: downloadsRouter,
  // The console's procedures are built at the first call of one of them (over HTTP or from a
  // console loader's caller), not at every start: their definitions and input schemas were some
  // 5 ms of a cold start that serves visitors first (issue 42.4, decision 047).
  admin: lazy(() => import("./routers/admin").then((m) => m.adminRouter)),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
