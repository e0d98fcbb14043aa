import { z } from "zod";
import { backupNow, backupStatus, listBackups, offsiteBackups } from "../../../admin/backups.server";
import { offsiteFrom } from "../../../db/offsite.server";
import { BackupError, defaultBackupDir, NothingToBackUp } from "../../../db/backup.server";
import { currentSchedule, rescheduleBackups } from "../../../db/backup-schedule.server";
import { DomainError } from "../../../errors";
import { replicaStatus } from "../../../replica/replicator.server";
import { adminProcedure, createTRPCRouter } from "../../trpc";

/** Backups on this machine, the schedule, the last success and an unresolved failure; "Back up now". */
export const backupsRouter = createTRPCRouter({
  list: adminProcedure.query(async ({ ctx }) => ({
    ...(await backupStatus(ctx.db, currentSchedule())),
    backups: listBackups(defaultBackupDir(ctx.env.DATA_DIR, ctx.env.BACKUP_DIR)),
    offsite: await offsiteBackups(offsiteFrom(ctx.env)),
    // Continuous replication (REPLICA_URL): its lag and last sync, or null when it is off.
    replica: replicaStatus(),
  })),
  /** The schedule changed in the console: saved, and the running one replaced. */
  schedule: adminProcedure
    .input(z.object({ cron: z.string().max(100), keep: z.number().int() }))
    .mutation(async ({ ctx, input }) => {
      const r = await rescheduleBackups(ctx.db, input);
      return { next: r.next?.toISOString() ?? null };
    }),
  now: adminProcedure.mutation(async ({ ctx }) => {
    try {
      return await backupNow(
        ctx.db,
        ctx.env.DATA_DIR,
        defaultBackupDir(ctx.env.DATA_DIR, ctx.env.BACKUP_DIR),
        ctx.env.BACKUP_KEEP,
        offsiteFrom(ctx.env),
      );
    } catch (error) {
      if (error instanceof NothingToBackUp) throw new DomainError("not-found", error.message);
      if (error instanceof BackupError) throw new DomainError("failed", error.message);
      throw error;
    }
  }),
});
