// The daily backup of the embedded PostgreSQL (pg-boss schedule, see plugins/jobs.ts): a base
// backup into DATA_DIR/backups, then the backups past retention and the WAL none needs go.
import path from 'node:path';
import { z } from 'zod';
import { backupDataDir, defaultBackupsDir } from '../backup/base-backup';
import { parseBackupSettings } from '../backup/backup-settings';
import { pruneBackups } from '../backup/retention';
import { WAL_ARCHIVE_DIR } from '../db/embedded-postgres';
import { JOB_QUEUES } from './job-queues';
import type { JobContext, JobRunnerOptions } from './job-runner';

const dataSchema = z.object({ dataDir: z.string().min(1) });

export async function runBackupDatabase(context: JobContext, data: Record<string, unknown>): Promise<void> {
  const { dataDir } = dataSchema.parse(data);
  const settings = parseBackupSettings();
  await context.step();
  const result = await backupDataDir({ dataDir, key: settings.key });
  context.log.info({ file: result.file, bytes: result.summary.file.bytes, seconds: result.seconds }, 'daily backup written');
  const pruned = pruneBackups(
    defaultBackupsDir(dataDir),
    path.join(path.resolve(dataDir), WAL_ARCHIVE_DIR),
    settings.keepDaily,
    settings.keepWeekly,
  );
  if (pruned.deletedBackups.length > 0 || pruned.deletedWalFiles > 0) context.log.info(pruned, 'backups and WAL past retention deleted');
}

/** The embedded database's daily backup (BACKUP_SCHEDULE, or 'off' to drop it). */
export const backupSchedules = (dataDir: string): JobRunnerOptions['schedules'] => {
  const { schedule } = parseBackupSettings();
  return { [JOB_QUEUES.backupDatabase]: schedule ? { cron: schedule, data: { dataDir: path.resolve(dataDir) } } : null };
};
