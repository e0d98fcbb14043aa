import type { ActionFunctionArgs } from "@remix-run/node";
import {
  adminBucket,
  adminUploadRules,
  storeAdminUpload,
  uploadRefusal,
  type AdminUploadResult,
} from "../../server/admin/uploads.server";
import { receiveUpload } from "../../server/http/uploads.server";
import { requireAdminOr } from "../../server/http/session.server";
import { env } from "../../server/env.server";
import { storageFullJson } from "../../server/http/disk-full.server";
import { rateLimit, TooManyRequests } from "../../server/rate-limit.server";
import { httpStatusOf, retryAfterHeaders } from "../../server/http/domain-errors";

/** POST /admin/upload?bucket=template-images|template-files&slug=…: admin file uploads (JSON answer). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireAdminOr(request, (refusal, status) =>
    Response.json({ error: uploadRefusal(refusal) }, { status }),
  );
  try {
    await rateLimit("admin-upload", user.id);
  } catch (error) {
    if (!(error instanceof TooManyRequests)) throw error;
    return Response.json({ error: error.message }, { status: httpStatusOf(error), headers: retryAfterHeaders(error) });
  }
  const url = new URL(request.url);
  const bucket = adminBucket(url.searchParams.get("bucket"));
  if (!bucket) return Response.json({ error: "Failed to upload file" }, { status: 400 });
  const dataDir = env().DATA_DIR;
  let r: AdminUploadResult;
  try {
    const received = await receiveUpload(request, dataDir, adminUploadRules(bucket));
    r = await storeAdminUpload(received, { dataDir, bucket, slug: url.searchParams.get("slug") ?? "template" });
  } catch (error) {
    return storageFullJson(error, "[admin-upload]");
  }
  if (r.error) return Response.json({ error: r.error }, { status: r.tooLarge ? 413 : 400 });
  return Response.json({ files: r.files });
}

export async function loader() {
  return new Response("Method Not Allowed", { status: 405 });
}
