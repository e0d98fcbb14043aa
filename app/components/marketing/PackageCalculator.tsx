import { useNavigate } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { QuantityStepper } from "~/components/ui/QuantityStepper";
import type { AddOn, PackageId } from "#domain/packages";
import { getPackage, getPromotion, offeredPackages, type Catalogue } from "#domain/catalogue";
import { formatDollars } from "#domain/money";
import {
  computeTotal,
  emptySelection,
  hasComputedPrice,
  parseSavedSelection,
  SAVED_SELECTION_KEY,
  selectPackage,
  selectionToQuery,
  setCampaign,
  setQuantity,
  toggleAddOn,
  type Selection,
} from "#domain/pricing";

function AddOnRow({
  addOn,
  sel,
  onChange,
  hydrated,
  catalogue,
}: {
  addOn: AddOn;
  sel: Selection;
  onChange: (s: Selection) => void;
  hydrated: boolean;
  catalogue: Catalogue;
}) {
  const checked = sel.packageId !== undefined && sel.selectedAddOns.includes(addOn.id);
  const qty = sel.addOnQuantities[addOn.id] ?? 1;
  const id = `addon-${addOn.id}`;
  return (
    <li className="group/addon flex flex-wrap items-center justify-between gap-x-3 gap-y-2 py-3">
      <label htmlFor={id} className="flex min-w-0 grow basis-60 cursor-pointer items-start gap-3">
        <input
          id={id}
          type="checkbox"
          name="addOn"
          value={addOn.id}
          checked={checked}
          onChange={() => onChange(toggleAddOn(sel, addOn.id))}
          className="mt-1 h-4 w-4 rounded border-line-strong text-accent focus:ring-accent"
        />
        <span className="min-w-0">
          <span className="block font-medium text-ink">{addOn.name}</span>
          <span className="block text-sm text-ink-muted">
            {formatDollars(addOn.price)}
            {addOn.allowMultiple ? ` each · up to ${addOn.maxQuantity}` : ""}
          </span>
        </span>
      </label>
      {addOn.allowMultiple ? (
        <QuantityStepper
          label={addOn.name}
          name={`qty.${addOn.id}`}
          value={qty}
          max={addOn.maxQuantity}
          selected={checked}
          enabled={hydrated}
          onChange={(q) => onChange(setQuantity(sel, addOn.id, q, catalogue))}
        />
      ) : null}
    </li>
  );
}

/**
 * The live price calculator. A GET form to /booking, so without JavaScript its submit carries the
 * tier, add-ons, quantities and campaign in the query string; with JavaScript the total updates
 * on every change and the selection is kept in browser storage (the Saved package selection).
 */
export function PackageCalculator({ catalogue }: { catalogue: Catalogue }) {
  const navigate = useNavigate();
  const packages = offeredPackages(catalogue);
  const [sel, setSel] = useState<Selection>(emptySelection(packages[0]?.id ?? "essentials"));
  const [restored, setRestored] = useState(false);

  useEffect(() => {
    try {
      const saved = parseSavedSelection(window.localStorage.getItem(SAVED_SELECTION_KEY));
      if (saved && packages.some((p) => p.id === saved.packageId))
        setSel({
          packageId: saved.packageId,
          selectedAddOns: saved.selectedAddOns,
          addOnQuantities: saved.addOnQuantities,
          campaignAccepted: saved.campaignAccepted,
        });
    } catch {
      /* storage unavailable */
    }
    setRestored(true);
    // Read once on load: the saved selection is checked against the catalogue the page came with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const price = computeTotal(sel, { catalogue, context: "packages" });

  useEffect(() => {
    if (!restored) return;
    try {
      window.localStorage.setItem(
        SAVED_SELECTION_KEY,
        JSON.stringify({ ...sel, packageTotal: price.total, timestamp: Date.now() }),
      );
    } catch {
      /* storage full or unavailable */
    }
  }, [sel, price.total, restored]);

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    navigate(`/booking?${selectionToQuery(sel)}`);
  }

  const promo = getPromotion(catalogue, sel.packageId);
  const computed = hasComputedPrice(sel.packageId);

  return (
    <form
      method="get"
      action="/booking"
      onSubmit={onSubmit}
      className="calculator card grid gap-0 overflow-clip lg:grid-cols-[1.4fr_1fr]"
      aria-labelledby="calc-title"
    >
      <div className="p-6 sm:p-10">
        <h2 id="calc-title" className="text-3xl sm:text-4xl">
          Build your package
        </h2>
        <fieldset className="mt-6">
          <legend className="field-label">Package</legend>
          <div
            className={`grid gap-2 ${packages.length === 3 ? "sm:grid-cols-3" : packages.length === 2 ? "sm:grid-cols-2" : ""}`}
          >
            {packages.map((p) => (
              <label
                key={p.id}
                className="tier-option flex cursor-pointer items-center gap-3 rounded-field border border-line-strong bg-white px-4 py-3 has-[:checked]:border-ink has-[:checked]:ring-1 has-[:checked]:ring-ink"
              >
                <input
                  type="radio"
                  name="tier"
                  value={p.id}
                  checked={sel.packageId === p.id}
                  onChange={() => setSel((s) => selectPackage(s, p.id as PackageId))}
                  className="h-4 w-4 border-line-strong text-ink focus:ring-ink"
                />
                <span>
                  <span className="block font-semibold">{p.name}</span>
                  <span className="block text-sm text-ink-muted">{p.priceDisplay}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        {packages.map((p) => {
          const pPromo = getPromotion(catalogue, p.id);
          return (
            <fieldset key={p.id} data-tier={p.id} className="tier-addons mt-8">
              <legend className="field-label">Add-ons for {p.name}</legend>
              <ul className="divide-y divide-line border-y border-line">
                {p.addOns.map((a) => (
                  <AddOnRow
                    key={a.id}
                    addOn={a}
                    sel={sel.packageId === p.id ? sel : emptySelection(p.id)}
                    onChange={(s) => setSel(s)}
                    hydrated={restored}
                    catalogue={catalogue}
                  />
                ))}
              </ul>
              {pPromo ? (
                <label className="mt-6 flex cursor-pointer items-start gap-3 rounded-field border border-accent/30 bg-accent-soft/60 p-4">
                  <input
                    type="checkbox"
                    name="campaign"
                    value="1"
                    checked={sel.packageId === p.id && sel.campaignAccepted}
                    onChange={(e) => setSel((s) => setCampaign(selectPackage(s, p.id), e.target.checked))}
                    className="mt-1 h-4 w-4 rounded border-line-strong text-accent focus:ring-accent"
                  />
                  <span>
                    <span className="inline-flex rounded-full bg-accent px-2 py-0.5 text-xs font-bold text-white">
                      {pPromo.badge}
                    </span>
                    <span className="mt-1 block font-semibold text-ink">{pPromo.ctaText}</span>
                    <span className="block text-sm text-ink-muted">{pPromo.requirement}</span>
                  </span>
                </label>
              ) : null}
            </fieldset>
          );
        })}
        {/* On a phone the estimate is below the add-ons: its total stays in view while they change
            (the estimate's own total, below, is the one announced to screen readers). */}
        <div
          aria-hidden="true"
          data-testid="calculator-sticky-total"
          className="sticky bottom-0 -mx-6 mt-8 flex items-baseline justify-between border-t border-line bg-paper/95 px-6 py-3 backdrop-blur sm:-mx-10 sm:px-10 lg:hidden"
        >
          <span className="text-sm text-ink-muted">{computed ? "Estimated total" : "Add-ons"}</span>
          <span className="font-display text-2xl">
            {computed ? formatDollars(price.total) : `+${formatDollars(price.addOnsTotal)}`}
          </span>
        </div>
      </div>

      <div className="border-t border-line bg-paper-sunk/60 p-6 sm:p-10 lg:border-l lg:border-t-0">
        <div className="lg:sticky lg:top-24">
          <p className="eyebrow">Your estimate</p>
          <dl className="mt-5 space-y-2 text-sm">
            <div className="flex justify-between">
              <dt>Base price</dt>
              <dd>{computed ? formatDollars(price.base) : getPackage(catalogue, sel.packageId)?.priceDisplay}</dd>
            </div>
            {price.lines.map((l) => (
              <div key={l.addOn.id} className="flex justify-between text-ink-soft">
                <dt>
                  {l.addOn.name}
                  {l.quantity > 1 ? ` × ${l.quantity}` : ""}
                </dt>
                <dd>{formatDollars(l.amount)}</dd>
              </div>
            ))}
            {price.discount > 0 ? (
              <div className="flex justify-between font-medium text-accent-ink">
                <dt>Portfolio discount ({price.discountPercent}%)</dt>
                <dd>−{formatDollars(price.discount)}</dd>
              </div>
            ) : null}
          </dl>
          <div className="mt-5 border-t border-line-strong pt-5">
            <p className="text-sm text-ink-muted">{computed ? "Total" : "Add-ons (quoted with your project)"}</p>
            <output aria-live="polite" className="mt-1 block font-display text-5xl" data-testid="calculator-total">
              {computed ? formatDollars(price.total) : `+${formatDollars(price.addOnsTotal)}`}
            </output>
            {!computed ? (
              <p className="mt-2 text-sm text-ink-muted">Custom projects are quoted after a free discovery call.</p>
            ) : null}
            {promo && !sel.campaignAccepted ? (
              <p className="mt-2 text-sm text-accent-ink">
                Save {promo.discountPercent}% with the portfolio feature offer.
              </p>
            ) : null}
          </div>
          <button type="submit" className="btn-primary mt-8 w-full py-3 text-base">
            Continue to booking
          </button>
          <p className="mt-3 text-center text-xs text-ink-muted">Your selection carries over to the booking form.</p>
        </div>
      </div>
    </form>
  );
}
