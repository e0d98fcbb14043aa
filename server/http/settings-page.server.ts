import type { SubmissionResult } from "@conform-to/react";
import { mailIsOff } from "#domain/mail-providers";
import { data, redirect } from "@remix-run/node";
import type { CaseStudy } from "#domain/sample/case-studies";
import { PACKAGE_IDS } from "#domain/packages";
import { calendarFormValues, timeZoneChoices } from "#domain/calendar-settings";
import { contractFormValues } from "#domain/contract-settings";
import { isSettingsSection, parseSection, SETTINGS_SECTIONS, type SettingsSection } from "#domain/studio-settings";
import { requireAdmin } from "./session.server";
import { db } from "../db.server";
import { env } from "../env.server";
import { DomainError } from "../errors";
import { httpStatusOf } from "./domain-errors";
import { isDiskFull } from "../storage/storage.server";
import { removeStudioImages, storeStudioImages, STUDIO_IMAGE_RULES } from "../studio/images.server";
import { receiveUpload } from "./uploads.server";
import {
  calendarSettingsAction,
  calendarSettingsData,
  parseCalendarIntent,
  type CalendarActionData,
} from "./calendar-settings.server";
import {
  clearSample,
  getStudio,
  moveCaseStudy,
  removeCaseStudy,
  saveCaseStudy,
  saveSection,
  type StudioContent,
} from "../studio/studio.server";
import type { StoredSections } from "../studio/stored";

/**
 * The console's Settings page (issue 29), the web side: who may see it (admins only, anyone else
 * goes to /templates like the console), each section's saved content in its form's shape, and the
 * one action every section's form posts to. Every field is read with the form's own schema
 * (conform + zod); a save is one transaction and answers "Saved", a refusal the field's message
 * with what was typed.
 */

const dollars = (cents: number) => String(Math.round(cents / 100));

/** Each section as its form's fields (strings where the form has text). */
function formValues(s: StudioContent, section: SettingsSection, edit: string | null) {
  switch (section) {
    case "studio":
      return {
        ...s.identity,
        bio: s.identity.bio.join("\n\n"),
        trustedBy: s.identity.trustedBy.join("\n"),
      };
    case "packages":
      return {
        tiers: s.catalogueData.packages.map((p) => ({
          id: p.id,
          name: p.name,
          basePrice: dollars(p.basePrice),
          priceLabel: p.priceLabel,
          timeline: p.timeline,
          description: p.description,
          recommended: p.recommended ? "on" : "",
          offered: p.offered ? "on" : "",
          included: p.included.join("\n"),
          notIncluded: p.notIncluded.join("\n"),
          cta: p.cta,
          depositPercent: String(p.deposit.percent),
          addOns: p.addOns.map((a) => ({
            id: a.id,
            name: a.name,
            description: a.description,
            price: dollars(a.price),
            allowMultiple: a.allowMultiple ? "on" : "",
            maxQuantity: String(a.maxQuantity),
          })),
        })),
      };
    case "promotion": {
      const p = s.catalogueData.promotion;
      return { ...p, enabled: p.enabled ? "on" : "", discountPercent: String(p.discountPercent) };
    }
    case "caseStudies": {
      const study = edit && edit !== "new" ? s.caseStudies.find((c) => c.id === edit) : undefined;
      return study ? caseStudyForm(study) : caseStudyForm(null);
    }
    case "testimonials":
      return { items: s.testimonials };
    case "legal":
      return { terms: s.legal.terms, privacy: s.legal.privacy };
    case "payments":
      return {
        stages: s.paymentTerms.stages.map((st) => ({ ...st, percent: String(st.percent) })),
        dueBusinessDays: String(s.paymentTerms.dueBusinessDays),
      };
    case "calendar":
      return calendarFormValues(s.calendar);
    case "contract":
      return contractFormValues(s.contract);
  }
}

function caseStudyForm(c: CaseStudy | null) {
  const metrics = [...(c?.metrics ?? [])];
  while (metrics.length < 3) metrics.push({ label: "", value: "" });
  return {
    id: c?.id ?? "",
    title: c?.title ?? "",
    client: c?.client ?? "",
    industry: c?.industry ?? "",
    challenge: c?.challenge ?? "",
    solution: c?.solution ?? "",
    result: c?.result ?? "",
    tags: (c?.tags ?? []).join(", "),
    metrics,
    images: c?.images ?? [],
  };
}

export async function settingsLoader(request: Request) {
  const admin = await requireAdmin(request);
  const url = new URL(request.url);
  const asked = url.searchParams.get("section");
  const section: SettingsSection = isSettingsSection(asked) ? asked : "studio";
  const edit = url.searchParams.get("edit");
  const s = await getStudio(db(), { studioEmail: env().STUDIO_EMAIL });
  // Settings → Calendar's calendars and the owner's feed address (its secret made on first use).
  const calendar = section === "calendar" ? await calendarSettingsData(db(), env().APP_URL) : null;
  const editing =
    section === "caseStudies" && edit
      ? edit === "new" || s.caseStudies.some((c) => c.id === edit)
        ? edit
        : null
      : null;
  return {
    admin: { email: admin.email, isSuperAdmin: admin.isSuperAdmin },
    /** Production without a mail provider: the console's "Mail is off" banner. */
    mailOff: mailIsOff(env()),
    section,
    editing,
    sections: SETTINGS_SECTIONS.map((x) => ({ ...x, ...s.sections[x.id] })),
    values: formValues(s, section, editing),
    /** The case studies as the list shows them (title, client, pictures), in their order. */
    caseStudies: s.caseStudies.map((c) => ({
      id: c.id,
      title: c.title,
      industry: c.industry,
      cover: c.images[0] ?? null,
      imageCount: c.images.length,
    })),
    packageNames: PACKAGE_IDS.map((id) => ({
      id,
      name: s.catalogueData.packages.find((p) => p.id === id)?.name ?? id,
    })),
    calendarDefault: env().CALENDLY_URL,
    /** Settings → Calendar's list of time zones (the server's, so the page hydrates as rendered). */
    timeZones: section === "calendar" ? timeZoneChoices() : [],
    /** Settings → Calendar's "Your calendars": each source by its host only, never its secret address. */
    sources: calendar?.sources ?? [],
    /** Settings → Calendar: the owner's feed of calls (the address is its secret). */
    feedUrl: calendar?.feedUrl ?? "",
  };
}

/**
 * What the action answers: conform's reply, and when something was saved, what to say; for
 * Settings → Calendar's calendars and feed address, what their forms did.
 */
export type SettingsActionData = {
  reply?: SubmissionResult<string[]>;
  saved?: string;
  error?: string;
  calendar?: CalendarActionData;
};

const LABEL = Object.fromEntries(SETTINGS_SECTIONS.map((s) => [s.id, s.label])) as Record<SettingsSection, string>;

function isMultipart(request: Request) {
  return (request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data");
}

export async function settingsAction(request: Request) {
  const admin = await requireAdmin(request);
  const dataDir = env().DATA_DIR;
  const database = db();
  let form: FormData;
  let newImages: string[] = [];
  if (isMultipart(request)) {
    try {
      const received = await storeStudioImages(await receiveUpload(request, dataDir, STUDIO_IMAGE_RULES), dataDir);
      form = received.fields;
      newImages = received.stored;
      if (received.error) {
        const submission = parseSection(form, "caseStudies");
        return data<SettingsActionData>(
          { reply: submission.reply({ fieldErrors: { newImages: [received.error] } }) },
          { status: 400 },
        );
      }
    } catch (error) {
      if (isDiskFull(error))
        return data<SettingsActionData>(
          { error: "The server's disk is full: nothing was saved. Free some space and try again." },
          { status: 507 },
        );
      throw error;
    }
  } else {
    form = await request.formData();
  }
  const section = form.get("section");
  if (!isSettingsSection(section)) throw data({ error: "Unknown section" }, { status: 400 });
  const intent = String(form.get("intent") ?? "save");
  const by = admin.email;
  const calendarIntent = section === "calendar" ? parseCalendarIntent(intent) : null;
  if (calendarIntent) {
    const { status, body } = await calendarSettingsAction(database, form, calendarIntent, {
      studioEmail: env().STUDIO_EMAIL,
    });
    return data<SettingsActionData>({ calendar: body }, { status });
  }

  try {
    if (intent === "clear-sample") {
      const unused = await clearSample(database, section, by);
      removeStudioImages(dataDir, unused);
      return { saved: `Sample ${LABEL[section].toLowerCase()} cleared` } satisfies SettingsActionData;
    }
    if (section === "caseStudies" && intent !== "save") {
      const [op, id] = intent.split(":");
      if (op === "move-up" || op === "move-down") {
        await moveCaseStudy(database, id ?? "", op === "move-up" ? -1 : 1, by);
        return { saved: "Order saved" } satisfies SettingsActionData;
      }
      if (op === "remove") {
        removeStudioImages(dataDir, await removeCaseStudy(database, id ?? "", by));
        return { saved: "Case study removed" } satisfies SettingsActionData;
      }
    }

    const submission = parseSection(form, section);
    if (submission.status !== "success") {
      // A refused form keeps nothing it uploaded; what was typed comes back with the messages.
      removeStudioImages(dataDir, newImages);
      return data<SettingsActionData>({ reply: submission.reply() }, { status: submission.status ? 400 : 200 });
    }
    if (section === "caseStudies") {
      const value = submission.value as Omit<CaseStudy, "gradient">;
      const alt = String(form.get("newImagesAlt") ?? "").trim();
      if (newImages.length && !alt) {
        removeStudioImages(dataDir, newImages);
        return data<SettingsActionData>(
          {
            reply: submission.reply({
              fieldErrors: { newImagesAlt: ["Describe the new pictures for people who cannot see them"] },
            }),
          },
          { status: 400 },
        );
      }
      const images = [...value.images, ...newImages.map((url) => ({ url, alt: alt.slice(0, 200) }))];
      if (images.length > 6) {
        removeStudioImages(dataDir, newImages);
        return data<SettingsActionData>(
          { reply: submission.reply({ fieldErrors: { newImages: ["At most 6 images per case study"] } }) },
          { status: 400 },
        );
      }
      const saved = await saveCaseStudy(database, { ...value, images }, by, newImages);
      removeStudioImages(dataDir, saved.removedImages);
      // Back to the list; the page says what happened.
      return redirect(`/admin/settings?section=caseStudies&saved=${value.id ? "updated" : "added"}`);
    }
    const value = submission.value;
    const stored =
      section === "testimonials"
        ? {
            items: (value as StoredSections["testimonials"]).items.map((t) => ({
              ...t,
              id: t.id || Math.random().toString(36).slice(2, 8),
            })),
          }
        : value;
    await saveSection(database, section, stored as StoredSections[typeof section], by);
    return { reply: submission.reply(), saved: "Saved" } satisfies SettingsActionData;
  } catch (error) {
    removeStudioImages(dataDir, newImages);
    if (error instanceof DomainError)
      return data<SettingsActionData>({ error: error.message }, { status: httpStatusOf(error) });
    if (isDiskFull(error))
      return data<SettingsActionData>(
        { error: "The server's disk is full: nothing was saved. Free some space and try again." },
        { status: 507 },
      );
    throw error;
  }
}
