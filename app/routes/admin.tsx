import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { pageTitle } from "~/lib/seo";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { BookingsScreen } from "~/components/admin/bookings/BookingsScreen";
import { CONSOLE_TABS, ConsoleNav, type ConsoleTab } from "~/components/admin/ConsoleNav";
import { OVERVIEW_BOOKINGS, OVERVIEW_PURCHASES, OverviewTab } from "~/components/admin/OverviewTab";
import { PurchasesTab } from "~/components/admin/PurchasesTab";
import { StatsCards } from "~/components/admin/StatsCards";
import { BackupFailureBanner } from "~/components/admin/BackupsCard";
import { HealthBanner, HealthFooter } from "~/components/admin/ServerHealth";
import { MailOffBanner } from "~/components/admin/MailCard";
import { TemplatesScreen } from "~/components/admin/templates/TemplatesScreen";
import { ToastProvider } from "~/components/ui/Toast";
import { bookingListInput, purchaseListInput } from "~/lib/admin-lists";
import { trpc, TRPCProvider } from "~/trpc/react";
import { requireAdmin } from "../../server/auth/guards.server";
import { checkHealth } from "../../server/health.server";
import { shopContext } from "../../server/trpc/page-data.server";

export const meta: MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "Admin") },
  { name: "robots", content: "noindex" },
];

function tabOf(v: string | null): ConsoleTab {
  return CONSOLE_TABS.some((t) => t.id === v) ? (v as ConsoleTab) : "overview";
}

/** Admins only (anyone else goes to /templates); the first paint is rendered from tRPC callers. */
export async function loader({ request }: LoaderFunctionArgs) {
  // The one guard; the session is looked up once: the callers' context carries the same user.
  const admin = await requireAdmin(request);
  const { caller } = await shopContext(request, admin);
  const params = new URL(request.url).searchParams;
  const tab = tabOf(params.get("tab"));
  const month = params.get("month");
  const [stats, purchases, bookings, templates, upcoming, money, backups, mail] = await Promise.all([
    caller.admin.stats(),
    tab === "overview"
      ? caller.admin.purchases.list(OVERVIEW_PURCHASES)
      : tab === "purchases"
        ? caller.admin.purchases.list(purchaseListInput(params))
        : Promise.resolve(undefined),
    tab === "overview"
      ? caller.admin.bookings.list(OVERVIEW_BOOKINGS)
      : tab === "bookings"
        ? caller.admin.bookings.list(bookingListInput(params))
        : Promise.resolve(undefined),
    tab === "templates" ? caller.admin.templates.list() : Promise.resolve(undefined),
    tab === "overview" ? caller.admin.bookings.upcoming() : Promise.resolve(undefined),
    tab === "overview"
      ? caller.admin.money.view(month && /^\d{4}-\d{2}$/.test(month) ? { month } : undefined)
      : Promise.resolve(undefined),
    // Every tab: a failed backup is shown across the console until one succeeds.
    caller.admin.backups.list(),
    // Every tab: "Mail is off" is shown across the console until a provider is set.
    caller.admin.mail.status(),
  ]);
  return {
    admin: { email: admin.email, isSuperAdmin: admin.isSuperAdmin },
    stats,
    initial: { purchases, bookings, templates, upcoming, money, backups, mail },
    // What /healthz answers, shown on every tab (issue 33.4).
    health: checkHealth(),
  };
}

export type AdminInitial = ReturnType<typeof useLoaderData<typeof loader>>["initial"];

function Console() {
  const { stats: initialStats, initial, health } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const tab = tabOf(params.get("tab"));
  const stats = trpc.admin.stats.useQuery(undefined, { initialData: initialStats });
  return (
    <div className="container-page pt-10">
      <p className="eyebrow">Studio console</p>
      <h1 className="mt-2 text-4xl sm:text-5xl">Admin</h1>
      <HealthBanner health={health} />
      <MailOffBanner off={initial.mail.off} />
      <BackupFailureBanner failure={initial.backups.failure} />
      <div className="mt-8">
        <StatsCards stats={stats.data ?? initialStats} />
      </div>
      <ConsoleNav current={tab} />
      <div className="mt-8">
        {tab === "overview" ? <OverviewTab initial={initial} /> : null}
        {tab === "templates" ? <TemplatesScreen initial={initial.templates} /> : null}
        {tab === "bookings" ? <BookingsScreen initial={initial.bookings} /> : null}
        {tab === "purchases" ? <PurchasesTab initial={initial.purchases} /> : null}
      </div>
      <HealthFooter health={health} />
    </div>
  );
}

export default function AdminPage() {
  return (
    <TRPCProvider>
      <ToastProvider>
        <Console />
      </ToastProvider>
    </TRPCProvider>
  );
}
