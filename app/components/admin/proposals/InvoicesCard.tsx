import { formatCalendarDate } from "#domain/dates";
import { formatMoney } from "#domain/money";
import { trpc } from "~/trpc/react";

/**
 * The studio's invoices (issue 44.7), newest first: number, client, amount, due or paid, and the
 * PDF of each (the receipt once paid). Numbers run in sequence per year, with no gap.
 */
export function InvoicesCard() {
  const invoices = trpc.admin.proposals.invoices.useQuery();
  return (
    <section aria-labelledby="invoices-title" className="card p-6">
      <h2 id="invoices-title" className="font-sans text-lg font-semibold">
        Invoices
      </h2>
      {invoices.isPending ? (
        <p className="mt-3 text-sm text-ink-muted" role="status">
          Loading invoices…
        </p>
      ) : invoices.error ? (
        <p className="field-error mt-3" role="alert">
          Could not load the invoices: {invoices.error.message}
        </p>
      ) : invoices.data.length === 0 ? (
        <p className="mt-3 text-sm text-ink-muted">
          No invoices yet. Requesting a payment on a booking issues its invoice, numbered in sequence.
        </p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-[34rem] text-left text-sm" data-testid="invoices">
            <thead className="text-ink-muted">
              <tr className="border-b border-line">
                <th scope="col" className="py-2 pr-3 font-normal">
                  Number
                </th>
                <th scope="col" className="py-2 pr-3 font-normal">
                  Client
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-normal">
                  Amount
                </th>
                <th scope="col" className="py-2 pr-3 font-normal">
                  State
                </th>
                <th scope="col" className="py-2 font-normal">
                  <span className="sr-only">PDF</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invoices.data.map((i) => (
                <tr key={i.id} className="border-b border-line last:border-0">
                  <td className="py-2 pr-3 font-semibold tabular-nums">{i.number}</td>
                  <td className="py-2 pr-3">{i.client}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{formatMoney(i.total)}</td>
                  <td className="py-2 pr-3">
                    {i.paidOn
                      ? `Paid ${formatCalendarDate(i.paidOn)}`
                      : i.dueOn
                        ? `Due ${formatCalendarDate(i.dueOn)}`
                        : `Issued ${formatCalendarDate(i.issuedOn)}`}
                  </td>
                  <td className="py-2 text-right">
                    <a
                      className="font-semibold text-accent-ink hover:underline"
                      href={`/admin/invoices/${i.id}${i.paidOn ? "?receipt=1" : ""}`}
                    >
                      {i.paidOn ? "Receipt" : "Invoice"} PDF
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
