import { useState } from "react";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import type { AdminBooking } from "../types";

/**
 * A built-in call moved or cancelled by the owner (issue 43.7), in the booking's details: "Move
 * call" lists the free times (the studio's zone, every day of the booking window) and moves it
 * there; "Cancel call" asks once more. The client gets the updated invitation either way; a toast
 * says what happened, and the console's lists are read again.
 */
export function CallActions({ booking }: { booking: AdminBooking }) {
  const call = booking.call;
  const toast = useToast();
  const utils = trpc.useUtils();
  const [moving, setMoving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [picked, setPicked] = useState("");
  const changed = () =>
    Promise.all([
      utils.admin.bookings.list.invalidate(),
      utils.admin.bookings.get.invalidate({ id: booking.id }),
      utils.admin.bookings.upcoming.invalidate(),
      utils.admin.bookings.callTimes.invalidate({ id: booking.id }),
    ]);
  const times = trpc.admin.bookings.callTimes.useQuery({ id: booking.id }, { enabled: moving });
  const move = trpc.admin.bookings.moveCall.useMutation({
    onSuccess: async () => {
      setMoving(false);
      setPicked("");
      toast.success("Call moved: the client has the new time and an updated invitation");
      await changed();
    },
    onError: (error) => toast.error(error.message),
  });
  const cancel = trpc.admin.bookings.cancelCall.useMutation({
    onSuccess: async () => {
      setConfirming(false);
      toast.success("Call cancelled: the client was told");
      await changed();
    },
    onError: (error) => toast.error(error.message),
  });
  if (!call || call.provider !== "builtin" || call.status !== "scheduled" || Date.parse(call.startAt) <= Date.now())
    return null;
  const busy = move.isPending || cancel.isPending;
  return (
    <section className="mt-4 rounded-field border border-line p-4" aria-labelledby={`call-actions-${booking.id}`}>
      <h3 id={`call-actions-${booking.id}`} className="font-sans text-sm font-semibold">
        Change the call
      </h3>
      {moving ? (
        <div className="mt-3 grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
          {times.isLoading ? (
            <p role="status" className="text-sm text-ink-muted">
              Reading your free times…
            </p>
          ) : times.error ? (
            <p role="alert" className="text-sm text-danger">
              {times.error.message}
            </p>
          ) : times.data && times.data.length === 0 ? (
            <p className="text-sm text-ink-muted">There are no free times in your booking window.</p>
          ) : (
            <div>
              <label htmlFor={`move-to-${booking.id}`} className="field-label">
                New time (your time zone)
              </label>
              <select
                id={`move-to-${booking.id}`}
                className="field-input pr-10"
                value={picked}
                onChange={(e) => setPicked(e.currentTarget.value)}
              >
                <option value="">Choose a time</option>
                {times.data?.map((day) => (
                  <optgroup key={day.date} label={day.label}>
                    {day.slots.map((s) => (
                      <option key={s.start} value={s.start}>
                        {day.label}, {s.label}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </select>
            </div>
          )}
          <div className="flex gap-2">
            <button
              type="button"
              className="btn-dark"
              disabled={!picked || busy}
              aria-busy={move.isPending}
              onClick={() => move.mutate({ id: booking.id, startAt: picked })}
            >
              {move.isPending ? "Moving…" : "Move"}
            </button>
            <button type="button" className="btn-ghost" onClick={() => setMoving(false)} disabled={busy}>
              Keep it
            </button>
          </div>
        </div>
      ) : confirming ? (
        <div className="mt-3" role="group" aria-label="Cancel the call?">
          <p className="text-sm">
            Cancel the call on {call.studioTime}? The client is emailed and the time is free again.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <button
              type="button"
              className="btn border border-danger bg-danger text-white hover:opacity-90"
              disabled={busy}
              aria-busy={cancel.isPending}
              onClick={() => cancel.mutate({ id: booking.id })}
            >
              {cancel.isPending ? "Cancelling…" : "Yes, cancel the call"}
            </button>
            <button type="button" className="btn-ghost" onClick={() => setConfirming(false)} disabled={busy}>
              Keep it
            </button>
          </div>
        </div>
      ) : (
        <div className="mt-3 flex flex-wrap gap-2">
          <button type="button" className="btn-ghost" onClick={() => setMoving(true)}>
            Move call
          </button>
          <button type="button" className="btn-ghost text-danger" onClick={() => setConfirming(true)}>
            Cancel call
          </button>
        </div>
      )}
    </section>
  );
}
