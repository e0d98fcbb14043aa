import { useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { purchaseListInput } from "~/lib/admin-lists";
import { formatDollars } from "#domain/money";
import { trpc } from "~/trpc/react";
import { AdminTable, ListState } from "./AdminTable";
import { ListSearch, Pager } from "./ListControls";
import { RefundDialog } from "./RefundDialog";
import { shortDate, type AdminPurchase, type AdminPurchasePage } from "./types";

const STATUS_BADGE: Record<AdminPurchase["status"], { label: string; className: string }> = {
  active: { label: "Active", className: "bg-shop-soft text-shop-ink" },
  refunded: { label: "Refunded", className: "bg-danger-soft text-danger" },
  revoked: { label: "Revoked", className: "bg-danger-soft text-danger" },
};

function PurchaseStatus({ purchase: p }: { purchase: AdminPurchase }) {
  const badge = STATUS_BADGE[p.status];
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium ${badge.className}`}
      title={p.revokedAt ? `Revoked on ${shortDate(p.revokedAt)}` : undefined}
    >
      {badge.label}
    </span>
  );
}

/** What the toast says once a receipt left the console: sent, not sent (no provider), or waiting in the outbox. */
function receiptToast(r: { to: string; status: string }): string {
  if (r.status === "sent") return `Receipt sent to ${r.to}`;
  if (r.status === "logged") return `Receipt for ${r.to} not sent: no mail provider is configured`;
  return `Receipt queued for ${r.to}; it will be sent when mail is reachable`;
}

/** The console's Purchases (/admin/purchases): search and page in the URL; Resend receipt, Refund, Revoke access. */
export function PurchasesScreen({ initial }: { initial?: AdminPurchasePage }) {
  const [params] = useSearchParams();
  const input = purchaseListInput(params);
  const utils = trpc.useUtils();
  const q = trpc.admin.purchases.list.useQuery(input, { initialData: initial });
  const rows = q.data?.rows ?? [];
  const toast = useToast();
  const [revoking, setRevoking] = useState<AdminPurchase | null>(null);
  const [refunding, setRefunding] = useState<AdminPurchase | null>(null);
  const resend = trpc.admin.purchases.resendReceipt.useMutation({
    onSuccess: (r) => toast.success(receiptToast(r)),
    onError: (e) => toast.error(`Could not send the receipt: ${e.message}`),
  });
  const revoke = trpc.admin.purchases.revoke.useMutation({
    onSuccess: async () => {
      toast.success(`Access revoked for ${revoking?.email ?? "the buyer"}`);
      setRevoking(null);
      await Promise.all([utils.admin.purchases.list.invalidate(), utils.admin.stats.invalidate()]);
    },
  });
  const action = "font-semibold hover:underline disabled:opacity-60 disabled:no-underline";
  return (
    <>
      <ListSearch screen="purchases" label="Search purchases" exportFile="purchases.csv" />
      {q.isLoading || !rows.length ? (
        <ListState
          loading={q.isLoading}
          empty={!rows.length}
          what="purchases"
          emptyText={input.q ? "No purchases match this search." : undefined}
        />
      ) : (
        <AdminTable
          minWidth="1040px"
          columns={[
            { label: "Customer" },
            { label: "Template" },
            { label: "Amount" },
            { label: "Date" },
            { label: "License key" },
            { label: "Status" },
            { label: "", srLabel: "Actions" },
          ]}
        >
          {rows.map((p) => (
            <tr key={p.id}>
              <td className="px-4 py-3">
                <span className="block font-medium">{p.email}</span>
                <span className="text-ink-muted">{p.fullName ?? ""}</span>
              </td>
              <td className="px-4 py-3">{p.templateName}</td>
              <td className="px-4 py-3">{formatDollars(p.amountPaid, { decimals: 2 })}</td>
              <td className="px-4 py-3">{shortDate(p.createdAt)}</td>
              <td className="px-4 py-3 font-mono text-xs">{p.licenseKey}</td>
              <td className="px-4 py-3">
                <PurchaseStatus purchase={p} />
              </td>
              <td className="px-4 py-3">
                {p.status === "active" ? (
                  <div className="flex justify-end gap-3 whitespace-nowrap">
                    <button
                      type="button"
                      className={`${action} text-accent-ink`}
                      disabled={resend.isPending && resend.variables?.id === p.id}
                      onClick={() => resend.mutate({ id: p.id })}
                    >
                      {resend.isPending && resend.variables?.id === p.id ? "Sending..." : "Resend receipt"}
                      <span className="sr-only"> to {p.email}</span>
                    </button>
                    {p.paymentId && Number(p.refunded) < p.amountPaid ? (
                      <button type="button" className={`${action} text-accent-ink`} onClick={() => setRefunding(p)}>
                        Refund
                        <span className="sr-only">
                          {" "}
                          {p.templateName} for {p.email}
                        </span>
                      </button>
                    ) : null}
                    <button
                      type="button"
                      className={`${action} text-danger`}
                      onClick={() => {
                        revoke.reset();
                        setRevoking(p);
                      }}
                    >
                      Revoke access
                      <span className="sr-only">
                        {" "}
                        of {p.email} to {p.templateName}
                      </span>
                    </button>
                  </div>
                ) : (
                  <span className="block text-right text-ink-muted">
                    {p.revokedAt ? `Revoked ${shortDate(p.revokedAt)}` : "No access"}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {q.data && q.data.total ? (
        <Pager page={q.data.page} pages={q.data.pages} total={q.data.total} what="purchases" />
      ) : null}

      {refunding?.paymentId ? (
        <RefundDialog
          paymentId={refunding.paymentId}
          paid={refunding.amountPaid}
          refunded={Number(refunding.refunded)}
          what={`${refunding.templateName} template for ${refunding.email}`}
          template
          onClose={() => setRefunding(null)}
        />
      ) : null}
      {revoking ? (
        <Modal title="Revoke access" onClose={() => setRevoking(null)}>
          <p className="text-sm text-ink-soft">
            <strong>{revoking.email}</strong> will no longer be able to download{" "}
            <strong>{revoking.templateName}</strong>. Download links already sent stop working, and the purchase shows
            as revoked. They can buy the template again.
          </p>
          {revoke.error ? (
            <p role="alert" className="field-error">
              Could not revoke access: {revoke.error.message}
            </p>
          ) : null}
          <div className="mt-6 flex justify-end gap-3">
            <button type="button" className="btn-ghost" onClick={() => setRevoking(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn bg-danger text-white hover:bg-danger/90"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate({ id: revoking.id })}
            >
              {revoke.isPending ? "Revoking..." : "Revoke access"}
            </button>
          </div>
        </Modal>
      ) : null}
    </>
  );
}
