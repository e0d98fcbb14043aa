import { todayIn } from "#domain/payment-plan";
import { proposalFormValues, sendingProblem } from "#domain/proposal";
import type { DB } from "../db/db.server";
import type { ProposalStatus } from "../db/schema";
import type { Env } from "../env.server";
import { contentOf, referenceOf } from "./documents.server";
import { isExpired } from "./proposals.server";
import { eventsOf, type TrailEvent } from "./trail.server";

/** A booking's proposals as the console shows them (issue 44): each version, its state and its trail. */

export type AdminProposal = {
  id: string;
  reference: string;
  version: number;
  status: ProposalStatus | "expired";
  title: string;
  total: number;
  expiresOn: string;
  link: string;
  countersign: boolean;
  signedAt: string | null;
  signerName: string | null;
  documentSha256: string | null;
  countersignedAt: string | null;
  countersignerName: string | null;
  declineReason: string | null;
  hasPdf: boolean;
  /** A draft's form values (the console's editor). */
  form: ReturnType<typeof proposalFormValues> | null;
  problem: string | null;
  events: TrailEvent[];
};

/** The booking's proposals, newest version first, each with its trail (the console's card). */
export async function bookingProposals(db: DB, e: Env, bookingId: string, now = new Date()): Promise<AdminProposal[]> {
  const rows = await db
    .selectFrom("proposals")
    .selectAll()
    .where("booking_id", "=", bookingId)
    .orderBy("number", "desc")
    .orderBy("version", "desc")
    .execute();
  const today = todayIn(e.STUDIO_TIMEZONE, now);
  return Promise.all(
    rows.map(async (r) => {
      const c = contentOf(r);
      return {
        id: r.id,
        reference: referenceOf(r),
        version: r.version,
        status: isExpired(r, today) ? "expired" : r.status,
        title: c.title,
        total: r.total,
        expiresOn: r.expires_on,
        link: `${e.APP_URL}/proposal/${r.token}`,
        countersign: r.countersign === 1,
        signedAt: r.signed_at,
        signerName: r.signer_name,
        documentSha256: r.document_sha256,
        countersignedAt: r.countersigned_at,
        countersignerName: r.countersigner_name,
        declineReason: r.decline_reason,
        hasPdf: Boolean(r.pdf_path),
        form: r.status === "draft" ? proposalFormValues(c, r.expires_on) : null,
        problem: r.status === "draft" ? sendingProblem(c) : null,
        events: await eventsOf(db, r.id),
      };
    }),
  );
}
