import type { DB } from "../db/db.server";
import type { ProposalEventKind } from "../db/schema";
import type { Writer } from "../payments/plan.server";
import type { AuditEvent } from "../documents/proposal-pdf.server";

/**
 * A proposal's audit trail (issue 44.3): every event with its time, IP, user agent, email and
 * detail, written once and never changed (the table's triggers refuse updates and deletes).
 */

export type TrailEvent = AuditEvent & { id: number };

export type EventFacts = {
  at: Date;
  ip?: string | null;
  userAgent?: string | null;
  email?: string | null;
  detail?: string | null;
};

/** What a request says of who sent it, kept as evidence (cut to sane lengths). */
export function requestFacts(request: Request, ip: string | null | undefined) {
  return {
    ip: ip ? ip.slice(0, 64) : null,
    userAgent: (request.headers.get("User-Agent") ?? "").slice(0, 400) || null,
  };
}

export async function addEvent(trx: Writer, proposalId: string, kind: ProposalEventKind, f: EventFacts): Promise<void> {
  await trx
    .insertInto("proposal_events")
    .values({
      proposal_id: proposalId,
      kind,
      at: f.at.toISOString(),
      ip: f.ip ?? null,
      user_agent: f.userAgent ?? null,
      email: f.email ?? null,
      detail: f.detail ?? null,
    })
    .execute();
}

export async function eventsOf(db: Writer | DB, proposalId: string): Promise<TrailEvent[]> {
  const rows = await db
    .selectFrom("proposal_events")
    .selectAll()
    .where("proposal_id", "=", proposalId)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    at: r.at,
    ip: r.ip,
    userAgent: r.user_agent,
    email: r.email,
    detail: r.detail,
  }));
}
