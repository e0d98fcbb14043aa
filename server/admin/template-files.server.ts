import type { DB } from "../db/db.server";
import { nowIso, stringList, toJson } from "../db/json";
import { announceCatalogueChange } from "../db/catalogue-version.server";
import { createStorage, StoragePathError } from "../storage/storage.server";
import { isStoredFilePath, storedImagePath, type TemplateFileBucket } from "#domain/template-files";

export type DeleteTemplateFileResult = "deleted" | "missing" | "invalid" | "in-use";

type TemplateRefs = { id: string; slug: string; images: string; image_url: string | null; file_url: string | null };

/** Whether a saved template points at the file (an archive also by the download fallback, slug.zip). */
function refersTo(row: TemplateRefs, bucket: TemplateFileBucket, path: string): boolean {
  if (bucket === "template-images") {
    return [...stringList(row.images), row.image_url ?? ""].some((url) => storedImagePath(url) === path);
  }
  return (row.file_url || `${row.slug}.zip`) === path;
}

/**
 * Deletes a stored template image or archive (admin form's Remove). Only the two template
 * buckets; a path that could leave its bucket, or names a temp file, is "invalid"; a file that is
 * not stored is "missing" (no error thrown). A file another template still uses is kept
 * ("in-use"), so one template's Remove never breaks another's previews or buyers' downloads.
 * When `templateId` names the template being edited, its saved record stops pointing at the file
 * in the same transaction, so cancelling the form never leaves it showing a deleted file.
 */
export async function deleteTemplateFile(
  db: DB,
  dataDir: string,
  input: { bucket: TemplateFileBucket; path: string; templateId?: string },
): Promise<DeleteTemplateFileResult> {
  const { bucket, path } = input;
  if (bucket !== "template-images" && bucket !== "template-files") return "invalid";
  if (!isStoredFilePath(path)) return "invalid";
  const storage = createStorage(dataDir);
  try {
    storage.resolveSafe(bucket, path);
  } catch (error) {
    if (error instanceof StoragePathError) return "invalid";
    throw error;
  }
  const rows = await db.selectFrom("templates").select(["id", "slug", "images", "image_url", "file_url"]).execute();
  if (rows.some((r) => r.id !== input.templateId && refersTo(r, bucket, path))) return "in-use";
  const own = rows.find((r) => r.id === input.templateId && refersTo(r, bucket, path));
  return db.transaction().execute(async (trx) => {
    if (own) {
      const images = stringList(own.images).filter((url) => storedImagePath(url) !== path);
      await trx
        .updateTable("templates")
        .set({
          images: toJson(images),
          image_url: images[0] ?? null,
          file_url: own.file_url === path ? null : own.file_url,
          updated_at: nowIso(),
        })
        .where("id", "=", own.id)
        .execute();
      await announceCatalogueChange(trx);
    }
    const existed = storage.exists(bucket, path);
    // Anything but a clean unlink (permissions, a folder in the way) rolls the record back.
    if (existed && storage.removeMany(bucket, [path]) !== 1) throw new Error(`could not delete ${bucket}/${path}`);
    return existed ? "deleted" : "missing";
  });
}
