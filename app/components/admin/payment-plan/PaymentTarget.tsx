import { formatMoney } from "#domain/money";
import { trpc } from "~/trpc/react";

/** Record payment's "Toward" field: the stage a payment counts for (the first unpaid one unless chosen). */
export function PaymentTarget({ bookingId, field }: { bookingId: string; field: { id: string; name: string } }) {
  const plan = trpc.admin.bookings.plan.useQuery({ id: bookingId });
  const unpaid = plan.data?.stages.filter((s) => s.state !== "paid") ?? [];
  if (!unpaid.length) return null;
  return (
    <>
      <label htmlFor={field.id} className="field-label mt-4">
        Toward
      </label>
      <select id={field.id} name={field.name} className="field-input" defaultValue={unpaid[0].id}>
        {unpaid.map((s) => (
          <option key={s.id} value={s.id}>
            {s.label} ({formatMoney(s.amount)})
          </option>
        ))}
      </select>
    </>
  );
}
