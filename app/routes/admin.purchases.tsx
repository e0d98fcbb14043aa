import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PurchasesScreen } from "~/components/admin/PurchasesScreen";
import { purchaseListInput } from "~/lib/admin-lists";
import { consoleMeta } from "~/lib/seo";
import { requireAdmin } from "../../server/http/session.server";
import { shopContext } from "../../server/trpc/page-data.server";

export const meta = consoleMeta("Purchases · Admin");

/** /admin/purchases: the page of purchases the URL asks for (`q`, `page`). */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const { caller } = await shopContext(request, admin);
  return { purchases: await caller.admin.purchases.list(purchaseListInput(new URL(request.url).searchParams)) };
}

export default function Purchases() {
  const { purchases } = useLoaderData<typeof loader>();
  return <PurchasesScreen initial={purchases} />;
}
