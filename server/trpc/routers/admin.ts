import { adminStats } from "../../admin/stats.server";
import { adminProcedure, createTRPCRouter } from "../trpc";
import { backupsRouter } from "./admin/backups";
import { bookingsRouter } from "./admin/bookings";
import { mailRouter } from "./admin/mail";
import { moneyRouter } from "./admin/money";
import { proposalsRouter } from "./admin/proposals";
import { purchasesRouter } from "./admin/purchases";
import { templatesRouter } from "./admin/templates";

/** The console's procedures (admins only), one file per domain under routers/admin/. */
export const adminRouter = createTRPCRouter({
  stats: adminProcedure.query(({ ctx }) => adminStats(ctx.db)),
  backups: backupsRouter,
  mail: mailRouter,
  money: moneyRouter,
  templates: templatesRouter,
  bookings: bookingsRouter,
  purchases: purchasesRouter,
  proposals: proposalsRouter,
});
