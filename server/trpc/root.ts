import { adminRouter } from "./routers/admin";
import { checkoutRouter, downloadsRouter, purchasesRouter } from "./routers/shop";
import { templatesRouter } from "./routers/templates";
import { createCallerFactory, createTRPCRouter } from "./trpc";

export const appRouter = createTRPCRouter({
  templates: templatesRouter,
  purchases: purchasesRouter,
  checkout: checkoutRouter,
  downloads: downloadsRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
