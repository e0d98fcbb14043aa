import { formatDollars } from "~/lib/money";
import { trpc } from "~/trpc/react";
import { shortDate, type AdminPurchase } from "./types";

export function PurchasesTab({ initial }: { initial?: AdminPurchase[] }) {
  const q = trpc.admin.purchases.list.useQuery(undefined, { initialData: initial });
  const rows = q.data ?? [];
  if (q.isLoading) return <p role="status" className="text-ink-muted">Loading purchases...</p>;
  if (!rows.length) return <p className="rounded-card border border-dashed border-line-strong p-10 text-center text-ink-muted">No purchases yet.</p>;
  return (
    <div className="overflow-x-auto rounded-card border border-line bg-white">
      <table className="w-full min-w-[720px] text-left text-sm">
        <thead className="border-b border-line bg-paper-sunk/60 text-xs uppercase tracking-wider text-ink-muted">
          <tr><th scope="col" className="px-4 py-3">Customer</th><th scope="col" className="px-4 py-3">Template</th><th scope="col" className="px-4 py-3">Amount</th><th scope="col" className="px-4 py-3">Date</th><th scope="col" className="px-4 py-3">License key</th></tr>
        </thead>
        <tbody className="divide-y divide-line">
          {rows.map((p) => (
            <tr key={p.id}>
              <td className="px-4 py-3"><span className="block font-medium">{p.email}</span><span className="text-ink-muted">{p.fullName ?? ""}</span></td>
              <td className="px-4 py-3">{p.templateName}{p.status === "refunded" ? <span className="ml-2 rounded-full bg-danger-soft px-2 py-0.5 text-xs text-danger">Refunded</span> : null}</td>
              <td className="px-4 py-3">{formatDollars(p.amountPaid, { decimals: 2 })}</td>
              <td className="px-4 py-3">{shortDate(p.createdAt)}</td>
              <td className="px-4 py-3 font-mono text-xs">{p.licenseKey}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
