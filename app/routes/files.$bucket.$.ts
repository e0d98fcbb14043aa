import type { LoaderFunctionArgs } from "@remix-run/node";
import { serveStoredFile } from "../../server/storage/serve.server";

/** GET /files/<bucket>/<path>: public images, or signed links (?exp=…&sig=…) for everything else. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return serveStoredFile(request, params.bucket ?? "", params["*"] ?? "");
}
