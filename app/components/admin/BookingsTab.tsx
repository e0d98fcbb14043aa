import { useSearchParams } from "@remix-run/react";
import { useState, type ReactNode } from "react";
import { Modal } from "~/components/ui/Modal";
import { useToast } from "~/components/ui/Toast";
import { goalLabel } from "#domain/booking-rules";
import { bookingListInput } from "~/lib/admin-lists";
import { formatCalendarDate } from "#domain/dates";
import {
  BOOKING_FILE_ERRORS,
  bookingFileEntries,
  isViewableImage,
  type BookingFilePurpose,
} from "#domain/booking-files";
import { dollarsToCents, formatDollars } from "#domain/money";
import { trpc } from "~/trpc/react";
import { AdminTable, ListState } from "./AdminTable";
import { PaymentPlan, PaymentTarget } from "./PaymentPlan";
import { ListSearch, Pager } from "./ListControls";
import { shortDate, STATUS_LABELS, type AdminBooking, type AdminBookingPage } from "./types";

const money = (cents: number) => formatDollars(cents, { decimals: 2 });

/** One labelled group of the details: a heading and its rows (empty values read "—"). */
function DetailGroup({ title, rows }: { title: string; rows: [string, ReactNode][] }) {
  return (
    <section className="rounded-field border border-line p-4">
      <h3 className="font-sans text-sm font-semibold">{title}</h3>
      <dl className="mt-2 grid grid-cols-[6.5rem_minmax(0,1fr)] gap-x-3 gap-y-2 text-sm sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-x-4">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-ink-muted">{label}</dt>
            <dd className="whitespace-pre-wrap break-words">{value === "" || value == null ? "—" : value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const CALL_STATUS: Record<string, string> = {
  scheduled: "Scheduled",
  cancelled: "Cancelled in the calendar",
  rescheduled: "Being moved in the calendar",
};

/** The call in the bookings table: its time in the studio's zone, or why there is none. */
function CallCell({ booking: b }: { booking: AdminBooking }) {
  if (b.call) {
    return (
      <span className={b.call.status === "scheduled" ? "" : "text-ink-muted line-through"} title={b.call.studioTime}>
        {b.call.studioShort}
        {b.call.status !== "scheduled" ? <span className="sr-only"> ({CALL_STATUS[b.call.status]})</span> : null}
      </span>
    );
  }
  return <span className="text-ink-muted">{b.callPending ? "Confirming..." : "Not booked"}</span>;
}

function callRows(b: AdminBooking): [string, ReactNode][] {
  if (!b.call)
    return [
      [
        "When",
        b.callPending
          ? "Booked in the calendar; the time is being confirmed with Calendly."
          : "Not booked in the calendar yet.",
      ],
    ];
  const link = (href: string | null, label: string) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer" className="link-underline">
        {label}
      </a>
    ) : (
      ""
    );
  return [
    ["When", b.call.studioTime],
    ["Status", CALL_STATUS[b.call.status] ?? b.call.status],
    ["Visitor's zone", b.call.visitorZone],
    ["Join", link(b.call.joinUrl, "Join link")],
    [
      "Calendar",
      b.call.rescheduleUrl || b.call.cancelUrl ? (
        <span key="cal" className="flex gap-3">
          {link(b.call.rescheduleUrl, "Reschedule")}
          {link(b.call.cancelUrl, "Cancel")}
        </span>
      ) : (
        ""
      ),
    ],
  ];
}

/** Where the visit came from: the first visit's utm fields and referrer, else the summary kept since before them. */
function sourceText(b: AdminBooking): string {
  const a = b.attribution;
  const parts = [
    a.utmSource ? `utm_source ${a.utmSource}` : "",
    a.utmMedium ? `utm_medium ${a.utmMedium}` : "",
    a.utmCampaign ? `utm_campaign ${a.utmCampaign}` : "",
    a.referrer ? `referrer ${a.referrer}` : "",
  ].filter(Boolean);
  return parts.length ? parts.join("\n") : (b.source ?? "");
}

/** Everything the client told us, what it costs and what was paid. */
function BookingSummary({ booking: b }: { booking: AdminBooking }) {
  // The names and prices the booking was made at, whatever Settings say today.
  const addOns = b.addons.map(
    (a) => `${a.name}${a.quantity > 1 ? ` × ${a.quantity}` : ""} (${formatDollars(a.price * a.quantity)})`,
  );
  const goals = b.projectGoals.map(goalLabel).join(", ");
  return (
    <div className="grid gap-4">
      <DetailGroup
        title="Contact"
        rows={[
          ["Name", b.fullName],
          [
            "Email",
            <a key="email" href={`mailto:${b.email}`} className="link-underline">
              {b.email}
            </a>,
          ],
          ["Phone", b.phone ?? ""],
          ["Company", b.companyName],
        ]}
      />
      <DetailGroup title="Call" rows={callRows(b)} />
      <DetailGroup
        title="Package and price"
        rows={[
          ["Package", `${b.packageName} Package (${money(b.packagePrice)})`],
          ["Add-ons", addOns.join("\n") || "None"],
          ["Discount", b.discountPercent ? `${b.discountPercent}% portfolio discount` : "None"],
          ["Total", money(b.totalAmount)],
          ["Paid", `${money(b.amountPaid)} of ${money(b.totalAmount)}`],
        ]}
      />
      <DetailGroup
        title="Project"
        rows={[
          ["Primary goal", goals],
          ["Target audience", b.targetAudience],
          ["Website", b.isNewSite ? "New site" : (b.websiteUrl ?? "")],
          ["Inspiration", b.inspirationUrls.join("\n")],
          ["Features and notes", b.projectDescription],
          [
            "Preferred start",
            `${formatCalendarDate(b.desiredStartDate ?? "")} · ${b.timelineUrgency === "rush" ? "Strict Deadline" : "Flexible"}`,
          ],
          ["Source", sourceText(b)],
        ]}
      />
      <section className="rounded-field border border-line p-4">
        <h3 className="font-sans text-sm font-semibold">Payment history</h3>
        {b.paymentHistory.length ? (
          <ul className="mt-2 divide-y divide-line text-sm">
            {b.paymentHistory.map((p, i) => (
              <li key={`${p.date}-${i}`} className="flex flex-wrap justify-between gap-x-4 py-2">
                <span>
                  {shortDate(p.date)}
                  {p.note ? <span className="text-ink-muted"> · {p.note}</span> : null}
                </span>
                <span className="font-medium">{money(p.amount)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-ink-muted">No payments recorded yet.</p>
        )}
      </section>
    </div>
  );
}

/** Opens `url` in `tab` (opened during the click, so popup blockers let it through), cut off from this page. */
function showIn(tab: Window | null, url: string) {
  const absolute = new URL(url, window.location.href).href;
  if (!tab) {
    window.open(absolute, "_blank", "noopener");
    return;
  }
  tab.opener = null;
  tab.location.replace(absolute);
}

/** Starts a download of `url` under `name` (the server also answers it as an attachment). */
function saveAs(url: string, name: string) {
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * The booking's uploaded files. View (images, new tab) and Download each ask the server for a
 * fresh one-hour signed link when clicked, and say so in their own words when they cannot get one.
 */
function BookingFiles({ booking }: { booking: AdminBooking }) {
  const utils = trpc.useUtils();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const files = bookingFileEntries(booking.uploadedFiles, booking.uploadedFileUrls);
  if (!files.length) return <p className="text-sm text-ink-muted">No files uploaded for this booking.</p>;

  async function open(file: { path: string; name: string }, purpose: BookingFilePurpose) {
    setError(null);
    setBusy(`${purpose}:${file.path}`);
    const tab = purpose === "view" ? window.open("", "_blank") : null;
    try {
      const { url } = await utils.client.admin.bookings.fileLink.query({ id: booking.id, path: file.path, purpose });
      if (purpose === "view") showIn(tab, url);
      else saveAs(url, file.name);
    } catch (e) {
      tab?.close();
      console.error(`[admin] could not get a ${purpose} link for ${file.path}`, e);
      setError(BOOKING_FILE_ERRORS[purpose]);
    } finally {
      setBusy(null);
    }
  }

  const action = "font-semibold text-accent-ink hover:underline disabled:opacity-60";
  return (
    <>
      <ul className="divide-y divide-line rounded-field border border-line">
        {files.map((f) => (
          <li key={f.path} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
            <span className="truncate">{f.name}</span>
            <span className="flex gap-3">
              {isViewableImage(f.path) ? (
                <button type="button" className={action} disabled={busy !== null} onClick={() => open(f, "view")}>
                  View<span className="sr-only"> {f.name}</span>
                </button>
              ) : null}
              <button type="button" className={action} disabled={busy !== null} onClick={() => open(f, "download")}>
                Download<span className="sr-only"> {f.name}</span>
              </button>
            </span>
          </li>
        ))}
      </ul>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </>
  );
}

export function BookingsTab({ initial }: { initial?: AdminBookingPage }) {
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
  const toast = useToast();
  // The new status shows at once; on failure it goes back and says why.
  const setStatus = trpc.admin.bookings.setStatus.useMutation({
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
  const record = trpc.admin.bookings.recordPayment.useMutation({
    onSuccess: async () => {
      setPaying(null);
      toast.success("Payment recorded");
      await invalidate();
    },
  });
  const del = trpc.admin.bookings.delete.useMutation({
    onSuccess: async () => {
      setDeleting(null);
      toast.success("Booking deleted");
      await invalidate();
    },
    onError: (e) => setDeleteError(e.message || "Failed to delete booking."),
  });
  const [paying, setPaying] = useState<AdminBooking | null>(null);
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [method, setMethod] = useState<"bank" | "cash" | "other">("bank");
  const [stageId, setStageId] = useState("");
  const [deleting, setDeleting] = useState<AdminBooking | null>(null);
  const [confirmText, setConfirmText] = useState("");
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const rows = q.data?.rows ?? [];
  const detailsId = params.get("booking");
  const onPage = rows.find((b) => b.id === detailsId);
  // Opened by link (the studio's email), the booking may be on another page: fetched on its own.
  const single = trpc.admin.bookings.get.useQuery(
    { id: detailsId ?? "" },
    { enabled: Boolean(detailsId) && !onPage, retry: false },
  );
  const details = onPage ?? (detailsId ? single.data : undefined) ?? null;
  const closeDetails = () => {
    const next = new URLSearchParams(params);
    next.delete("booking");
    setParams(next, { preventScrollReset: true });
  };
  const cents = dollarsToCents(amount);

  const filtered = Boolean(input.q || input.status);
  return (
    <>
      <ListSearch tab="bookings" label="Search bookings" exportFile="bookings.csv">
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
            {Object.entries(STATUS_LABELS).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
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
                  {Object.entries(STATUS_LABELS).map(([v, l]) => (
                    <option key={v} value={v}>
                      {l}
                    </option>
                  ))}
                </select>
              </td>
              <td className="px-4 py-3">
                <div className="flex justify-end gap-3 whitespace-nowrap">
                  <button
                    type="button"
                    className="font-semibold text-accent-ink hover:underline"
                    onClick={() => {
                      setPaying(b);
                      setAmount("");
                      setNote("");
                      setMethod("bank");
                      setStageId("");
                      record.reset();
                    }}
                  >
                    Record payment
                  </button>
                  <button
                    type="button"
                    className="font-semibold text-ink hover:underline"
                    onClick={() =>
                      setParams(
                        (p) => {
                          const n = new URLSearchParams(p);
                          n.set("booking", b.id);
                          return n;
                        },
                        { preventScrollReset: true },
                      )
                    }
                  >
                    View details
                  </button>
                  <button
                    type="button"
                    className="font-semibold text-danger hover:underline"
                    onClick={() => {
                      setDeleting(b);
                      setConfirmText("");
                      setDeleteError(null);
                    }}
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
        <Modal title={`${details.companyName}`} onClose={closeDetails} wide>
          <BookingSummary booking={details} />
          <div className="mt-4">
            <PaymentPlan key={details.id} bookingId={details.id} clientName={details.fullName} />
          </div>
          <h3 className="mt-6 font-sans text-sm font-semibold">Uploaded files</h3>
          <div className="mt-2">
            <BookingFiles key={details.id} booking={details} />
          </div>
          <div className="mt-6 flex justify-end">
            <button
              type="button"
              className="btn-dark"
              onClick={() => {
                setStatus.mutate({ id: details.id, status: "contacted" });
                closeDetails();
              }}
            >
              Mark as Contacted
            </button>
          </div>
        </Modal>
      ) : null}

      {paying ? (
        <Modal title="Record Payment" onClose={() => setPaying(null)}>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (!cents || cents <= 0) return;
              record.mutate({
                id: paying.id,
                amount,
                method,
                stageId: stageId || undefined,
                note: note.trim() || undefined,
              });
            }}
          >
            <p className="text-sm text-ink-muted">
              {paying.companyName}: {formatDollars(paying.amountPaid, { decimals: 2 })} of{" "}
              {formatDollars(paying.totalAmount, { decimals: 2 })} paid.
            </p>
            <label htmlFor="pay-amount" className="field-label mt-4">
              Amount (USD)
            </label>
            <input
              id="pay-amount"
              type="number"
              min="0.01"
              step="0.01"
              inputMode="decimal"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              className="field-input"
              required
            />
            <PaymentTarget bookingId={paying.id} stageId={stageId} onStage={setStageId} />
            <label htmlFor="pay-method" className="field-label mt-4">
              Paid by
            </label>
            <select
              id="pay-method"
              className="field-input"
              value={method}
              onChange={(e) => setMethod(e.target.value as typeof method)}
            >
              <option value="bank">Bank transfer</option>
              <option value="cash">Cash</option>
              <option value="other">Other</option>
            </select>
            <label htmlFor="pay-note" className="field-label mt-4">
              Note <span className="font-normal text-ink-muted">(optional)</span>
            </label>
            <input
              id="pay-note"
              value={note}
              onChange={(e) => setNote(e.target.value)}
              className="field-input"
              maxLength={500}
            />
            {record.error ? (
              <p role="alert" className="field-error">
                Could not record the payment: {record.error.message}
              </p>
            ) : null}
            <div className="mt-6 flex justify-end gap-3">
              <button type="button" className="btn-ghost" onClick={() => setPaying(null)}>
                Cancel
              </button>
              <button type="submit" className="btn-primary" disabled={!cents || cents <= 0 || record.isPending}>
                {record.isPending ? "Recording..." : "Record Payment"}
              </button>
            </div>
          </form>
        </Modal>
      ) : null}

      {deleting ? (
        <Modal title="Delete Booking" onClose={() => setDeleting(null)}>
          <p className="text-sm text-ink-soft">
            This deletes the booking of <strong>{deleting.companyName}</strong> and its uploaded files. Type{" "}
            <strong>DELETE</strong> to confirm.
          </p>
          <label htmlFor="delete-confirm" className="sr-only">
            Type DELETE to confirm
          </label>
          <input
            id="delete-confirm"
            value={confirmText}
            onChange={(e) => setConfirmText(e.target.value)}
            className="field-input mt-4"
            autoComplete="off"
          />
          {deleteError ? (
            <p role="alert" className="field-error">
              {deleteError}
            </p>
          ) : null}
          <div className="mt-6 flex justify-end gap-3">
            <button type="button" className="btn-ghost" onClick={() => setDeleting(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn bg-danger text-white hover:bg-danger/90"
              disabled={confirmText !== "DELETE" || del.isPending}
              onClick={() => del.mutate({ id: deleting.id })}
            >
              {del.isPending ? "Deleting..." : "Delete Booking"}
            </button>
          </div>
        </Modal>
      ) : null}
    </>
  );
}
