// `npm run bench -- --only backup`: an online backup of the bench's data folder while its server
// runs (scripts/bench.ts), then a restore of that file into a scratch folder, WAL replay
// included. Both scratch files go afterwards. Goal: the million-loan registry restored in under 10 minutes.
import fs from 'node:fs';
import path from 'node:path';
import { backupDataDir } from '../src/server/backup/base-backup';
import { restoreBackup } from '../src/server/backup/restore';

export const BACKUP_SCENARIO = 'backup and restore';

export interface BackupBenchReport {
  /** Bytes of the data folder's files in the backup. */
  readonly dataBytes: number;
  /** Bytes of the backup file (gzip). */
  readonly fileBytes: number;
  readonly files: number;
  readonly backupSeconds: number;
  /** Extract, WAL replay and the promoted server's shutdown. */
  readonly restoreSeconds: number;
}

export async function runBackupBench(dataDir: string, scratch: string): Promise<BackupBenchReport> {
  fs.mkdirSync(scratch, { recursive: true });
  fs.chmodSync(scratch, 0o755);
  const outDir = path.join(scratch, 'backups');
  const target = path.join(scratch, 'restored');
  try {
    const backup = await backupDataDir({ dataDir, outDir });
    const restore = await restoreBackup({ file: backup.file, dataDir: target });
    return {
      dataBytes: backup.summary.bytes,
      fileBytes: backup.summary.file.bytes,
      files: backup.summary.fileCount,
      backupSeconds: backup.seconds,
      restoreSeconds: restore.seconds,
    };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.rmSync(target, { recursive: true, force: true });
  }
}
