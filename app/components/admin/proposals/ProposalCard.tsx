import { useState, type FormEvent } from "react";
import { FileSignature } from "lucide-react";
import { formatCalendarDate } from "#domain/dates";
import { formatMoney } from "#domain/money";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import type { AdminProposal } from "../types";
import { ProposalEditor } from "./ProposalEditor";

type Proposal = AdminProposal;

const STATUS: Record<Proposal["status"], { label: string; tone: string }> = {
  draft: { label: "Draft", tone: "bg-paper-sunk text-ink" },
  sent: { label: "Sent", tone: "bg-accent-soft text-accent-ink" },
  signed: { label: "Signed", tone: "bg-shop-soft text-shop-ink" },
  declined: { label: "Declined", tone: "bg-danger-soft text-danger" },
  expired: { label: "Expired", tone: "bg-paper-sunk text-ink-muted" },
  replaced: { label: "Replaced", tone: "bg-paper-sunk text-ink-muted" },
};

const EVENT_WORDS: Record<string, string> = {
  created: "Created",
  sent: "Sent",
  viewed: "Viewed",
  signed: "Signed",
  countersigned: "Countersigned",
  declined: "Declined",
  expired: "Expired",
  extended: "Extended",
  replaced: "Replaced",
};

const when = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" });

/**
 * A booking's proposal in the console (issue 44): "Create proposal", then the latest version with
 * its state and the owner's next steps (edit and send a draft; extend or revise a sent one;
 * countersign and download a signed one), its audit trail, and the versions before it.
 */
export function ProposalCard({ bookingId }: { bookingId: string }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const list = trpc.admin.proposals.forBooking.useQuery({ bookingId });
  const [editing, setEditing] = useState<string | null>(null);
  const changed = () => utils.admin.proposals.forBooking.invalidate({ bookingId });
  const fail = (e: { message: string }) => toast.error(e.message);
  const create = trpc.admin.proposals.create.useMutation({
    onSuccess: async (r) => {
      toast.success("Proposal drafted from the booking");
      await changed();
      setEditing(r.id);
    },
    onError: fail,
  });
  if (list.isPending)
    return (
      <p className="text-sm text-ink-muted" role="status">
        Loading the proposal…
      </p>
    );
  if (list.error)
    return (
      <p className="field-error" role="alert">
        Could not load the proposal: {list.error.message}
      </p>
    );
  const [latest, ...older] = list.data;
  return (
    <section aria-labelledby={`proposal-${bookingId}`} className="rounded-field border border-line p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={`proposal-${bookingId}`} className="flex items-center gap-2 font-sans text-sm font-semibold">
          <FileSignature aria-hidden="true" className="h-4 w-4" /> Proposal and contract
        </h3>
        {!latest ? (
          <button
            type="button"
            className="btn-dark px-3 py-1.5 text-sm"
            onClick={() => create.mutate({ bookingId })}
            disabled={create.isPending}
          >
            {create.isPending ? "Creating…" : "Create proposal"}
          </button>
        ) : null}
      </div>
      {!latest ? (
        <p className="mt-2 text-sm text-ink-muted">
          No proposal yet. Create one from this booking: package, add-ons, plan and your contract terms, ready to edit
          and send.
        </p>
      ) : editing === latest.id && latest.form ? (
        <div className="mt-4">
          <ProposalEditor id={latest.id} values={latest.form} onDone={() => setEditing(null)} />
        </div>
      ) : (
        <Version p={latest} onEdit={() => setEditing(latest.id)} onChanged={changed} />
      )}
      {older.length ? (
        <details className="mt-4 text-sm">
          <summary className="cursor-pointer text-ink-muted">Earlier versions ({older.length})</summary>
          <ul className="mt-2 grid gap-2">
            {older.map((o) => (
              <li key={o.id} className="flex flex-wrap justify-between gap-2">
                <span>
                  {o.reference} · {STATUS[o.status].label}
                </span>
                <span className="text-ink-muted">{formatMoney(o.total)}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

function Version({ p, onEdit, onChanged }: { p: Proposal; onEdit: () => void; onChanged: () => Promise<void> }) {
  const toast = useToast();
  const fail = (e: { message: string }) => toast.error(e.message);
  const [extendTo, setExtendTo] = useState(p.expiresOn);
  const [name, setName] = useState("");
  const send = trpc.admin.proposals.send.useMutation({
    onSuccess: async (r) => {
      toast.success(`Proposal sent to ${r.to}`);
      await onChanged();
    },
    onError: fail,
  });
  const extend = trpc.admin.proposals.extend.useMutation({
    onSuccess: async () => {
      toast.success("Expiry date changed");
      await onChanged();
    },
    onError: fail,
  });
  const revise = trpc.admin.proposals.revise.useMutation({
    onSuccess: async () => {
      toast.success("Revision drafted: edit it, then send it");
      await onChanged();
      onEdit();
    },
    onError: fail,
  });
  const countersign = trpc.admin.proposals.countersign.useMutation({
    onSuccess: async () => {
      toast.success("Countersigned: both of you have the signed PDF");
      await onChanged();
    },
    onError: fail,
  });
  const status = STATUS[p.status];
  const submitExtend = (e: FormEvent) => {
    e.preventDefault();
    extend.mutate({ id: p.id, expiresOn: extendTo });
  };
  const submitCountersign = (e: FormEvent) => {
    e.preventDefault();
    countersign.mutate({ id: p.id, name });
  };
  return (
    <div className="mt-3 grid gap-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${status.tone}`}
          data-testid="proposal-status"
        >
          {status.label}
        </span>
        <span className="font-semibold">{p.reference}</span>
        <span className="text-ink-muted">
          · {formatMoney(p.total)} · open until {formatCalendarDate(p.expiresOn)}
        </span>
      </div>
      <p>{p.title}</p>
      {p.status === "draft" && p.problem ? (
        <p className="field-error" role="alert">
          {p.problem}
        </p>
      ) : null}
      {p.signedAt ? (
        <p>
          Signed by <strong>{p.signerName}</strong> on {when(p.signedAt)}
          {p.countersignedAt ? (
            <>
              ; countersigned by <strong>{p.countersignerName}</strong> on {when(p.countersignedAt)}
            </>
          ) : null}
          .
        </p>
      ) : null}
      {p.declineReason ? <p>Reason given: “{p.declineReason}”</p> : null}
      {p.documentSha256 ? (
        <p className="break-all text-xs text-ink-muted">SHA-256 of the signed document: {p.documentSha256}</p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {p.status === "draft" ? (
          <>
            <button type="button" className="btn-ghost px-3 py-1.5" onClick={onEdit}>
              Edit
            </button>
            <button
              type="button"
              className="btn-dark px-3 py-1.5"
              disabled={send.isPending || Boolean(p.problem)}
              onClick={() => send.mutate({ id: p.id })}
            >
              {send.isPending ? "Sending…" : p.version > 1 ? "Send revision" : "Send to client"}
            </button>
          </>
        ) : null}
        {p.status === "sent" || p.status === "expired" || p.status === "declined" ? (
          <button type="button" className="btn-ghost px-3 py-1.5" onClick={() => revise.mutate({ id: p.id })}>
            Send a revision
          </button>
        ) : null}
        {p.status !== "draft" ? (
          <a className="btn-ghost px-3 py-1.5" href={p.link} target="_blank" rel="noreferrer">
            Client’s page
          </a>
        ) : null}
        {p.hasPdf ? (
          <a className="btn-ghost px-3 py-1.5" href={`/admin/proposals/${p.id}`} data-testid="proposal-pdf">
            Download signed PDF
          </a>
        ) : null}
      </div>
      {p.status === "sent" || p.status === "expired" ? (
        <form onSubmit={submitExtend} className="flex flex-wrap items-end gap-2">
          <label className="grid gap-1">
            <span className="text-xs text-ink-muted">Open until</span>
            <input
              type="date"
              className="field-input py-1.5"
              value={extendTo}
              onChange={(e) => setExtendTo(e.target.value)}
            />
          </label>
          <button type="submit" className="btn-ghost px-3 py-1.5" disabled={extend.isPending}>
            Extend
          </button>
        </form>
      ) : null}
      {p.status === "signed" && p.countersign && !p.countersignedAt ? (
        <form onSubmit={submitCountersign} className="flex flex-wrap items-end gap-2">
          <label className="grid gap-1">
            <span className="text-xs text-ink-muted">Your full name</span>
            <input
              className="field-input py-1.5"
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="name"
            />
          </label>
          <button type="submit" className="btn-dark px-3 py-1.5" disabled={countersign.isPending}>
            {countersign.isPending ? "Countersigning…" : "Countersign"}
          </button>
        </form>
      ) : null}
      <details>
        <summary className="cursor-pointer text-ink-muted">Audit trail ({p.events.length})</summary>
        <ol className="mt-2 grid gap-1.5" data-testid="proposal-trail">
          {p.events.map((e) => (
            <li key={e.id} className="grid gap-0.5 border-l-2 border-line pl-3">
              <span>
                <strong>{EVENT_WORDS[e.kind] ?? e.kind}</strong> · {when(e.at)}
                {e.email ? ` · ${e.email}` : ""}
              </span>
              {e.ip || e.userAgent ? (
                <span className="break-all text-xs text-ink-muted">
                  {[e.ip, e.userAgent].filter(Boolean).join(" · ")}
                </span>
              ) : null}
              {e.detail ? <span className="break-all text-xs text-ink-muted">{e.detail}</span> : null}
            </li>
          ))}
        </ol>
      </details>
    </div>
  );
}
