// `npm run backup -- [--out DIR]`: an online backup of the registry in DATA_DIR (default .data)
// into DIR (default DATA_DIR/backups), while its server runs (docs/decisions/0014-backups.md).
// Encrypted when BACKUP_KEY is set. With DATABASE_URL: a pg_dump of the server's major version
// when one is on PATH, else it says so and backs up nothing.
import path from 'node:path';
import { backupDataDir, defaultBackupsDir } from '../src/server/backup/base-backup';
import { parseBackupSettings } from '../src/server/backup/backup-settings';
import { DumpUnavailable, logicalDump } from '../src/server/backup/logical-dump';

const USAGE = 'Usage: npm run backup -- [--out DIR]\n  --out DIR   where the backup file goes (default: DATA_DIR/backups)';

function parseArgs(argv: readonly string[]): { out: string | undefined } {
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const match = /^--out(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`Unknown argument: ${arg}\n\n${USAGE}`);
    out = match[1] ?? argv[++i];
    if (!out) throw new Error(`--out needs a folder.\n\n${USAGE}`);
  }
  return { out };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<void> {
  const { out } = parseArgs(process.argv.slice(2));
  const { key } = parseBackupSettings();
  const dataDir = process.env.DATA_DIR ?? '.data';
  const databaseUrl = process.env.MIGRATION_DATABASE_URL ?? process.env.DATABASE_URL;
  if (databaseUrl) {
    const dump = await logicalDump({ connectionString: databaseUrl, outDir: out ?? defaultBackupsDir(dataDir), key });
    console.log(`Logical dump written: ${dump.file} (${megabytes(dump.bytes)}, ${dump.seconds.toFixed(1)} s). Restore it with pg_restore.`);
    return;
  }
  const result = await backupDataDir({ dataDir, outDir: out, key, log: (message) => console.log(message) });
  const { summary } = result;
  console.log(
    `Backup written: ${path.relative(process.cwd(), result.file) || result.file}\n` +
      `  ${summary.fileCount} files, ${megabytes(summary.bytes)} of data, ${megabytes(summary.file.bytes)} on disk${summary.encrypted ? ' (encrypted)' : ''}, ` +
      `${result.seconds.toFixed(1)} s\n  PostgreSQL ${summary.postgresVersion}, migration ${summary.migrations.last}, WAL ${summary.startLsn} to ${summary.stopLsn}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof DumpUnavailable ? error.message : error);
  process.exit(1);
});
