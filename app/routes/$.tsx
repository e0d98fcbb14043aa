import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { pageTitle } from "~/lib/seo";
import { GeneralErrorBoundary } from "~/components/ui/ErrorBoundary";

export const meta: MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, "Page not found") },
  { name: "robots", content: "noindex" },
];

/** Any unknown path: a 404 whose "Go back" returns to the same-site referrer, if any. */
export async function loader({ request }: LoaderFunctionArgs) {
  const referer = request.headers.get("referer");
  let back = "/";
  if (referer) {
    try {
      const ref = new URL(referer);
      if (ref.origin === new URL(request.url).origin) back = ref.pathname + ref.search;
    } catch {
      back = "/";
    }
  }
  throw Response.json({ back }, { status: 404 });
}

export default function CatchAll() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
