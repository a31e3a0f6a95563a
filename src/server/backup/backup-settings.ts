// The backup settings, from the environment: the key of encryption at rest, the daily job's
// schedule and how many backups it keeps.
import { z } from 'zod';
import { parseBackupKey } from './backup-crypto';

export const DEFAULT_BACKUP_SCHEDULE = '30 2 * * *';
export const DEFAULT_KEEP_DAILY = 7;
export const DEFAULT_KEEP_WEEKLY = 4;

const settingsSchema = z.object({
  /** 32 bytes as 64 hex digits or base64: backups are then encrypted (AES-256-GCM). */
  BACKUP_KEY: z.string().optional(),
  /** The daily backup's cron line (UTC), or 'off'. Embedded PostgreSQL only. */
  BACKUP_SCHEDULE: z.string().min(1).default(DEFAULT_BACKUP_SCHEDULE),
  BACKUP_KEEP_DAILY: z.coerce.number().int().min(1).max(366).default(DEFAULT_KEEP_DAILY),
  BACKUP_KEEP_WEEKLY: z.coerce.number().int().min(0).max(520).default(DEFAULT_KEEP_WEEKLY),
});

export interface BackupSettings {
  readonly key: Buffer | undefined;
  /** Undefined: no scheduled backups. */
  readonly schedule: string | undefined;
  readonly keepDaily: number;
  readonly keepWeekly: number;
}

export function parseBackupSettings(env: NodeJS.ProcessEnv = process.env): BackupSettings {
  const parsed = settingsSchema.parse(env);
  const key = parsed.BACKUP_KEY && parsed.BACKUP_KEY.trim() !== '' ? parseBackupKey(parsed.BACKUP_KEY) : undefined;
  return {
    key,
    schedule: parsed.BACKUP_SCHEDULE === 'off' ? undefined : parsed.BACKUP_SCHEDULE,
    keepDaily: parsed.BACKUP_KEEP_DAILY,
    keepWeekly: parsed.BACKUP_KEEP_WEEKLY,
  };
}
