import { Form, Link, useNavigation, useSearchParams, type useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useToast } from "~/components/ui/Toast";
import type { settingsLoader, SettingsActionData } from "../../../../server/http/settings-page.server";
import { CalendarForm } from "./CalendarForm";
import { FeedAddress } from "./CalendarFeedAddress";
import { YourCalendars } from "./CalendarSources";
import { CaseStudiesList, CaseStudyForm } from "./CaseStudies";
import { ContractForm } from "./ContractForm";
import { LegalForm } from "./LegalForm";
import { PackagesForm } from "./PackagesForm";
import { PaymentsForm } from "./PaymentsForm";
import { PromotionForm } from "./PromotionForm";
import { StudioForm } from "./StudioForm";
import { TestimonialsForm } from "./TestimonialsForm";

/** What the Settings page's loader gives the screen, as useLoaderData serializes it. */
export type SettingsData = ReturnType<typeof useLoaderData<typeof settingsLoader>>;

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

/** Says "Saved" (or what went wrong) in a toast after each post, once per answer. */
function useSavedToast(result: SettingsActionData | undefined) {
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!result || shown.current === result) return;
    shown.current = result;
    if (result.saved) toast.success(result.saved);
    else if (result.calendar) (result.calendar.ok ? toast.success : toast.error)(result.calendar.message);
    else if (result.error) toast.error(result.error);
    else if (result.reply?.error && Object.keys(result.reply.error).length)
      toast.error("Nothing was saved: please correct the fields marked below.");
  }, [result, toast]);
  const savedParam = params.get("saved");
  useEffect(() => {
    if (!savedParam) return;
    toast.success(savedParam === "added" ? "Saved: case study added" : "Saved");
    const next = new URLSearchParams(params);
    next.delete("saved");
    setParams(next, { replace: true, preventScrollReset: true });
  }, [savedParam, params, setParams, toast]);
}

/** The sections, as links: a row that scrolls sideways on a phone, a column beside the form from 1024 px. */
function SectionNav({ data }: { data: SettingsData }) {
  return (
    <nav aria-label="Settings sections" className="-mx-5 overflow-x-auto px-5 lg:mx-0 lg:overflow-visible lg:px-0">
      <ul className="flex min-w-max gap-2 lg:min-w-0 lg:flex-col lg:gap-1">
        {data.sections.map((s) => (
          <li key={s.id}>
            <Link
              to={`/admin/settings?section=${s.id}`}
              preventScrollReset
              aria-current={s.id === data.section ? "page" : undefined}
              className={`flex items-center justify-between gap-3 rounded-full border px-4 py-2 text-sm font-semibold lg:rounded-field lg:border-transparent ${
                s.id === data.section
                  ? "border-ink bg-ink text-paper lg:bg-ink"
                  : "border-line-strong text-ink-soft hover:bg-paper-raised hover:text-ink"
              }`}
            >
              {s.label}
              {s.sample ? (
                <span
                  className={`rounded-full px-2 py-0.5 text-[0.7rem] font-semibold ${s.id === data.section ? "bg-paper/20 text-paper" : "bg-accent-soft text-accent-ink"}`}
                >
                  Sample
                </span>
              ) : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The section's title, who saved it last, and while it holds the starter studio's content, "Clear sample". */
function SectionHeader({ data }: { data: SettingsData }) {
  const navigation = useNavigation();
  const current = data.sections.find((s) => s.id === data.section)!;
  const clearing = navigation.state === "submitting" && navigation.formData?.get("intent") === "clear-sample";
  return (
    <header className="mb-6 flex flex-col gap-4 border-b border-line pb-6 sm:flex-row sm:items-start sm:justify-between">
      <div>
        <h2 id="section-title" className="text-3xl">
          {current.label}
        </h2>
        <p className="mt-1 text-ink-muted">{current.description}</p>
        <p className="mt-2 text-sm text-ink-muted" data-testid="last-saved">
          {current.updatedBy && current.updatedAt
            ? `Last saved by ${current.updatedBy} on ${when(current.updatedAt)}`
            : "Never saved"}
        </p>
      </div>
      {current.sample ? (
        <details className="group shrink-0 rounded-card border border-accent/30 bg-accent-soft/60 p-4 text-sm sm:max-w-xs">
          <summary className="cursor-pointer font-semibold text-accent-ink">
            Sample content from the starter studio
          </summary>
          <p className="mt-2 text-ink-soft">
            Replace it with your own, or clear it and start from empty. Clearing cannot be undone.
          </p>
          <Form method="post" preventScrollReset className="mt-3">
            <input type="hidden" name="section" value={data.section} />
            <button
              type="submit"
              name="intent"
              value="clear-sample"
              className="btn-ghost border-danger/40 px-3 py-1.5 text-danger"
              disabled={clearing}
            >
              {clearing ? "Clearing…" : `Clear sample ${current.label.toLowerCase()}`}
            </button>
          </Form>
        </details>
      ) : null}
    </header>
  );
}

/** The section's own form, starting again from what is saved after each save or clear. */
function SectionBody({ data, result }: { data: SettingsData; result?: SettingsActionData }) {
  const current = data.sections.find((s) => s.id === data.section)!;
  const reply = result?.reply;
  const values = data.values as Record<string, unknown>;
  // A form starts again from what is saved after each save or clear (conform keeps its own state).
  const revision = `${data.section}:${current.updatedAt ?? "never"}`;
  switch (data.section) {
    case "studio":
      return <StudioForm key={revision} values={values} lastResult={reply} calendarDefault={data.calendarDefault} />;
    case "packages":
      return <PackagesForm key={revision} values={values} lastResult={reply} />;
    case "promotion":
      return <PromotionForm key={revision} values={values} lastResult={reply} packageNames={data.packageNames} />;
    case "caseStudies":
      return data.editing ? (
        <CaseStudyForm key={data.editing} values={values} lastResult={reply} />
      ) : (
        <CaseStudiesList studies={data.caseStudies} />
      );
    case "testimonials":
      return <TestimonialsForm key={revision} values={values} lastResult={reply} />;
    case "legal":
      return <LegalForm key={revision} values={values} lastResult={reply} />;
    case "payments":
      return <PaymentsForm key={revision} values={values} lastResult={reply} />;
    case "contract":
      return <ContractForm key={revision} values={values} lastResult={reply} />;
    case "calendar":
      return (
        <div className="grid gap-8">
          <CalendarForm key={revision} values={values} lastResult={reply} timeZones={data.timeZones} />
          <YourCalendars
            sources={data.sources}
            timeZone={typeof values.timeZone === "string" ? values.timeZone : "UTC"}
            builtin={values.provider !== "calendly"}
            result={result?.calendar}
          />
          <FeedAddress feedUrl={data.feedUrl} result={result?.calendar} />
        </div>
      );
  }
}

/**
 * The console's Settings (/admin/settings, issue 29): the sections beside the chosen one's form;
 * every form posts to the page's action, and each answer is said in a toast.
 */
export function SettingsScreen({ data, result }: { data: SettingsData; result?: SettingsActionData }) {
  useSavedToast(result);
  return (
    <div className="grid gap-8 lg:grid-cols-[15rem_1fr]">
      <SectionNav data={data} />
      <section aria-labelledby="section-title" className="min-w-0">
        <SectionHeader data={data} />
        {result?.error ? (
          <p
            role="alert"
            className="mb-6 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger"
          >
            {result.error}
          </p>
        ) : null}
        {result?.saved ? (
          <p role="status" className="sr-only">
            {result.saved}
          </p>
        ) : null}
        <SectionBody data={data} result={result} />
      </section>
    </div>
  );
}
