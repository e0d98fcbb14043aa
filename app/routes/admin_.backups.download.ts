import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { backupFile } from "../../server/admin/backups.server";
import { requireAdminOr } from "../../server/http/session.server";
import { defaultBackupDir } from "../../server/db/backup.server";
import { env } from "../../server/env.server";
import { DomainError } from "../../server/errors";

/** GET /admin/backups/download?name=…: a backup listed in the console, streamed. Admins only. */
export async function loader({ request }: LoaderFunctionArgs) {
  const text = (status: number, body: string) =>
    new Response(body, {
      status,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
    });
  await requireAdminOr(request, (refusal, status) =>
    text(status, refusal === "signed-out" ? "Sign in as an admin to download backups." : "Admin access required."),
  );
  const e = env();
  let file: string;
  try {
    file = backupFile(defaultBackupDir(e.DATA_DIR, e.BACKUP_DIR), new URL(request.url).searchParams.get("name") ?? "");
  } catch (error) {
    if (error instanceof DomainError) return text(404, "No such backup.");
    throw error;
  }
  const stream = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
  return new Response(stream, {
    headers: {
      "Content-Type": "application/x-tar",
      "Content-Length": String(fs.statSync(file).size),
      "Content-Disposition": `attachment; filename="${path.basename(file)}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
