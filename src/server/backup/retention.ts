// Which backups the daily job keeps (the newest of each of the last N days and M ISO weeks that
// have one), and the WAL the archive can drop: the segments before the oldest kept backup's start.
import fs from 'node:fs';
import path from 'node:path';
import { BACKUP_FILE_PATTERN, summaryFile, type BackupSummary } from './base-backup';

export interface DatedBackup {
  readonly name: string;
  readonly time: Date;
}

const day = (time: Date) => time.toISOString().slice(0, 10);

/** The Monday (UTC) of the ISO week of the time. */
const week = (time: Date) => {
  const monday = new Date(Date.UTC(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate()));
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7));
  return day(monday);
};

/** The names kept: newest backup of each of the newest `daily` days and `weekly` weeks that have backups. */
export function backupsToKeep(backups: readonly DatedBackup[], daily: number, weekly: number): Set<string> {
  const newestFirst = [...backups].sort((a, b) => b.time.getTime() - a.time.getTime());
  const keep = new Set<string>();
  for (const [period, count] of [
    [day, daily],
    [week, weekly],
  ] as const) {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      const key = period(backup.time);
      if (seen.has(key)) continue;
      if (seen.size >= count) break;
      seen.add(key);
      keep.add(backup.name);
    }
  }
  return keep;
}

/** The backup files of a folder with their time (from their name). */
export function listBackups(folder: string): DatedBackup[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder).flatMap((name) => {
    const match = BACKUP_FILE_PATTERN.exec(name);
    if (!match?.[1]) return [];
    const stamp = match[1];
    const time = new Date(
      `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
    );
    return [{ name, time }];
  });
}

const WAL_FILE = /^[0-9A-F]{24}(\.[0-9A-F]{8}\.backup|\.partial)?$/;

/**
 * Deletes the WAL segments (and backup history files) that come before `oldestNeeded`, whatever
 * their timeline, as pg_archivecleanup does; timeline history files stay. Returns how many went.
 */
export function pruneWal(archive: string, oldestNeeded: string): number {
  if (!fs.existsSync(archive)) return 0;
  let removed = 0;
  for (const name of fs.readdirSync(archive)) {
    if (!WAL_FILE.test(name)) continue;
    if (name.slice(8, 24) < oldestNeeded.slice(8, 24)) {
      fs.rmSync(path.join(archive, name), { force: true });
      removed += 1;
    }
  }
  return removed;
}

export interface PruneResult {
  readonly deletedBackups: string[];
  readonly deletedWalFiles: number;
}

/**
 * Deletes the backups past retention, then the WAL no kept backup needs. When a kept backup's
 * summary cannot be read, no WAL is deleted: keeping too much is the safe mistake.
 */
export function pruneBackups(folder: string, archive: string, daily: number, weekly: number): PruneResult {
  const backups = listBackups(folder);
  const keep = backupsToKeep(backups, daily, weekly);
  const deletedBackups: string[] = [];
  for (const backup of backups) {
    if (keep.has(backup.name)) continue;
    fs.rmSync(path.join(folder, backup.name), { force: true });
    fs.rmSync(summaryFile(path.join(folder, backup.name)), { force: true });
    deletedBackups.push(backup.name);
  }
  let oldest: string | undefined;
  for (const name of keep) {
    try {
      const summary = JSON.parse(fs.readFileSync(summaryFile(path.join(folder, name)), 'utf8')) as BackupSummary;
      if (!oldest || summary.startWalFile.slice(8) < oldest.slice(8)) oldest = summary.startWalFile;
    } catch {
      return { deletedBackups, deletedWalFiles: 0 };
    }
  }
  return { deletedBackups, deletedWalFiles: oldest ? pruneWal(archive, oldest) : 0 };
}
