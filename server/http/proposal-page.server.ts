import { data, redirect } from "@remix-run/node";
import type { DB } from "../db/db.server";
import { env } from "../env.server";
import { DomainError } from "../errors";
import { rateLimit, TooManyRequests } from "../rate-limit.server";
import { readDocument } from "../contracts/documents.server";
import { requestFacts } from "../contracts/trail.server";
import {
  declineProposal,
  proposalPage,
  ProposalClosed,
  signedFileName,
  signedPdfByToken,
  signProposal,
} from "../contracts/signing.server";
import { invoiceDoc, invoiceForPayToken } from "../payments/invoices.server";
import { httpStatusOf, retryAfterHeaders } from "./domain-errors";
import { requireAdminOr } from "./session.server";

/**
 * `/proposal/<token>` (issue 44.2): the client's proposal, no account needed, plain forms that work
 * without JavaScript: "Accept and sign" and "Decline". Its signed PDF, and a payment's invoice and
 * receipt, are served beside it by their links. Any other token is 404.
 */

/** The client's own page (its link is the key): never stored by a cache, never sent on as a referrer. */
export const PRIVATE = { "Cache-Control": "private, no-store", "Referrer-Policy": "same-origin" };

function notFound(): never {
  throw data(
    { message: "This proposal link is not valid. Please use the link in the studio's latest email." },
    { status: 404, headers: PRIVATE },
  );
}

export async function proposalLoader(db: DB, token: string, request: Request, ip: string | null | undefined) {
  const page = await proposalPage(db, env(), token, requestFacts(request, ip));
  if (!page) notFound();
  const done = new URL(request.url).searchParams.get("done");
  return data(
    {
      ...page,
      done: done === "signed" || done === "declined" ? done : null,
      pdfPath: `/proposal/${encodeURIComponent(token)}/signed.pdf`,
    },
    { headers: PRIVATE },
  );
}

export type ProposalActionData = { nameError?: string; consentError?: string; error?: string; name?: string };

export async function proposalAction(db: DB, token: string, request: Request, ip: string | null | undefined) {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const path = `/proposal/${encodeURIComponent(token)}`;
  const who = requestFacts(request, ip);
  try {
    await rateLimit("booking-confirm", `proposal:${ip ?? ""}`);
    if (intent === "sign") {
      const name = form.get("name");
      await signProposal(db, env(), token, { name, consent: form.get("consent") }, who);
      return redirect(`${path}?done=signed`, { headers: PRIVATE });
    }
    if (intent === "decline") {
      await declineProposal(db, env(), token, form.get("reason"), who);
      return redirect(`${path}?done=declined`, { headers: PRIVATE });
    }
    return redirect(path, { headers: PRIVATE });
  } catch (error) {
    if (error instanceof TooManyRequests)
      return data<ProposalActionData>(
        { error: error.message },
        { status: 429, headers: { ...PRIVATE, ...retryAfterHeaders(error) } },
      );
    if (error instanceof ProposalClosed)
      return data<ProposalActionData>({ error: error.message }, { status: error.status, headers: PRIVATE });
    if (error instanceof DomainError) {
      if (error.kind === "not-found") notFound();
      const typed = String(form.get("name") ?? "").slice(0, 200);
      const body: ProposalActionData = /name/i.test(error.message)
        ? { nameError: error.message, name: typed }
        : /box|agree/i.test(error.message)
          ? { consentError: error.message, name: typed }
          : { error: error.message, name: typed };
      return data(body, { status: httpStatusOf(error), headers: PRIVATE });
    }
    throw error;
  }
}

/** pdf-lib loads at the first invoice, not at every start. */
const invoiceModule = () => import("../documents/invoice-pdf.server");

function pdfResponse(pdf: Uint8Array, filename: string) {
  return new Response(pdf, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "X-Content-Type-Options": "nosniff",
      ...PRIVATE,
    },
  });
}

/** GET /proposal/<token>/signed.pdf: the sealed PDF of a signed version. */
export async function signedPdfLoader(db: DB, token: string) {
  const row = await signedPdfByToken(db, token);
  const pdf = row ? readDocument(env().DATA_DIR, row.pdf_path) : null;
  if (!row || !pdf) return new Response("Not found", { status: 404, headers: PRIVATE });
  return pdfResponse(pdf, signedFileName(row));
}

/** GET /pay/<token>/invoice.pdf and receipt.pdf: a payment's invoice, and its receipt once paid. */
export async function invoicePdfLoader(db: DB, token: string, kind: "invoice" | "receipt") {
  const invoice = await invoiceForPayToken(db, token);
  if (!invoice || (kind === "receipt" && !invoice.paid_on))
    return new Response("Not found", { status: 404, headers: PRIVATE });
  const { renderInvoicePdf } = await invoiceModule();
  const pdf = await renderInvoicePdf(invoiceDoc(invoice, kind, `${env().APP_URL}/pay/${token}`));
  return pdfResponse(pdf, `${invoice.number}${kind === "receipt" ? "-receipt" : ""}.pdf`);
}

/** GET /admin/proposals/<id> and /admin/invoices/<id>[?receipt=1]: the same documents for the console. */
export async function adminDocumentLoader(db: DB, request: Request, kind: "proposal" | "invoice", id: string) {
  await requireAdminOr(
    request,
    (refusal, status) =>
      new Response(refusal === "signed-out" ? "Sign in as an admin." : "Admin access required.", {
        status,
        headers: PRIVATE,
      }),
  );
  if (kind === "proposal") {
    const row = await db.selectFrom("proposals").selectAll().where("id", "=", id).executeTakeFirst();
    const pdf = row ? readDocument(env().DATA_DIR, row.pdf_path) : null;
    return row && pdf
      ? pdfResponse(pdf, signedFileName(row))
      : new Response("Not found", { status: 404, headers: PRIVATE });
  }
  const invoice = await db.selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirst();
  const receipt = new URL(request.url).searchParams.get("receipt") === "1";
  if (!invoice || (receipt && !invoice.paid_on)) return new Response("Not found", { status: 404, headers: PRIVATE });
  const { renderInvoicePdf } = await invoiceModule();
  const pdf = await renderInvoicePdf(invoiceDoc(invoice, receipt ? "receipt" : "invoice", null));
  return pdfResponse(pdf, `${invoice.number}${receipt ? "-receipt" : ""}.pdf`);
}
