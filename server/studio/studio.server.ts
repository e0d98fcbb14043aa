import type { Transaction } from "kysely";
import { CASE_GRADIENTS, type CaseStudy } from "#domain/sample/case-studies";
import { LEGAL_TITLES, parseLegal, SAMPLE_LEGAL_DATE, type LegalData } from "#domain/sample/legal";
import { fillStudio, sampleIdentity, type PublicIdentity, type StudioIdentity } from "#domain/sample/site";
import { type Testimonial } from "#domain/sample/testimonials";
import { catalogueFrom, type Catalogue, type CatalogueData } from "#domain/catalogue";
import { SETTINGS_SECTIONS, type SettingsSection } from "#domain/studio-settings";
import type { PaymentTerms } from "#domain/payment-plan";
import { defaultCalendar, type CalendarSettings } from "#domain/calendar-settings";
import type { ContractSettings } from "#domain/contract-settings";
import type { DB } from "../db/db.server";
import type { Database } from "../db/schema";
import { nowIso, toJson } from "../db/json";
import { announceCatalogueChange, keptUntilCatalogueChange } from "../db/catalogue-version.server";
import { DomainError } from "../errors";
import { DEFAULT_CALENDLY_URL, env } from "../env.server";
import { log } from "../log.server";
import { SAMPLE, STORED, type StoredSections } from "./stored";

/**
 * What the owner edits (issue 29): the studio's words, prices and pictures, read from
 * `studio_settings` (one row per section of the console's Settings). A section without a row, or
 * whose row cannot be read, is the sample studio's. Read through one accessor, `getStudio(db)`,
 * kept in memory per database until the catalogue's version moves: every save announces a change
 * in its own transaction, so the next request anywhere (and the page cache) sees it.
 */

export type SectionMeta = { sample: boolean; updatedAt: string | null; updatedBy: string | null };

export type StudioContent = {
  identity: StudioIdentity;
  catalogueData: CatalogueData;
  catalogue: Catalogue;
  caseStudies: CaseStudy[];
  testimonials: Testimonial[];
  legal: LegalData & { updatedAt: string };
  /** Every new booking's payment plan and the days an invoice is due in (issue 31). */
  paymentTerms: PaymentTerms;
  /** Where consultation calls are booked, and the built-in calendar's hours (issue 43). */
  calendar: CalendarSettings;
  /** Proposal terms and the business details on invoices (issue 44). */
  contract: ContractSettings;
  sections: Record<SettingsSection, SectionMeta>;
};

const EXAMPLE_EMAIL = sampleIdentity.contactEmail;

/**
 * The calendar of a data folder that never saved Settings → Calendar: the built-in one in
 * STUDIO_TIMEZONE, unless the studio already books through Calendly (CALENDLY_URL set, or a
 * calendar link saved in Settings → Studio), which it keeps until the owner switches (issue 43.1).
 */
function newStudioCalendar(identity: StudioIdentity): CalendarSettings {
  const e = env();
  const calendly = e.CALENDLY_URL !== DEFAULT_CALENDLY_URL || Boolean(identity.calendarUrl);
  return defaultCalendar(e.STUDIO_TIMEZONE, calendly ? "calendly" : "builtin");
}

/** Reads every section from the database (the sample's where a section has no readable row). */
export async function loadStudio(db: DB, opts: { studioEmail?: string } = {}): Promise<StudioContent> {
  const rows = await db.selectFrom("studio_settings").selectAll().execute();
  const byId = new Map(rows.map((r) => [r.section, r]));
  const sections = {} as Record<SettingsSection, SectionMeta>;
  const read = <S extends SettingsSection>(section: S): StoredSections[S] => {
    const row = byId.get(section);
    sections[section] = {
      sample: row ? row.sample === 1 : true,
      updatedAt: row?.updated_by ? row.updated_at : null,
      updatedBy: row?.updated_by ?? null,
    };
    if (!row) return SAMPLE[section];
    try {
      const parsed = STORED[section].safeParse(JSON.parse(row.data));
      if (parsed.success) return parsed.data;
      log.error(
        `[studio] the saved ${section} settings could not be read; showing the sample's (${parsed.error.issues[0]?.path.join(".") ?? ""}: ${parsed.error.issues[0]?.message ?? "invalid"})`,
      );
    } catch (error) {
      log.error({ err: error }, `[studio] the saved ${section} settings are not JSON; showing the sample's`);
    }
    return SAMPLE[section];
  };
  const identity: StudioIdentity = { ...sampleIdentity, ...read("studio") };
  // The example address is never shown for a studio that set STUDIO_EMAIL (issue 29).
  if (identity.contactEmail === EXAMPLE_EMAIL && opts.studioEmail && opts.studioEmail !== EXAMPLE_EMAIL)
    identity.contactEmail = opts.studioEmail;
  const catalogueData: CatalogueData = { packages: read("packages").packages, promotion: read("promotion") };
  const legal = read("legal");
  const calendar = read("calendar");
  return {
    identity,
    catalogueData,
    catalogue: catalogueFrom(catalogueData),
    caseStudies: read("caseStudies").items,
    testimonials: read("testimonials").items,
    legal: { ...legal, updatedAt: sections.legal.updatedAt ?? `${SAMPLE_LEGAL_DATE}T12:00:00.000Z` },
    paymentTerms: read("payments"),
    calendar: byId.has("calendar") ? calendar : newStudioCalendar(identity),
    contract: read("contract"),
    sections,
  };
}

const keptStudio = keptUntilCatalogueChange((db, studioEmail) =>
  loadStudio(db, { studioEmail: studioEmail || undefined }),
);

/**
 * The studio as pages and mails read it: kept in memory per database and read again only once the
 * catalogue's version moved (a save here, or in another process such as an operator command). Its
 * contact address is STUDIO_EMAIL while the sample's is unchanged, for every caller: the one way
 * to the studio's address (issue 41.6); a caller with an env of its own passes its STUDIO_EMAIL.
 */
export function getStudio(
  db: DB,
  opts: { studioEmail?: string } = { studioEmail: env().STUDIO_EMAIL },
): Promise<StudioContent> {
  return keptStudio(db, opts.studioEmail ?? "");
}

/** What every page's layout shows of the studio. */
export function publicIdentity(s: StudioContent): PublicIdentity {
  const { name, designer, role, contactEmail, socialUrl, socialLabel, footerLine } = s.identity;
  return { name, designer, role, contactEmail, socialUrl, socialLabel, footerLine };
}

// ---------- Saving ----------

type Writer = DB | Transaction<Database>;

async function writeSection<S extends SettingsSection>(
  trx: Writer,
  section: S,
  data: StoredSections[S],
  byEmail: string,
  sample = false,
): Promise<void> {
  const now = nowIso();
  await trx
    .insertInto("studio_settings")
    .values({ section, data: toJson(data), sample: sample ? 1 : 0, updated_at: now, updated_by: byEmail })
    .onConflict((oc) =>
      oc
        .column("section")
        .doUpdateSet({ data: toJson(data), sample: sample ? 1 : 0, updated_at: now, updated_by: byEmail }),
    )
    .execute();
  await announceCatalogueChange(trx);
}

/** Saves one section in one transaction (the page cache drops every page at the next request). */
export async function saveSection<S extends SettingsSection>(
  db: DB,
  section: S,
  data: StoredSections[S],
  byEmail: string,
): Promise<void> {
  await db.transaction().execute((trx) => writeSection(trx, section, data, byEmail));
}

/** A section's content read for a change (inside the change's transaction). */
async function current<S extends SettingsSection>(trx: Writer, section: S): Promise<StoredSections[S]> {
  const row = await trx.selectFrom("studio_settings").select("data").where("section", "=", section).executeTakeFirst();
  if (!row) return SAMPLE[section];
  const parsed = STORED[section].safeParse(JSON.parse(row.data));
  return parsed.success ? parsed.data : SAMPLE[section];
}

/** The studio section as saved, with the sample's values for the fields never saved. */
export async function saveIdentity(db: DB, identity: StudioIdentity, byEmail: string): Promise<void> {
  await saveSection(db, "studio", identity, byEmail);
}

/**
 * Adds a case study (no id) or replaces the one with its id; answers its id and the pictures no
 * case study names any more (the caller deletes their files after the commit).
 *
 * A case study's pictures are its own (issue 40.5): of the pictures posted, it keeps those it
 * already had and those just uploaded for it (`uploaded`); a picture of another case study, named
 * in a hand-made post, is dropped, so removing one case study can never delete another's.
 */
export async function saveCaseStudy(
  db: DB,
  study: Omit<CaseStudy, "gradient" | "id"> & { id: string },
  byEmail: string,
  uploaded: string[] = [],
): Promise<{ id: string; removedImages: string[] }> {
  return db.transaction().execute(async (trx) => {
    const { items } = await current(trx, "caseStudies");
    const at = study.id ? items.findIndex((c) => c.id === study.id) : -1;
    if (study.id && at < 0) throw new DomainError("not-found", "This case study no longer exists.");
    const id = study.id || newId(items.map((c) => c.id));
    const previous = at >= 0 ? items[at] : undefined;
    const own = new Set([...(previous?.images ?? []).map((i) => i.url), ...uploaded]);
    const next: CaseStudy = {
      ...study,
      images: study.images.filter((i) => own.has(i.url)),
      id,
      gradient: previous?.gradient ?? CASE_GRADIENTS[items.length % CASE_GRADIENTS.length],
    };
    const list = at >= 0 ? items.map((c, i) => (i === at ? next : c)) : [...items, next];
    await writeSection(trx, "caseStudies", { items: list }, byEmail);
    return { id, removedImages: unnamedPictures(previous?.images ?? [], list) };
  });
}

/** Of `pictures`, the URLs no case study of `list` names. */
function unnamedPictures(pictures: { url: string }[], list: CaseStudy[]): string[] {
  const named = new Set(list.flatMap((c) => c.images.map((i) => i.url)));
  return pictures.map((i) => i.url).filter((u) => !named.has(u));
}

/** Moves a case study one place up or down. */
export async function moveCaseStudy(db: DB, id: string, by: -1 | 1, byEmail: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const { items } = await current(trx, "caseStudies");
    const at = items.findIndex((c) => c.id === id);
    if (at < 0) throw new DomainError("not-found", "This case study no longer exists.");
    const to = at + by;
    if (to < 0 || to >= items.length) return;
    const list = [...items];
    [list[at], list[to]] = [list[to], list[at]];
    await writeSection(trx, "caseStudies", { items: list }, byEmail);
  });
}

/**
 * Removes a case study; answers the image URLs it held that no other case study names (the caller
 * deletes the files after the commit).
 */
export async function removeCaseStudy(db: DB, id: string, byEmail: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const { items } = await current(trx, "caseStudies");
    const study = items.find((c) => c.id === id);
    if (!study) throw new DomainError("not-found", "This case study no longer exists.");
    const rest = items.filter((c) => c.id !== id);
    await writeSection(trx, "caseStudies", { items: rest }, byEmail);
    return unnamedPictures(study.images, rest);
  });
}

/**
 * Clears the sample's content of a section (the console's "Clear sample content"): what a studio
 * of its own starts from. The studio keeps its name and contact address, the packages their
 * names, prices and timelines (a studio always offers a package), the promotion is turned off.
 * Answers the image URLs that are no longer used.
 */
export async function clearSample(db: DB, section: SettingsSection, byEmail: string): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    switch (section) {
      case "studio": {
        const s = { ...sampleIdentity, ...(await current(trx, "studio")) };
        await writeSection(
          trx,
          "studio",
          {
            ...s,
            designer: "",
            role: "",
            bio: [],
            socialUrl: "",
            socialLabel: "",
            footerLine: "",
            trustedBy: [],
          },
          byEmail,
        );
        return [];
      }
      case "packages": {
        const { packages } = await current(trx, "packages");
        await writeSection(
          trx,
          "packages",
          { packages: packages.map((p) => ({ ...p, description: "", included: [], notIncluded: [], addOns: [] })) },
          byEmail,
        );
        return [];
      }
      case "promotion":
        await writeSection(trx, "promotion", { ...(await current(trx, "promotion")), enabled: false }, byEmail);
        return [];
      case "caseStudies": {
        const { items } = await current(trx, "caseStudies");
        await writeSection(trx, "caseStudies", { items: [] }, byEmail);
        return items.flatMap((c) => c.images.map((i) => i.url));
      }
      case "testimonials":
        await writeSection(trx, "testimonials", { items: [] }, byEmail);
        return [];
      case "legal":
        await writeSection(trx, "legal", { terms: "", privacy: "" }, byEmail);
        return [];
      case "payments":
        // Terms, not sample content: the studio keeps them as they are, now its own.
        await writeSection(trx, "payments", await current(trx, "payments"), byEmail);
        return [];
      case "calendar":
        // Hours, not sample content: kept as they are (a data folder's own defaults), now the studio's.
        await writeSection(trx, "calendar", (await loadStudio(trx as DB)).calendar, byEmail);
        return [];
      case "contract":
        // Terms a proposal cannot go out without: kept as they are, now the studio's to edit.
        await writeSection(trx, "contract", await current(trx, "contract"), byEmail);
        return [];
    }
  });
}

function newId(taken: string[]): string {
  const have = new Set(taken);
  for (;;) {
    const id = Math.random().toString(36).slice(2, 8);
    if (!have.has(id)) return id;
  }
}

export const SECTION_IDS = SETTINGS_SECTIONS.map((s) => s.id);

/** A legal page as /terms and /privacy show it: the saved text with the studio filled in, dated by its last save. */
export function legalPage(s: StudioContent, which: keyof LegalData) {
  const { intro, sections } = parseLegal(fillStudio(s.legal[which], s.identity));
  const date = new Date(s.legal.updatedAt).toLocaleDateString("en-US", {
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
  return { title: LEGAL_TITLES[which], updated: `Last updated ${date}`, intro, sections };
}
