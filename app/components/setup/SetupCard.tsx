import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { Loader2 } from "lucide-react";
import { InputField } from "~/components/booking/Field";
import { firstErrors } from "#domain/booking-schema";
import { parseSetup, STUDIO_NAME_MAX, type SetupForm as SetupValues } from "#domain/setup-schema";

const s = (v: unknown) => (typeof v === "string" ? v : "");

/**
 * The first run's form: a plain post without JavaScript (the server's reply shows the messages
 * and keeps what was typed); with it, conform checks a field as it is left, with the same schema.
 */
export function SetupForm({ token, lastResult }: { token: string; lastResult?: SubmissionResult<string[]> }) {
  const [form] = useForm<SetupValues>({
    id: "setup",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseSetup(formData, { intents: true }),
  });
  const errors = firstErrors(form.allErrors);
  const values: Record<string, unknown> = form.initialValue ?? {};
  const busy = useNavigation().state !== "idle";
  return (
    <div className="card p-6 shadow-raised sm:p-8">
      <p className="eyebrow">First run</p>
      <h1 className="mt-3 text-4xl sm:text-5xl">Set up your studio</h1>
      <p className="mt-3 text-ink-muted">
        Name your studio and give the email you will sign in with. You become its admin and go straight to the
        studio&apos;s settings.
      </p>
      {errors.form ? (
        <div
          role="alert"
          className="mt-5 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger"
        >
          {errors.form}
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="mt-8 space-y-6">
        <input type="hidden" name="token" value={token} />
        {/* duplicates: calls of the shared InputField (the booking's too), alike only in the props they name */}
        <InputField
          id="studioName"
          label="Studio name"
          type="text"
          autoComplete="organization"
          maxLength={STUDIO_NAME_MAX}
          value={s(values.studioName)}
          error={errors.studioName}
        />
        <InputField
          id="email"
          label="Your email"
          hint="Sign in with this address later: by an emailed link, or with Google."
          type="email"
          autoComplete="email"
          placeholder="you@yourstudio.com"
          value={s(values.email)}
          error={errors.email}
        />
        <button type="submit" className="btn-primary w-full py-3" disabled={busy} aria-busy={busy}>
          {busy ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
          {busy ? "Setting up..." : "Set up my studio"}
        </button>
      </Form>
    </div>
  );
}

/** A used, expired or unknown setup link, or a studio that already has its admin: what to do instead. */
export function SetupLinkInvalid() {
  return (
    <div className="card p-6 text-center shadow-raised sm:p-8">
      <p className="eyebrow">Set up your studio</p>
      <h1 className="mt-3 text-4xl">This setup link is no longer valid</h1>
      <p className="mt-4 text-ink-muted">
        A setup link works once, for 24 hours, and only until the studio has an admin. If you are the admin, sign in. On
        the server, this prints a one-time sign-in link:
      </p>
      <pre className="mt-4 whitespace-pre-wrap break-words rounded-field bg-ink px-4 py-3 text-left text-sm text-paper">
        <code>studio admin login-link EMAIL</code>
      </pre>
      <p className="mt-4 text-sm text-ink-muted">With no admin yet, restarting the server prints a new setup link.</p>
      <Link to="/auth/email" className="btn-dark mt-8 px-8 py-3">
        Sign in
      </Link>
    </div>
  );
}
