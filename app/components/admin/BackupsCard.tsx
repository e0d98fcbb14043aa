import { getFormProps } from "@conform-to/react";
import { useToast } from "~/components/ui/Toast";
import { trpc } from "~/trpc/react";
import { backupScheduleSchema } from "#domain/console-forms";
import { useConsoleForm } from "./form/use-console-form";
import { Loaded } from "./Loaded";
import { ReplicaSection } from "./ReplicaStatus";
import type { AdminBackups } from "./types";

const when = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }) + " UTC";

const size = (bytes: number) =>
  bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

const REASONS: Record<string, string> = {
  manual: "Made by hand",
  scheduled: "Scheduled",
  "pre-upgrade": "Before an upgrade",
  "before-restore": "Kept before a restore",
};

/**
 * The console's backups (issue 32.6): when the next runs and the last succeeded, the backups on
 * this machine (time, size, version, why) with Download, and "Back up now".
 */
export function BackupsCard({ initial }: { initial?: AdminBackups }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const q = trpc.admin.backups.list.useQuery(undefined, { initialData: initial });
  const now = trpc.admin.backups.now.useMutation({
    onSuccess: async (r) => {
      toast.success(`Backup written: ${r.name}`);
      await utils.admin.backups.list.invalidate();
    },
    onError: (e) => toast.error(`The backup failed: ${e.message}`),
  });
  const data = q.data;
  // duplicates: a card's heading row and its button, shaped as the console's other cards and forms are
  return (
    <section aria-labelledby="backups-title" className="card p-5 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="backups-title" className="font-sans text-lg font-semibold">
          Backups
        </h2>
        <button
          type="button"
          className="btn-dark px-4 py-2"
          disabled={now.isPending}
          aria-busy={now.isPending}
          onClick={() => now.mutate()}
        >
          {now.isPending ? "Backing up…" : "Back up now"}
        </button>
      </div>
      <Loaded error={q.error} data={data} what="the backups">
        {(data) => (
          <>
            <ScheduleForm key={`${data.cron}-${data.keep}`} cron={data.cron ?? "off"} keep={data.keep ?? 7} />
            <p className="mt-2 text-sm text-ink-muted" data-testid="backup-schedule">
              {data.cron === "off" || !data.cron
                ? "Scheduled backups are off (BACKUP_CRON=off)."
                : `On the schedule “${data.cron}” (${data.timezone}), keeping the newest ${data.keep}.`}
              {data.next ? ` Next: ${when(data.next)}.` : ""}
              {data.last ? ` Last: ${when(data.last.at)}.` : " No backup yet."}
            </p>
            {data.backups.length === 0 ? (
              <p className="mt-4 rounded-field border border-dashed border-line-strong p-4 text-sm text-ink-muted">
                No backups on this machine yet. “Back up now” writes one.
              </p>
            ) : (
              <ul className="mt-4 divide-y divide-line text-sm" aria-label="Backups on this machine">
                {data.backups.slice(0, 12).map((b) => (
                  <li key={b.name} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
                    <span className="min-w-0">
                      <span className="font-medium">{when(b.at)}</span>{" "}
                      <span className="text-ink-muted">
                        · {size(b.bytes)} · {b.version ? `version ${b.version}` : "earlier version"} ·{" "}
                        {REASONS[b.reason] ?? b.reason}
                      </span>
                    </span>
                    <a
                      href={`/admin/backups/download?name=${encodeURIComponent(b.name)}`}
                      className="font-semibold text-accent-ink hover:underline"
                      download
                    >
                      Download<span className="sr-only"> the backup of {when(b.at)}</span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
            <ReplicaSection replica={data.replica} />
            {data.offsite ? (
              <div className="mt-6">
                <h3 className="font-sans text-sm font-semibold">Off-site, in {data.offsite.bucket}</h3>
                {data.offsite.error ? (
                  <p role="alert" className="field-error">
                    Could not list the bucket: {data.offsite.error}
                  </p>
                ) : data.offsite.backups.length === 0 ? (
                  <p className="mt-1 text-sm text-ink-muted">No off-site copy yet: the next backup is uploaded.</p>
                ) : (
                  <ul className="mt-2 divide-y divide-line text-sm" aria-label="Off-site backups">
                    {data.offsite.backups.map((b) => (
                      <li key={b.key} className="flex flex-wrap justify-between gap-x-4 py-2">
                        <span className="font-medium">{when(b.at)}</span>
                        <span className="text-ink-muted">
                          {size(b.bytes)} · {b.version ? `version ${b.version}` : "earlier version"} ·{" "}
                          <code className="break-all">studio restore s3:{b.name}</code>
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            ) : (
              <p className="mt-4 text-xs text-ink-muted">
                Off-site copies are off: set BACKUP_S3_ENDPOINT, BACKUP_S3_BUCKET and its keys to upload each backup.
              </p>
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

/** When backups run and how many are kept: saved here, it wins over BACKUP_CRON and BACKUP_KEEP. */
function ScheduleForm({ cron, keep }: { cron: string; keep: number }) {
  const toast = useToast();
  const utils = trpc.useUtils();
  const save = trpc.admin.backups.schedule.useMutation({
    onSuccess: async () => {
      toast.success("Backup schedule saved");
      await utils.admin.backups.list.invalidate();
    },
  });
  const [form, fields] = useConsoleForm({
    id: "backup-schedule",
    schema: backupScheduleSchema,
    defaultValue: { cron, keep: String(keep) },
    // The server checks the expression and the count (BACKUP_CRON's rules), and says why it refuses.
    onValid: (_typed, value) => save.mutate({ cron: value.cron, keep: Number(value.keep) }),
  });
  return (
    <form {...getFormProps(form)} className="mt-4 grid gap-3 sm:grid-cols-[minmax(0,1fr)_8rem_auto] sm:items-end">
      <div>
        <label htmlFor={fields.cron.id} className="field-label">
          Schedule (cron, or “off”)
        </label>
        <input
          id={fields.cron.id}
          name={fields.cron.name}
          className="field-input font-mono"
          defaultValue={cron}
          aria-invalid={save.error ? true : undefined}
          aria-describedby="backup-cron-hint"
        />
      </div>
      <div>
        <label htmlFor={fields.keep.id} className="field-label">
          Keep
        </label>
        <input
          id={fields.keep.id}
          name={fields.keep.name}
          className="field-input"
          inputMode="numeric"
          defaultValue={String(keep)}
        />
      </div>
      <button type="submit" className="btn-ghost" disabled={save.isPending} aria-busy={save.isPending}>
        {save.isPending ? "Saving…" : "Save schedule"}
      </button>
      <p id="backup-cron-hint" className="text-xs text-ink-muted sm:col-span-3">
        “0 3 * * *” is every day at 03:00 in the studio&apos;s time zone.
      </p>
      {save.error ? (
        <p role="alert" className="field-error sm:col-span-3">
          {save.error.message}
        </p>
      ) : null}
    </form>
  );
}

/** Across the console while the last scheduled backup failed and none succeeded since. */
export function BackupFailureBanner({ failure }: { failure: { at: string; message: string } | null }) {
  if (!failure) return null;
  return (
    <p role="alert" className="mt-6 rounded-field border border-danger/30 bg-danger-soft px-4 py-3 text-sm text-danger">
      <strong>The last scheduled backup failed</strong> ({when(failure.at)}): {failure.message}. Until a backup
      succeeds, the studio&apos;s data exists only on this server. Fix the cause, then use “Back up now” on the
      Overview.
    </p>
  );
}
