import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PageIntro } from "~/components/ui/PageIntro";
import { db } from "../../server/db.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const template = await db()
    .selectFrom("templates")
    .select(["id", "name", "slug", "tagline"])
    .where("slug", "=", params.slug ?? "")
    .executeTakeFirst();
  if (!template) throw Response.json({ back: "/templates" }, { status: 404 });
  return { template };
}

export default function TemplateDetail() {
  const { template } = useLoaderData<typeof loader>();
  return (
    <PageIntro eyebrow="Template" title={template.name}>
      <p>{template.tagline}</p>
      <Link to="/templates" className="link-underline">Back to templates</Link>
    </PageIntro>
  );
}
