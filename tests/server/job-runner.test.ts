// The durable job runner (pg-boss 10): enqueue inside a transaction, run what is due, retry with
// backoff, give up after the last attempt, and take back the job of a server that died.
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { JOB_QUEUES, JOB_QUEUE_OPTIONS } from '../../src/server/jobs/job-queues';
import { JOB_SCHEMA, PgBossJobRunner, type JobContext } from '../../src/server/jobs/job-runner';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const QUEUE = JOB_QUEUES.batchDownloadAoms;
const quiet = () => undefined;
const log = {
  level: 'silent',
  fatal: quiet,
  error: quiet,
  warn: quiet,
  info: quiet,
  debug: quiet,
  trace: quiet,
  silent: quiet,
  child: () => log,
} as unknown as FastifyBaseLogger;

let database: TestDatabase;
let runner: PgBossJobRunner;
const ran: { data: Record<string, unknown>; attempt: number }[] = [];
const gaveUp: { data: Record<string, unknown>; message: string }[] = [];
let failWith: string | undefined;

async function jobState(id: string): Promise<{ state: string; retry_count: number; start_after: Date } | undefined> {
  const { rows } = await database.pool.query(`SELECT state, retry_count, start_after FROM ${JOB_SCHEMA}.job WHERE id = $1`, [id]);
  return rows[0];
}

/** Makes a retried job due now, as if its backoff had passed. */
async function skipBackoff(id: string): Promise<void> {
  await database.pool.query(`UPDATE ${JOB_SCHEMA}.job SET start_after = now() - interval '1 second' WHERE id = $1`, [id]);
}

beforeAll(async () => {
  database = await createTestDatabase();
  runner = new PgBossJobRunner(database.db, {
    log,
    handlers: {
      [QUEUE]: async (context: JobContext, data) => {
        ran.push({ data, attempt: context.job.retryCount });
        await context.step();
        if (failWith) throw new Error(failWith);
      },
    },
    failureHandlers: {
      [QUEUE]: async (_context, data, message) => {
        gaveUp.push({ data, message });
      },
    },
  });
});

afterAll(async () => {
  await runner.stop();
  await database.close();
});

beforeEach(() => {
  ran.length = 0;
  gaveUp.length = 0;
  failWith = undefined;
});

describe('job runner', () => {
  it('runs a sent job once, in-process, and reports how many ran', async () => {
    const id = await runner.send(QUEUE, { n: 1 });
    expect(await runner.runPending(QUEUE)).toBe(1);
    expect(ran).toEqual([{ data: { n: 1 }, attempt: 0 }]);
    expect((await jobState(id))?.state).toBe('completed');
    expect(await runner.runPending()).toBe(0);
  });

  it('enqueues inside a transaction: a rollback leaves no job, a commit leaves one', async () => {
    await database.db
      .transaction(async (tx) => {
        await runner.send(QUEUE, { n: 'rolled back' }, { tx });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    expect(await runner.runPending(QUEUE)).toBe(0);

    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await runner.send(QUEUE, { n: 'committed' }, { tx });
      // Not visible outside the transaction before it commits.
      expect(await runner.runPending(QUEUE)).toBe(0);
    });
    expect(await runner.runPending(QUEUE)).toBe(1);
    expect(ran.map((run) => run.data)).toEqual([{ n: 'committed' }]);
  });

  it('retries a failing job with backoff and gives up after the last attempt, once', async () => {
    failWith = 'disk full';
    const id = await runner.send(QUEUE, { n: 'failing' });
    const { retryLimit } = JOB_QUEUE_OPTIONS[QUEUE];
    expect(await runner.runPending(QUEUE)).toBe(1);
    const afterFirst = await jobState(id);
    expect(afterFirst?.state).toBe('retry');
    // Backoff: the retry is not due yet, so the same call did not run it again.
    expect(afterFirst?.start_after.getTime()).toBeGreaterThan(Date.now());
    expect(await runner.runPending(QUEUE)).toBe(0);
    expect(gaveUp).toEqual([]);

    for (let attempt = 1; attempt <= retryLimit; attempt++) {
      await skipBackoff(id);
      expect(await runner.runPending(QUEUE)).toBe(1);
    }
    expect(ran.map((run) => run.attempt)).toEqual(Array.from({ length: retryLimit + 1 }, (_, attempt) => attempt));
    expect((await jobState(id))?.state).toBe('failed');
    expect(gaveUp).toEqual([{ data: { n: 'failing' }, message: 'disk full' }]);
  });

  it("takes back the job of a server that died while running it, and leaves a live server's job alone", async () => {
    const id = await runner.send(QUEUE, { n: 'orphan' });
    // Another server claims the job the way the runner does: fetch and lock in one transaction.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    await other.query('BEGIN');
    const claimed = await other.query(`UPDATE ${JOB_SCHEMA}.job SET state = 'active', started_on = now() WHERE id = $1 RETURNING id`, [id]);
    expect(claimed.rowCount).toBe(1);
    await other.query(`SELECT pg_advisory_lock(${0x6a6f62}, hashtext($1))`, [id]);
    await other.query('COMMIT');

    expect(await runner.sweepOrphans()).toBe(0);
    expect((await jobState(id))?.state).toBe('active');

    // The other server dies: its connection, and so its lock, is gone.
    await other.end();
    expect(await runner.sweepOrphans()).toBe(1);
    expect((await jobState(id))?.state).toBe('retry');
    await skipBackoff(id);
    expect(await runner.runPending(QUEUE)).toBe(1);
    expect(ran.map((run) => run.data)).toEqual([{ n: 'orphan' }]);
    expect((await jobState(id))?.state).toBe('completed');
  });
});
