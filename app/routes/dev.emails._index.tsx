import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { env } from "../../server/env.server";
import { currentStudio } from "../../server/studio/current.server";
import { previewsServed, sampleEmails } from "../../server/admin/mail-samples.server";

export const meta: MetaFunction = () => [{ title: "Email previews" }, { name: "robots", content: "noindex" }];

/**
 * GET /dev/emails: every message the studio sends, with sample data, as a phone shows it (390 px)
 * with its plain-text part, for the operator in development (`npm run dev`, NODE_ENV=development).
 * Not served otherwise: a 404 in production and on `npm start`.
 */
export async function loader(_args: LoaderFunctionArgs) {
  const e = env();
  if (!previewsServed(e)) throw new Response("Not found", { status: 404 });
  return {
    emails: sampleEmails({ ...e, studio: await currentStudio() }).map(({ id, name, mail }) => ({
      id,
      name,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: (mail.attachments ?? []).map((a) => a.filename),
    })),
  };
}

export default function EmailPreviews() {
  const { emails } = useLoaderData<typeof loader>();
  return (
    <section className="container-page py-12" aria-labelledby="previews-title">
      <p className="eyebrow">Development only</p>
      <h1 id="previews-title" className="mt-3 text-4xl sm:text-5xl">
        Email previews
      </h1>
      <p className="mt-3 max-w-2xl text-ink-muted">
        Each message as the code sends it, with sample data: the HTML at a phone&apos;s width and the plain-text part.
        Open one on its own to try other widths or your mail client&apos;s dark mode.
      </p>
      <nav aria-label="Messages" className="mt-8">
        <ul className="flex flex-wrap gap-2">
          {emails.map((m) => (
            <li key={m.id}>
              <a
                href={`#${m.id}`}
                className="inline-flex rounded-full border border-line-strong px-4 py-2 text-sm hover:border-ink"
              >
                {m.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-10 space-y-16">
        {emails.map((m) => (
          <article key={m.id} id={m.id} aria-labelledby={`${m.id}-title`} className="scroll-mt-24">
            <h2 id={`${m.id}-title`} className="text-3xl">
              {m.name}
            </h2>
            <dl className="mt-3 grid gap-1 text-sm sm:grid-cols-[8rem_1fr]">
              <dt className="text-ink-muted">Subject</dt>
              <dd>{m.subject}</dd>
              <dt className="text-ink-muted">To</dt>
              <dd>{m.to}</dd>
              {m.attachments.length ? (
                <>
                  <dt className="text-ink-muted">Attached</dt>
                  <dd>{m.attachments.join(", ")}</dd>
                </>
              ) : null}
            </dl>
            <p className="mt-3 text-sm">
              <a href={`/dev/emails/${m.id}`} className="link-underline" target="_blank" rel="noreferrer">
                Open the HTML on its own
              </a>
            </p>
            <div className="mt-6 grid gap-8 lg:grid-cols-[390px_1fr]">
              <iframe
                title={`${m.name}, HTML at 390 px`}
                srcDoc={m.html}
                sandbox=""
                className="h-[720px] w-full max-w-[390px] rounded-card border border-line bg-white"
              />
              <div>
                <h3 className="font-sans text-sm font-semibold uppercase tracking-wider text-ink-muted">Plain text</h3>
                <pre className="mt-3 overflow-x-auto whitespace-pre-wrap break-words rounded-card border border-line bg-paper-sunk p-4 text-sm">
                  {m.text}
                </pre>
              </div>
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
