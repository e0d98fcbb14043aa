import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData, useMatches, type ShouldRevalidateFunction } from "@remix-run/react";
import { BackupFailureBanner } from "~/components/admin/BackupsCard";
import { ConsoleNav } from "~/components/admin/ConsoleNav";
import { MailOffBanner } from "~/components/admin/MailCard";
import { ReplicaFailureBanner } from "~/components/admin/ReplicaStatus";
import { HealthBanner, HealthFooter } from "~/components/admin/ServerHealth";
import { StatsCards } from "~/components/admin/StatsCards";
import { ToastProvider } from "~/components/ui/Toast";
import { consoleMeta } from "~/lib/seo";
import { trpc, TRPCProvider } from "~/trpc/react";
import { requireAdmin } from "../../server/http/session.server";
import { checkHealth } from "../../server/health.server";
import { shopContext } from "../../server/trpc/page-data.server";

export const meta: MetaFunction = consoleMeta("Admin");

/**
 * The console's layout (decision 033): admins only (anyone else goes to /templates); what every
 * screen shows around its own content (the banners, the stats, the nav, the health line), its
 * first paint rendered from tRPC callers. Each screen is a child route with its own loader.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // The one guard; the session is looked up once: the callers' context carries the same user.
  const admin = await requireAdmin(request);
  const { caller } = await shopContext(request, admin);
  const [stats, backups, mail] = await Promise.all([
    caller.admin.stats(),
    // A failed backup is shown across the console until one succeeds.
    caller.admin.backups.list(),
    // "Mail is off" is shown across the console until a provider is set.
    caller.admin.mail.status(),
  ]);
  // What /healthz answers, shown on every screen (issue 33.4).
  return {
    admin: { email: admin.email, isSuperAdmin: admin.isSuperAdmin },
    stats,
    backups,
    mail,
    health: checkHealth(),
  };
}

/** Read again on every move between screens too, as when they were one page: the banners stay true. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  defaultShouldRevalidate || currentUrl.pathname !== nextUrl.pathname;

/** What a console screen's route says of itself (`handle`): its page heading when not "Admin". */
export type ConsoleHandle = { heading?: string };

function Console() {
  const { stats: initialStats, backups, mail, health } = useLoaderData<typeof loader>();
  const stats = trpc.admin.stats.useQuery(undefined, { initialData: initialStats });
  const heading =
    useMatches()
      .map((m) => (m.handle as ConsoleHandle | undefined)?.heading)
      .filter(Boolean)
      .pop() ?? "Admin";
  return (
    <div className="container-page pt-10">
      <p className="eyebrow">Studio console</p>
      <h1 className="mt-2 text-4xl sm:text-5xl">{heading}</h1>
      <HealthBanner health={health} />
      <MailOffBanner off={mail.off} />
      <BackupFailureBanner failure={backups.failure} />
      <ReplicaFailureBanner replica={backups.replica} />
      <div className="mt-8">
        <StatsCards stats={stats.data ?? initialStats} />
      </div>
      <ConsoleNav />
      <div className="mt-8">
        <Outlet />
      </div>
      <HealthFooter health={health} />
    </div>
  );
}

export default function AdminLayout() {
  return (
    <TRPCProvider>
      <ToastProvider>
        <Console />
      </ToastProvider>
    </TRPCProvider>
  );
}
