import type { ReplicaStatus } from "../../../server/replica/replicator.server";

const time = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" }) + " UTC";

const STATES: Record<ReplicaStatus["state"], string> = {
  starting: "Starting: the first copy is on its way",
  replicating: "Up to date",
  behind: "Catching up",
  down: "Stopped: starting again",
};

/**
 * The Backups card's continuous replica (issue 45.1): where to, whether it is up to date, its lag
 * and last sync, Litestream's restarts and the stored files still to copy; or how to turn it on.
 */
export function ReplicaSection({ replica }: { replica: ReplicaStatus | null }) {
  if (!replica)
    return (
      <p className="mt-4 text-xs text-ink-muted" data-testid="replica-off">
        Continuous replication is off: a server lost between backups loses what changed since the last one. Set
        REPLICA_URL (s3://bucket/path or file:///path on another disk) to copy every change within a second.
      </p>
    );
  return (
    <div className="mt-6" data-testid="replica">
      <h3 className="font-sans text-sm font-semibold">
        Continuous replica, <code className="break-all font-mono text-xs">{replica.target}</code>
      </h3>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-ink-muted">State</dt>
        <dd className={replica.failing ? "font-medium text-danger" : "font-medium"}>
          {replica.failing ? "Failing: see the last problem below" : STATES[replica.state]}
        </dd>
        <dt className="text-ink-muted">Lag</dt>
        <dd>{replica.lagSeconds === 0 ? "none" : `${replica.lagSeconds} s`}</dd>
        <dt className="text-ink-muted">Last sync</dt>
        <dd>{replica.lastSyncAt ? time(replica.lastSyncAt) : "not yet"}</dd>
        <dt className="text-ink-muted">Files to copy</dt>
        <dd>{replica.files.pending}</dd>
        {replica.restarts ? (
          <>
            <dt className="text-ink-muted">Restarts</dt>
            <dd>{replica.restarts}</dd>
          </>
        ) : null}
      </dl>
      {replica.lastError ? (
        <p className="mt-2 text-xs text-ink-muted">
          Last problem ({time(replica.lastErrorAt ?? new Date().toISOString())}): {replica.lastError}
        </p>
      ) : null}
      <p className="mt-2 text-xs text-ink-muted">
        On a new machine: <code>studio restore replica:latest</code>, or <code>replica:2027-01-05T10:00:00Z</code> for a
        moment of the last 30 days.
      </p>
    </div>
  );
}

/** Across the console while the replicator keeps failing or the replica is more than a minute behind. */
export function ReplicaFailureBanner({ replica }: { replica: ReplicaStatus | null }) {
  if (!replica?.failing) return null;
  return (
    <p role="alert" className="mt-6 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger">
      <strong>Replication to {replica.target} is failing</strong>: {replica.failing}. Changes since the last sync exist
      only on this server until it recovers.
    </p>
  );
}
