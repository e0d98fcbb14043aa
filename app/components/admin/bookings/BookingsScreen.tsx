import { useSearchParams } from "@remix-run/react";
import { useState } from "react";
import { useToast } from "~/components/ui/Toast";
import { formatDollars } from "#domain/money";
import { bookingListInput } from "~/lib/admin-lists";
import { trpc } from "~/trpc/react";
import { AdminTable, ListState } from "../AdminTable";
import { ListSearch, Pager } from "../ListControls";
import { shortDate, STATUS_LABELS, type AdminBooking, type AdminBookingPage } from "../types";
import { BookingDetails } from "./BookingDetails";
import { CallCell } from "./call";
import { DeleteBookingDialog } from "./DeleteBookingDialog";
import { RecordPaymentDialog } from "./RecordPaymentDialog";

/** A booking's status, changed from its row: shown at once; on failure it goes back and says why. */
function useSetStatus(input: ReturnType<typeof bookingListInput>, invalidate: () => Promise<unknown>) {
  const utils = trpc.useUtils();
  const toast = useToast();
  return trpc.admin.bookings.setStatus.useMutation({
    onMutate: async ({ id, status }) => {
      await utils.admin.bookings.list.cancel();
      const previous = utils.admin.bookings.list.getData(input);
      utils.admin.bookings.list.setData(
        input,
        (list) => list && { ...list, rows: list.rows.map((b) => (b.id === id ? { ...b, status } : b)) },
      );
      return { previous };
    },
    onError: (e, _input, context) => {
      if (context?.previous) utils.admin.bookings.list.setData(input, context.previous);
      toast.error(`Could not update the status: ${e.message}`);
    },
    onSuccess: () => toast.success("Status updated"),
    onSettled: invalidate,
  });
}

const STATUS_OPTIONS = Object.entries(STATUS_LABELS).map(([v, l]) => (
  <option key={v} value={v}>
    {l}
  </option>
));

/**
 * The console's Bookings (/admin/bookings): search, status filter and page in the URL; each row's
 * status, Record payment, View details (also opened by link: `?booking=<id>`) and Delete.
 */
export function BookingsScreen({ initial }: { initial?: AdminBookingPage }) {
  const utils = trpc.useUtils();
  const [params, setParams] = useSearchParams();
  const input = bookingListInput(params);
  const q = trpc.admin.bookings.list.useQuery(input, { initialData: initial });
  const invalidate = () =>
    Promise.all([
      utils.admin.bookings.list.invalidate(),
      utils.admin.bookings.get.invalidate(),
      utils.admin.bookings.plan.invalidate(),
      utils.admin.stats.invalidate(),
    ]);
  const setStatus = useSetStatus(input, invalidate);
  const [paying, setPaying] = useState<AdminBooking | null>(null);
  const [deleting, setDeleting] = useState<AdminBooking | null>(null);
  const rows = q.data?.rows ?? [];
  const detailsId = params.get("booking");
  const onPage = rows.find((b) => b.id === detailsId);
  // Opened by link (the studio's email), the booking may be on another page: fetched on its own.
  const single = trpc.admin.bookings.get.useQuery(
    { id: detailsId ?? "" },
    { enabled: Boolean(detailsId) && !onPage, retry: false },
  );
  const details = onPage ?? (detailsId ? single.data : undefined) ?? null;
  const showDetails = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set("booking", id);
    else next.delete("booking");
    setParams(next, { preventScrollReset: true });
  };

  const filtered = Boolean(input.q || input.status);
  return (
    <>
      <ListSearch screen="bookings" label="Search bookings" exportFile="bookings.csv">
        <div>
          <label htmlFor="bookings-status" className="field-label">
            Status
          </label>
          <select
            id="bookings-status"
            name="status"
            defaultValue={input.status ?? ""}
            className="field-input py-2.5 pr-10"
          >
            <option value="">All statuses</option>
            {STATUS_OPTIONS}
          </select>
        </div>
      </ListSearch>
      {q.isLoading || !rows.length ? (
        <ListState
          loading={q.isLoading}
          empty={!rows.length}
          what="bookings"
          emptyText={filtered ? "No bookings match this search." : undefined}
        />
      ) : (
        <AdminTable
          minWidth="1080px"
          columns={[
            { label: "Contact" },
            { label: "Package" },
            { label: "Company" },
            { label: "Value / paid" },
            { label: "Date" },
            { label: "Call" },
            { label: "Status" },
            { label: "", srLabel: "Actions" },
          ]}
        >
          {rows.map((b) => (
            <tr key={b.id}>
              <td className="px-4 py-3">
                <span className="block font-medium">{b.fullName}</span>
                <span className="text-ink-muted">{b.email}</span>
              </td>
              <td className="px-4 py-3">{b.packageName}</td>
              <td className="px-4 py-3">{b.companyName}</td>
              <td className="px-4 py-3">
                <span className="block">{formatDollars(b.totalAmount, { decimals: 2 })}</span>
                <span className="text-ink-muted" data-testid="booking-paid">
                  {formatDollars(b.amountPaid, { decimals: 2 })} paid
                </span>
              </td>
              <td className="px-4 py-3">{shortDate(b.createdAt)}</td>
              <td className="px-4 py-3">
                <CallCell booking={b} />
              </td>
              <td className="px-4 py-3">
                <label className="sr-only" htmlFor={`status-${b.id}`}>
                  Status of {b.companyName}
                </label>
                <select
                  id={`status-${b.id}`}
                  value={b.status}
                  onChange={(e) => setStatus.mutate({ id: b.id, status: e.target.value as AdminBooking["status"] })}
                  className="rounded-field border-line-strong py-1.5 text-sm"
                >
                  {STATUS_OPTIONS}
                </select>
              </td>
              <td className="px-4 py-3">
                <div className="flex justify-end gap-3 whitespace-nowrap">
                  <button
                    type="button"
                    className="font-semibold text-accent-ink hover:underline"
                    onClick={() => setPaying(b)}
                  >
                    Record payment
                  </button>
                  <button
                    type="button"
                    className="font-semibold text-ink hover:underline"
                    onClick={() => showDetails(b.id)}
                  >
                    View details
                  </button>
                  <button
                    type="button"
                    className="font-semibold text-danger hover:underline"
                    onClick={() => setDeleting(b)}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {q.data && q.data.total ? (
        <Pager page={q.data.page} pages={q.data.pages} total={q.data.total} what="bookings" />
      ) : null}

      {details ? (
        <BookingDetails
          booking={details}
          onClose={() => showDetails(null)}
          onContacted={() => {
            setStatus.mutate({ id: details.id, status: "contacted" });
            showDetails(null);
          }}
        />
      ) : null}
      {paying ? (
        <RecordPaymentDialog key={paying.id} booking={paying} onRecorded={invalidate} onClose={() => setPaying(null)} />
      ) : null}
      {deleting ? (
        <DeleteBookingDialog
          key={deleting.id}
          booking={deleting}
          onDeleted={invalidate}
          onClose={() => setDeleting(null)}
        />
      ) : null}
    </>
  );
}
