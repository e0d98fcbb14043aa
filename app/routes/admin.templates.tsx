import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { TemplatesScreen } from "~/components/admin/templates/TemplatesScreen";
import { consoleMeta } from "~/lib/seo";
import { requireAdmin } from "../../server/http/session.server";
import { shopContext } from "../../server/trpc/page-data.server";

export const meta = consoleMeta("Templates · Admin");

/** /admin/templates: every template with its sales. */
export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  const { caller } = await shopContext(request, admin);
  return { templates: await caller.admin.templates.list() };
}

export default function Templates() {
  const { templates } = useLoaderData<typeof loader>();
  return <TemplatesScreen initial={templates} />;
}
