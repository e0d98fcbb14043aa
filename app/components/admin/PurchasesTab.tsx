import { useSearchParams } from "@remix-run/react";
import { purchaseListInput } from "~/lib/admin-lists";
import { formatDollars } from "~/lib/money";
import { trpc } from "~/trpc/react";
import { AdminTable, ListState } from "./AdminTable";
import { ListSearch, Pager } from "./ListControls";
import { shortDate, type AdminPurchasePage } from "./types";

export function PurchasesTab({ initial }: { initial?: AdminPurchasePage }) {
  const [params] = useSearchParams();
  const input = purchaseListInput(params);
  const q = trpc.admin.purchases.list.useQuery(input, { initialData: initial });
  const rows = q.data?.rows ?? [];
  return (
    <>
      <ListSearch tab="purchases" label="Search purchases" exportFile="purchases.csv" />
      {q.isLoading || !rows.length ? (
        <ListState loading={q.isLoading} empty={!rows.length} what="purchases" emptyText={input.q ? "No purchases match this search." : undefined} />
      ) : (
        <AdminTable minWidth="720px" columns={[{ label: "Customer" }, { label: "Template" }, { label: "Amount" }, { label: "Date" }, { label: "License key" }]}>
          {rows.map((p) => (
            <tr key={p.id}>
              <td className="px-4 py-3"><span className="block font-medium">{p.email}</span><span className="text-ink-muted">{p.fullName ?? ""}</span></td>
              <td className="px-4 py-3">{p.templateName}{p.status === "refunded" ? <span className="ml-2 rounded-full bg-danger-soft px-2 py-0.5 text-xs text-danger">Refunded</span> : null}</td>
              <td className="px-4 py-3">{formatDollars(p.amountPaid, { decimals: 2 })}</td>
              <td className="px-4 py-3">{shortDate(p.createdAt)}</td>
              <td className="px-4 py-3 font-mono text-xs">{p.licenseKey}</td>
            </tr>
          ))}
        </AdminTable>
      )}
      {q.data && q.data.total ? <Pager page={q.data.page} pages={q.data.pages} total={q.data.total} what="purchases" /> : null}
    </>
  );
}
