// `npx tsx scripts/bench-audit.ts [--clients N] [--seconds S]`: the cost of the audit log's hash
// chain under concurrent writers (decision record 0016). A temporary embedded PostgreSQL, migrated;
// N clients each run, for S seconds, write transactions shaped like the product's (a row locked
// and updated, some work, the audit row last, commit), first with the chain's trigger, then with
// it switched off, and the same with the audit row first (the head's lock then held through the
// transaction). Prints transactions per second and latency percentiles of each, and verifies the chain.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { verifyAuditChain } from '../src/server/audit/audit-verify';
import { connectDatabase, migrateDatabase } from '../src/server/db/database';
import { startEmbeddedPostgres } from '../src/server/db/embedded-postgres';

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};
const CLIENTS = arg('clients', 16);
const SECONDS = arg('seconds', 5);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

async function run(url: string, label: string, auditFirst: boolean) {
  const pool = new pg.Pool({ connectionString: url, max: CLIENTS });
  pool.on('error', () => undefined);
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      const connection = await pool.connect();
      try {
        for (let i = 0; performance.now() < end; i++) {
          const started = performance.now();
          const audit = () =>
            connection.query(`INSERT INTO audit_log (action, target_type, target_id, before, after) VALUES ('bench', 'row', $1, $2, $3)`, [
              `${client}-${i}`,
              JSON.stringify({ state: 'CONFIRMED', i }),
              JSON.stringify({ state: 'PENDING', i }),
            ]);
          await connection.query('BEGIN');
          if (auditFirst) await audit();
          // Each client its own row (the product's writes lock their loan): no contention but the chain's.
          await connection.query('UPDATE bench_rows SET value = value + 1 WHERE id = $1', [client]);
          await connection.query('SELECT pg_sleep(0.002)');
          if (!auditFirst) await audit();
          await connection.query('COMMIT');
          latencies.push(performance.now() - started);
        }
      } finally {
        connection.release();
      }
    }),
  );
  await pool.end();
  latencies.sort((a, b) => a - b);
  const rate = Math.round(latencies.length / SECONDS);
  console.log(
    `${label.padEnd(44)} ${String(rate).padStart(6)} tx/s   p50 ${percentile(latencies, 50).toFixed(1)} ms   p95 ${percentile(latencies, 95).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms`,
  );
}

async function main() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-audit-'));
  fs.chmodSync(folder, 0o755);
  const embedded = await startEmbeddedPostgres(path.join(folder, 'data'));
  const url = embedded.connectionString();
  const handle = connectDatabase(url, 2);
  /** One statement on a connection of its own (the pool's idle ones may be gone after a long run). */
  const execute = async (text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  try {
    await migrateDatabase(handle);
    await execute('CREATE TABLE bench_rows (id int PRIMARY KEY, value bigint NOT NULL)');
    await execute(`INSERT INTO bench_rows SELECT g, 0 FROM generate_series(0, ${CLIENTS - 1}) g`);
    console.log(`${CLIENTS} clients, ${SECONDS} s each; a transaction: lock and update a row, 2 ms of work, one audit row, commit.`);
    // Without the chain: no trigger, and no unique chain_seq (every row would be 0); both back after.
    await execute('ALTER TABLE audit_log DISABLE TRIGGER audit_log_chain');
    await execute('DROP INDEX audit_log_chain_seq_key');
    await run(url, 'chain off (no trigger), audit row last', false);
    await execute('TRUNCATE audit_log');
    await execute(`UPDATE audit_chain_head SET seq = 0, hash = ''`);
    await execute('CREATE UNIQUE INDEX audit_log_chain_seq_key ON audit_log (chain_seq)');
    await execute('ALTER TABLE audit_log ENABLE TRIGGER audit_log_chain');
    await run(url, 'chain on, audit row last (as the services do)', false);
    await run(url, 'chain on, audit row first', true);
    const started = performance.now();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const result = await verifyAuditChain(client);
    await client.end();
    console.log(
      `audit:verify: ${result.rows} rows in ${((performance.now() - started) / 1000).toFixed(2)} s ` +
        `(${result.mismatch ? `stops at row ${result.mismatch.chainSeq}: ${result.mismatch.reason}` : 'holds'})`,
    );
  } finally {
    await handle.close().catch(() => undefined);
    await embedded.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
