import crypto from "node:crypto";
import { z } from "zod";
import {
  emptyFormState,
  formStateSchema,
  uploadedFileSchema,
  type BookingFormState,
  type UploadedFile,
} from "#domain/booking-state";
import type { DB } from "../db/db.server";
import { fromJson, listFromJson, nowIso, toJson } from "../db/json";

export type Draft = {
  id: string;
  bookingId: string;
  state: BookingFormState;
  completed: number[];
  files: UploadedFile[];
  confirmedAt: string | null;
};

/** booking_drafts.data, validated field by field before it becomes form state. */
const storedDraftSchema = z.object({
  state: formStateSchema.catch(() => emptyFormState()),
  completed: z.array(z.unknown()).catch([]),
});

function toDraft(row: {
  id: string;
  booking_id: string;
  data: string;
  uploaded_files: string;
  confirmed_at: string | null;
}): Draft {
  const data = fromJson(row.data, storedDraftSchema, { state: emptyFormState(), completed: [] });
  return {
    id: row.id,
    bookingId: row.booking_id,
    state: data.state,
    completed: data.completed.filter((n): n is number => Number.isInteger(n)),
    files: listFromJson(row.uploaded_files, uploadedFileSchema),
    confirmedAt: row.confirmed_at,
  };
}

/** The draft of that id (the visitor's cookie holds it: server/http/draft-cookie.server.ts). */
export async function draftById(db: DB, id: string): Promise<Draft | null> {
  const row = await db.selectFrom("booking_drafts").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toDraft(row) : null;
}

/** A new, empty draft with its booking id generated once; its id is a secret the cookie carries. */
export async function createDraft(db: DB): Promise<Draft> {
  const id = crypto.randomBytes(24).toString("base64url");
  const bookingId = crypto.randomUUID();
  await db
    .insertInto("booking_drafts")
    .values({ id, booking_id: bookingId, data: toJson({ state: {}, completed: [] }), confirmed_at: null })
    .execute();
  return { id, bookingId, state: emptyFormState(), completed: [], files: [], confirmedAt: null };
}

export async function saveDraftState(
  db: DB,
  draft: Draft,
  patch: Partial<BookingFormState>,
  completedStep?: number,
): Promise<Draft> {
  const state = { ...draft.state, ...patch };
  const completed =
    completedStep && !draft.completed.includes(completedStep)
      ? [...draft.completed, completedStep].sort()
      : draft.completed;
  await db
    .updateTable("booking_drafts")
    .set({ data: toJson({ state, completed }), updated_at: nowIso() })
    .where("id", "=", draft.id)
    .where("confirmed_at", "is", null)
    .execute();
  return { ...draft, state, completed };
}

export async function saveDraftFiles(db: DB, draft: Draft, files: UploadedFile[]): Promise<Draft> {
  await db
    .updateTable("booking_drafts")
    .set({ uploaded_files: toJson(files), updated_at: nowIso() })
    .where("id", "=", draft.id)
    .execute();
  return { ...draft, files };
}

export class TooManyDraftFiles extends Error {}

/**
 * Adds stored files to a draft in one transaction, re-reading the list first so that uploads
 * that race (two tabs, a retried request) neither lose a file nor pass the maximum: past `max`
 * nothing is added and TooManyDraftFiles is thrown (the caller removes what it stored).
 */
export async function appendDraftFiles(db: DB, draft: Draft, added: UploadedFile[], max: number): Promise<Draft> {
  if (!added.length) return draft;
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("booking_drafts")
      .select(["uploaded_files"])
      .where("id", "=", draft.id)
      .executeTakeFirstOrThrow();
    const current = listFromJson(row.uploaded_files, uploadedFileSchema);
    if (current.length + added.length > max) throw new TooManyDraftFiles();
    const files = [...current, ...added];
    await trx
      .updateTable("booking_drafts")
      .set({ uploaded_files: toJson(files), updated_at: nowIso() })
      .where("id", "=", draft.id)
      .execute();
    return { ...draft, files };
  });
}
