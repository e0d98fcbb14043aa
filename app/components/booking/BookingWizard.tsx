import { Form, Link, useNavigate, useNavigation, type useLoaderData } from "@remix-run/react";
import { ArrowLeft, ArrowRight, Loader2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { STEP_TITLES, type StepReply } from "#domain/booking-rules";
import { parseSavedSelection, SAVED_SELECTION_KEY, selectionToQuery } from "#domain/pricing";
import { FilesStep } from "./FilesStep";
import { laterSteps } from "./later-steps";
import { ReviewStep } from "./ReviewStep";
import { CallPicker } from "./CallPicker";
import { StepIndicator } from "./StepIndicator";
import type { bookingStepView } from "../../../server/http/booking-flow.server";
import { Step1, Step2, Step3, Step4 } from "./Steps";
import { clearSavedForm, useBookingForm } from "./useBookingForm";

/**
 * What the booking route's loader gives the wizard: inferred from the server's view data and
 * serialized as useLoaderData serializes a loader's answer, not a copy (issue 20.1). The route
 * passes its useLoaderData to the wizard, so the two are checked against each other.
 */
export type BookingView = ReturnType<typeof useLoaderData<typeof bookingStepView>>;

const HEADINGS = [
  "Choose your package",
  "Tell us about the project",
  "Inspiration and features",
  "Timeline and add-ons",
  "Brand assets",
  "Review and schedule",
];

function useHydrated() {
  const [h, setH] = useState(false);
  useEffect(() => setH(true), []);
  return h;
}

export function BookingWizard({ view, result }: { view: BookingView; result?: StepReply }) {
  const { step } = view;
  const prevStep = useRef(step);
  const direction = step >= prevStep.current ? 1 : -1;
  useEffect(() => {
    prevStep.current = step;
  }, [step]);

  // Without a package yet and without ?tier=, the Saved package selection from /packages prefills.
  const navigate = useNavigate();
  useEffect(() => {
    if (view.state.selectedPackage || new URLSearchParams(window.location.search).has("tier")) return;
    let saved;
    try {
      saved = parseSavedSelection(window.localStorage.getItem(SAVED_SELECTION_KEY));
    } catch {
      saved = undefined;
    }
    if (saved) navigate(`/booking?${selectionToQuery(saved)}`, { replace: true });
    // Only on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <section className="container-page max-w-4xl pb-8 pt-12 sm:pt-16" aria-labelledby="booking-title">
      <p className="eyebrow">Free consultation · Step {step} of 6</p>
      <h1 id="booking-title" className="mt-3 text-4xl leading-tight sm:text-5xl">
        {HEADINGS[step - 1]}
      </h1>
      <div className="mt-8">
        <StepIndicator current={step} allowed={view.allowed} />
      </div>

      {/* Keyed by the package too: a selection arriving after the first render (the Saved package
          selection, applied by navigating) remounts the step so its uncontrolled fields show it. */}
      <div
        key={`${step}:${view.state.selectedPackage}`}
        className="mt-10 animate-slidein"
        style={{ ["--slide-from" as string]: `${direction * 24}px` }}
      >
        <StepForm view={view} result={result} />
      </div>
    </section>
  );
}

/** One step's form: remounted per step (and package), so conform's state starts fresh with it. */
function StepForm({ view, result }: { view: BookingView; result?: StepReply }) {
  const { step } = view;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const hydrated = useHydrated();
  const [showCalendar, setShowCalendar] = useState(false);
  const [uploading, setUploading] = useState(false);
  const { values, errors, formProps } = useBookingForm(step, result, view.state);
  const calendarModule = laterSteps.useModule(step === 6 && !view.callPicker);
  // Until its code has arrived (a moment on a slow line), "Choose a time" stays and the review shows.
  const calendarShown = showCalendar && calendarModule !== null;
  // What the next step shows once JavaScript runs is loaded while this one is filled in.
  useEffect(() => {
    if (step >= 4) void laterSteps.preload().catch(() => {});
  }, [step]);

  return (
    <Form
      {...formProps}
      method="post"
      action={`/booking?step=${step}`}
      encType={step === 5 ? "multipart/form-data" : undefined}
      aria-label={STEP_TITLES[step - 1]}
    >
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="fax_number">Leave this field empty</label>
        <input id="fax_number" name="fax_number" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>

      {step === 1 && view.carry ? <input type="hidden" name="carry" value={view.carry} /> : null}
      {view.fromReview ? <input type="hidden" name="from" value="review" /> : null}
      {step === 1 ? <Step1 values={values} errors={errors} packages={view.packages} /> : null}
      {step === 2 ? <Step2 values={values} errors={errors} /> : null}
      {step === 3 ? <Step3 values={values} errors={errors} /> : null}
      {step === 4 ? (
        <Step4
          values={values}
          errors={errors}
          selection={view.selection}
          addOns={view.addOns}
          campaign={view.campaign}
          catalogue={view.catalogue}
          earliest={view.earliest}
          computed={view.computed}
          enhanced={hydrated}
        />
      ) : null}
      {step === 5 ? (
        <FilesStep files={view.files} error={errors.files} busy={busy} enhanced={hydrated} onUploading={setUploading} />
      ) : null}
      {step === 6 && view.callPicker ? (
        <>
          {view.review ? (
            <ReviewStep
              sections={view.review.sections}
              total={view.review.total}
              next="Then pick a time for your free call below and confirm."
            />
          ) : null}
          <CallPicker picker={view.callPicker} error={errors.slot} />
        </>
      ) : step === 6 ? (
        calendarShown ? (
          <calendarModule.Calendar
            calendlyUrl={view.calendlyUrl}
            name={view.state.name}
            email={view.state.email}
            company={view.state.company}
            packageName={view.packageName}
            goal={view.goalLabel}
            attribution={typeof view.state.origin === "string" ? view.state.origin : ""}
          />
        ) : view.review ? (
          <ReviewStep sections={view.review.sections} total={view.review.total} />
        ) : null
      ) : null}

      {errors.form ? (
        <p
          id={`${formProps.id}-error`}
          role="alert"
          className="mt-8 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger"
        >
          {errors.form}
        </p>
      ) : null}

      <div className="mt-10 flex items-center justify-between gap-3 border-t border-line pt-6">
        {step > 1 ? (
          <button type="submit" name="intent" value="back" formNoValidate className="btn-ghost">
            <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back
          </button>
        ) : (
          <Link to="/packages" className="btn-ghost">
            <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Packages
          </Link>
        )}
        {step < 6 ? (
          <button
            type="submit"
            name="intent"
            value="next"
            className="btn-primary px-6"
            disabled={busy || (step === 5 && uploading)}
          >
            {busy || (step === 5 && uploading) ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
            {view.fromReview ? "Save and review" : "Next"} <ArrowRight aria-hidden="true" className="h-4 w-4" />
          </button>
        ) : hydrated && !calendarShown && !view.callPicker ? (
          <button key="choose-time" type="button" className="btn-primary px-6" onClick={() => setShowCalendar(true)}>
            Choose a time <ArrowRight aria-hidden="true" className="h-4 w-4" />
          </button>
        ) : (
          <button
            key="confirm"
            type="submit"
            name="intent"
            value="confirm"
            className={hydrated && !view.callPicker ? "btn-ghost" : "btn-primary px-6"}
            disabled={busy}
            onClick={() => clearSavedForm()}
          >
            {busy ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
            {hydrated && !view.callPicker ? "Confirm without scheduling now" : "Confirm booking"}
          </button>
        )}
      </div>
    </Form>
  );
}
