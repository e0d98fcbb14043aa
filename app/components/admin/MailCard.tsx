import { getFormProps } from "@conform-to/react";
import { useRouteLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import { testMailSchema } from "#domain/console-forms";
import { useConsoleForm } from "./form/use-console-form";
import { Loaded } from "./Loaded";
import type { AdminMail } from "./types";

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

/** The outcome of a test email or a retry, in one sentence with the provider's answer. */
function outcome(r: { status: string; answer: string }, to: string): { ok: boolean; text: string } {
  if (r.status === "sent") return { ok: true, text: `Sent to ${to}. The provider answered: ${r.answer}` };
  if (r.status === "logged") return { ok: false, text: `Not sent to ${to}: no mail provider is configured.` };
  if (r.status === "pending")
    return { ok: false, text: `Not delivered yet to ${to}: ${r.answer}. The outbox tries again shortly.` };
  return { ok: false, text: `Not sent to ${to}: ${r.answer}` };
}

/**
 * The console's mail (issue 33.2): which provider sends and as whom, "Send test email" with the
 * provider's answer, and the messages that gave up, each with "Retry".
 */
export function MailCard({ initial }: { initial?: AdminMail }) {
  const q = trpc.admin.mail.status.useQuery(undefined, { initialData: initial });
  return (
    <section aria-labelledby="mail-title" className="card p-5 sm:p-6">
      <h2 id="mail-title" className="font-sans text-lg font-semibold">
        Mail
      </h2>
      <Loaded error={q.error} data={q.data} what="the mail settings">
        {(data) => (
          <>
            <p className="mt-2 text-sm text-ink-muted" data-testid="mail-provider">
              {data.provider === "smtp"
                ? `Sending through SMTP (${data.server}) as ${data.from}.`
                : data.provider === "sendgrid"
                  ? `Sending through SendGrid as ${data.from}.`
                  : data.off
                    ? "Mail is off: no provider is set, so nothing reaches clients. Set SMTP_URL (or SENDGRID_API_KEY) and MAIL_FROM, then restart the server."
                    : "No mail provider: messages are printed to the server's output (development)."}
            </p>
            <TestMailForm />
            <FailedMail data={data} />
          </>
        )}
      </Loaded>
    </section>
  );
}

/** "Send test email": to the signed-in admin unless an address is typed; the answer shown under the form. */
function TestMailForm() {
  const toast = useToast();
  const utils = trpc.useUtils();
  const consoleData = useRouteLoaderData<{ admin: { email: string } }>("routes/admin");
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const send = trpc.admin.mail.test.useMutation({
    onSuccess: async (r) => {
      const o = outcome(r, r.to);
      setResult(o);
      if (o.ok) toast.success(`Test email sent to ${r.to}`);
      else toast.error(`The test email was not sent to ${r.to}`);
      await utils.admin.mail.status.invalidate();
    },
    onError: (e) => setResult({ ok: false, text: e.message }),
  });
  const [form, fields] = useConsoleForm({
    id: "mail-test",
    schema: testMailSchema,
    defaultValue: { to: "" },
    onValid: (_typed, { to }) => send.mutate(to ? { to } : {}),
  });
  const to = fields.to;
  return (
    <form
      {...getFormProps(form)}
      onSubmit={(e) => {
        setResult(null);
        form.onSubmit(e);
      }}
      className="mt-4 grid gap-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-end"
    >
      <div>
        <label htmlFor={to.id} className="field-label">
          Send a test email to
        </label>
        <input
          id={to.id}
          name={to.name}
          type="email"
          className="field-input"
          autoComplete="email"
          defaultValue=""
          placeholder={consoleData?.admin.email ?? "you@studio.com"}
          aria-invalid={to.errors ? true : undefined}
          aria-describedby={to.errors ? `mail-test-hint ${to.errorId}` : "mail-test-hint"}
        />
      </div>
      <button type="submit" className="btn-dark" disabled={send.isPending} aria-busy={send.isPending}>
        {send.isPending ? "Sending…" : "Send test email"}
      </button>
      {to.errors ? (
        <p id={to.errorId} className="field-error sm:col-span-2">
          {to.errors[0]}
        </p>
      ) : null}
      <p id="mail-test-hint" className="text-xs text-ink-muted sm:col-span-2">
        Left empty, it goes to you{consoleData ? ` (${consoleData.admin.email})` : ""}.
      </p>
      {result ? (
        <p
          role={result.ok ? "status" : "alert"}
          className={`break-words text-sm sm:col-span-2 ${result.ok ? "text-shop" : "field-error"}`}
          data-testid="mail-test-result"
        >
          {result.text}
        </p>
      ) : null}
    </form>
  );
}

/** The messages that gave up after their retries, newest first, each with "Retry". */
function FailedMail({ data }: { data: AdminMail }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const [answers, setAnswers] = useState<Record<number, { ok: boolean; text: string }>>({});
  const retry = trpc.admin.mail.retry.useMutation({
    onSuccess: async (r, input) => {
      const to = data.failed.find((f) => f.id === input.id)?.to ?? "the recipient";
      const o = outcome(r, to);
      setAnswers((a) => ({ ...a, [input.id]: o }));
      if (o.ok) toast.success(`Sent again to ${to}`);
      else toast.error(o.text);
      await utils.admin.mail.status.invalidate();
    },
    onError: (e, input) => {
      setAnswers((a) => ({ ...a, [input.id]: { ok: false, text: e.message } }));
      toast.error(e.message);
    },
  });
  const settled = Object.entries(answers).filter(([id]) => !data.failed.some((f) => f.id === Number(id)));
  return (
    <div className="mt-6">
      <h3 className="font-sans text-sm font-semibold">Failed mail{data.failedCount ? ` (${data.failedCount})` : ""}</h3>
      {data.failed.length === 0 ? (
        <p className="mt-1 text-sm text-ink-muted">
          {data.provider === "none"
            ? "No failed mail: without a provider nothing is attempted; messages stay in the outbox, unsent."
            : "No failed mail: every message was delivered or is on its way."}
        </p>
      ) : (
        <ul className="mt-2 divide-y divide-line text-sm" aria-label="Failed mail">
          {data.failed.map((m) => {
            const busy = retry.isPending && retry.variables?.id === m.id;
            const answer = answers[m.id];
            return (
              <li key={m.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2 py-3">
                <span className="min-w-0 flex-1 basis-64">
                  <span className="block break-words font-medium">{m.subject}</span>
                  <span className="block text-ink-muted">
                    to <span className="break-all">{m.to}</span> · {when(m.createdAt)} · {m.attempts}{" "}
                    {m.attempts === 1 ? "attempt" : "attempts"}
                  </span>
                  {m.error ? <span className="block break-words text-danger">{m.error}</span> : null}
                  {answer ? (
                    <span role={answer.ok ? "status" : "alert"} className="block break-words text-danger">
                      {answer.text}
                    </span>
                  ) : null}
                </span>
                <button
                  type="button"
                  className="btn-ghost px-4 py-1.5"
                  disabled={busy}
                  aria-busy={busy}
                  onClick={() => retry.mutate({ id: m.id })}
                >
                  {busy ? "Retrying…" : "Retry"}
                  <span className="sr-only">
                    {" "}
                    “{m.subject}” to {m.to}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {settled.map(([id, a]) => (
        <p key={id} role={a.ok ? "status" : "alert"} className={`mt-2 text-sm ${a.ok ? "text-shop" : "field-error"}`}>
          {a.text}
        </p>
      ))}
    </div>
  );
}

/** Across the console while production has no mail provider. */
export function MailOffBanner({ off }: { off: boolean }) {
  if (!off) return null;
  return (
    <p role="alert" className="mt-6 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger">
      <strong>Mail is off: clients receive nothing.</strong> No mail provider is set, so booking confirmations, receipts
      and sign-in links stay in the outbox and email sign-in is unavailable. Set SMTP_URL (or SENDGRID_API_KEY) and
      MAIL_FROM, then restart the server.
    </p>
  );
}
