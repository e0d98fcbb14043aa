import { formatDollars } from "~/lib/money";
import { trpc } from "~/trpc/react";
import { AdminTable, ListState } from "./AdminTable";
import { shortDate, type AdminPurchase } from "./types";

export function PurchasesTab({ initial }: { initial?: AdminPurchase[] }) {
  const q = trpc.admin.purchases.list.useQuery(undefined, { initialData: initial });
  const rows = q.data ?? [];
  if (q.isLoading || !rows.length) return <ListState loading={q.isLoading} empty={!rows.length} what="purchases" />;
  return (
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
  );
}
