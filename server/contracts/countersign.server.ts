import { PROPOSAL_MESSAGES, signerName } from "#domain/proposal";
import type { DB } from "../db/db.server";
import { DomainError } from "../errors";
import type { Env } from "../env.server";
import { sendMail } from "../email/mailer.server";
import { contentOf, docStudio, proposalDoc, removeDocument, sealedDocument } from "./documents.server";
import { countersignedMail, pdfAttachment } from "./mails.server";
import { mailFacts, proposalById } from "./proposals.server";
import { signedFileName } from "./signing.server";
import { addEvent, eventsOf } from "./trail.server";

/**
 * The studio's countersignature (issue 44.4), when the proposal asks for one: the owner's typed
 * name; the document is rendered again with both signatures, certified with the whole trail and
 * sealed, and both sides receive it. The client's signed hash stays in the trail.
 */
export async function countersignProposal(
  db: DB,
  e: Env,
  id: string,
  name: unknown,
  who: { email: string; ip: string | null; userAgent: string | null },
  now = new Date(),
): Promise<void> {
  const row = await proposalById(db, id);
  if (row.countersign !== 1) throw new DomainError("conflict", PROPOSAL_MESSAGES.countersignOff);
  if (row.status !== "signed" || !row.signed_at || !row.signer_name)
    throw new DomainError("conflict", PROPOSAL_MESSAGES.notSignedYet);
  if (row.countersigned_at) throw new DomainError("conflict", PROPOSAL_MESSAGES.alreadyCountersigned);
  const typed = signerName(name);
  if ("error" in typed) throw new DomainError("invalid", typed.error);
  const at = now.toISOString();
  const client = contentOf(row).client;
  const signature = { name: row.signer_name, signedAt: row.signed_at, consent: "" };
  const doc = proposalDoc(row, await docStudio(db), e.STUDIO_TIMEZONE, signature, { name: typed.name, signedAt: at });
  const detail = (sha: string) => `Countersigned as "${typed.name}" by ${who.email}. Document SHA-256: ${sha}`;
  const sealed = await sealedDocument(db, e.DATA_DIR, row, doc, await eventsOf(db, row.id), (sha) => ({
    kind: "countersigned",
    at,
    ip: who.ip,
    userAgent: who.userAgent,
    email: who.email,
    detail: detail(sha),
  }));
  const won = await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("proposals")
      .set({ countersigned_at: at, countersigner_name: typed.name, pdf_path: sealed.path, updated_at: at })
      .where("id", "=", row.id)
      .where("status", "=", "signed")
      .where("countersigned_at", "is", null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await addEvent(trx, row.id, "countersigned", { at: now, ...who, detail: detail(sealed.sha256) });
    return true;
  });
  if (!won) {
    removeDocument(e.DATA_DIR, sealed.path);
    throw new DomainError("conflict", PROPOSAL_MESSAGES.alreadyCountersigned);
  }
  const facts = await mailFacts(db, e, row);
  const pdf = pdfAttachment(signedFileName(row), sealed.pdf);
  await sendMail(db, e, countersignedMail(facts, pdf, client.email));
  await sendMail(db, e, countersignedMail(facts, pdf, e.STUDIO_EMAIL));
}
