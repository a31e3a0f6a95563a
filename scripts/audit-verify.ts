// `npm run audit:verify`: walks the audit log's hash chain (src/server/audit/audit-verify.ts) and
// names the first row that does not match; exit status 1 then, 0 when the whole chain holds. Uses
// MIGRATION_DATABASE_URL (the owner role: the chain head is the owner's), else DATABASE_URL, else
// the embedded PostgreSQL in DATA_DIR (default .data): the running one when the server is up,
// else started for the check.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { verifyAuditChain } from '../src/server/audit/audit-verify';
import { readCredentials, startEmbeddedPostgres, type EmbeddedDatabase } from '../src/server/db/embedded-postgres';

async function connectionString(): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  const url = process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL;
  if (url) return { url };
  const dataDir = process.env.DATA_DIR ?? '.data';
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  const credentials = readCredentials(dataDir);
  if (fs.existsSync(pidFile) && credentials) {
    // The server is up: its PostgreSQL listens on the port of postmaster.pid's fourth line.
    const port = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[3]);
    const { user, password } = credentials.owner;
    return { url: `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/registry` };
  }
  const embedded = await startEmbeddedPostgres(dataDir);
  return { url: embedded.connectionString(), embedded };
}

async function main(): Promise<void> {
  const { url, embedded } = await connectionString();
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const started = performance.now();
    const result = await verifyAuditChain(client);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (result.mismatch) {
      const { chainSeq, id, reason } = result.mismatch;
      console.error(`The audit chain is broken at row ${chainSeq}${id === null ? '' : ` (id ${id})`}: ${reason}.`);
      console.error(`${result.rows} rows before it hold.`);
      process.exitCode = 1;
    } else {
      console.log(`The audit chain holds: ${result.rows} rows checked in ${seconds} s. Head hash: ${result.headHash || '(empty log)'}`);
    }
  } finally {
    await client.end().catch(() => undefined);
    await embedded?.stop();
  }
}

main()
  .then(() => process.exit(process.exitCode ?? 0))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
