import { formatDollars } from "#domain/money";
import type { ProposalContent } from "#domain/proposal";

const money = (cents: number) => formatDollars(cents, { decimals: 2 });

/** Terms as written: blank lines part paragraphs, "## " starts a heading. */
function Terms({ text }: { text: string }) {
  const blocks = text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
  return (
    <div className="space-y-3">
      {blocks.map((b, i) =>
        b.startsWith("## ") ? (
          <h3 key={i} className="pt-3 font-sans text-base font-semibold text-ink">
            {b.slice(3)}
          </h3>
        ) : (
          <p key={i} className="whitespace-pre-line leading-relaxed text-ink-soft">
            {b}
          </p>
        ),
      )}
    </div>
  );
}

/** Label and value rows. */
function Facts({ rows }: { rows: [string, string][] }) {
  const shown = rows.filter(([, v]) => v);
  return shown.length ? (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[10rem_1fr]">
      {shown.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-sm text-ink-muted">{k}</dt>
          <dd className="whitespace-pre-line text-ink">{v}</dd>
        </div>
      ))}
    </dl>
  ) : null;
}

/**
 * A proposal as the client reads it (issue 44.2): the project summary and scope, the items and
 * total, the payment plan and the terms. Plain HTML, no script.
 */
export function ProposalDocument({ content, total }: { content: ProposalContent; total: number }) {
  const c = content;
  return (
    <div className="space-y-12">
      <section aria-labelledby="p-summary">
        <h2 id="p-summary" className="text-2xl">
          Project summary
        </h2>
        <div className="mt-5">
          <Facts
            rows={[
              ["Client", [c.client.name, c.client.company].filter(Boolean).join(", ")],
              ["Address", c.client.address],
              ["Goal", c.summary.goal],
              ["Audience", c.summary.audience],
              ["Features", c.summary.features],
              ["Start date", c.summary.startDate],
            ]}
          />
        </div>
      </section>
      {c.scope ? (
        <section aria-labelledby="p-scope">
          <h2 id="p-scope" className="text-2xl">
            Scope
          </h2>
          <div className="mt-4">
            <Terms text={c.scope} />
          </div>
        </section>
      ) : null}
      <section aria-labelledby="p-price">
        <h2 id="p-price" className="text-2xl">
          Price
        </h2>
        <table className="mt-4 w-full text-left">
          <caption className="sr-only">Items and total</caption>
          <thead>
            <tr className="border-b border-line text-sm text-ink-muted">
              <th scope="col" className="py-2 font-normal">
                Item
              </th>
              <th scope="col" className="py-2 text-right font-normal">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {c.items.map((i, n) => (
              <tr key={n} className="border-b border-line">
                <td className="py-3 pr-4">{i.label}</td>
                <td className="py-3 text-right tabular-nums">{money(i.amount)}</td>
              </tr>
            ))}
            {c.discount ? (
              <tr className="border-b border-line">
                <td className="py-3 pr-4">{c.discount.label}</td>
                <td className="py-3 text-right tabular-nums">-{money(c.discount.amount)}</td>
              </tr>
            ) : null}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" className="py-3 font-semibold">
                Total
              </th>
              <td className="py-3 text-right font-display text-2xl tabular-nums" data-testid="proposal-total">
                {money(total)}
              </td>
            </tr>
          </tfoot>
        </table>
      </section>
      <section aria-labelledby="p-plan">
        <h2 id="p-plan" className="text-2xl">
          Payment plan
        </h2>
        <ol className="mt-4 divide-y divide-line border-y border-line">
          {c.stages.map((s, n) => (
            <li key={n} className="flex flex-wrap items-baseline justify-between gap-2 py-3">
              <span>
                <span className="font-semibold">{s.label}</span>
                {s.due ? <span className="text-ink-muted"> · {s.due}</span> : null}
              </span>
              <span className="tabular-nums">{money(s.amount)}</span>
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="p-terms">
        <h2 id="p-terms" className="text-2xl">
          Terms
        </h2>
        <div className="mt-4">
          <Terms text={c.terms} />
        </div>
      </section>
    </div>
  );
}
