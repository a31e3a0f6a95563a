// The durable job runner: pg-boss 10 on the registry's own PostgreSQL (schema `pgboss`), through
// the app's connection pool. See docs/decisions/0004-job-runner.md.
//
// pg-boss stores, claims (SKIP LOCKED), retries with backoff and expires the jobs; this module
// runs them. While a job runs, its server holds a session advisory lock keyed by the job id, taken
// in the same transaction that claims the job. A server that dies (kill -9, lost machine) loses
// its connections and so its locks: any server's sweep (at start and every few seconds) finds the
// active jobs whose lock is free and fails them into pg-boss's retry, at once rather than after
// pg-boss's expiration (kept as the backstop for a connection that never drops).
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Database } from '../db/database';
import { poolOf } from '../db/pg-pool';
import { ALL_JOB_QUEUES, JOB_QUEUE_OPTIONS, type JobQueue } from './job-queues';

export const JOB_SCHEMA = 'pgboss';

/** A drizzle transaction (`db.transaction(async (tx) => ...)`'s `tx`). */
export type DatabaseTransaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface SendOptions {
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  readonly tx?: Database | DatabaseTransaction;
  /** The job's id (a uuid); pg-boss makes one when absent. */
  readonly id?: string;
}

export interface JobRunner {
  /** Enqueues a job; resolves to its id. */
  send(queue: JobQueue, data: Record<string, unknown>, options?: SendOptions): Promise<string>;
  /**
   * Runs the jobs of a queue (every queue when absent) that are due now, one after another in
   * this process, until none is left; resolves to how many ran (succeeded or failed). A job that
   * fails goes back to pg-boss's retry with its backoff, so it is not run again by the same call.
   * For tests and scripts: servers with workers run jobs on their own.
   */
  runPending(queue?: JobQueue): Promise<number>;
}

/** The attempt being run. */
export interface JobAttempt {
  readonly id: string;
  readonly queue: JobQueue;
  /** 0 on the first attempt. */
  readonly retryCount: number;
  readonly retryLimit: number;
}

export interface JobContext {
  readonly db: Database;
  readonly jobs: JobRunner;
  readonly job: JobAttempt;
  /** Aborted when the server stops: a long job should stop early (it will be retried). */
  readonly signal: AbortSignal;
  /**
   * Call between steps of a long job: throws when the server is stopping (the job is retried
   * later), and waits the configured test delay (JOB_TEST_DELAY_MS, 0 outside tests).
   */
  step(): Promise<void>;
  readonly log: FastifyBaseLogger;
}

/** Runs one job. It must be idempotent: after a crash or a failure it runs again from the start. */
export type JobHandler = (context: JobContext, data: Record<string, unknown>) => Promise<void>;

/**
 * Called once when a job has failed for good: its last attempt threw, or its server died during
 * the last attempt. `message` is the last error's message.
 */
export type JobFailureHandler = (
  context: Omit<JobContext, 'signal' | 'step'>,
  data: Record<string, unknown>,
  message: string,
) => Promise<void>;

export type JobHandlers = Readonly<Partial<Record<JobQueue, JobHandler>>>;
export type JobFailureHandlers = Readonly<Partial<Record<JobQueue, JobFailureHandler>>>;

export interface JobRunnerOptions {
  readonly handlers: JobHandlers;
  readonly failureHandlers?: JobFailureHandlers;
  readonly log: FastifyBaseLogger;
  /** How often an idle worker asks for new jobs (ms). */
  readonly pollIntervalMs?: number;
  /** How often a worker looks for jobs whose server died (ms). */
  readonly sweepIntervalMs?: number;
  /** pg-boss maintenance (expiration backstop, archive) runs only on servers with workers. */
  readonly supervise?: boolean;
  /** Test only: each `context.step()` waits this long, so a test can catch a job half-way. */
  readonly testDelayMs?: number;
  /**
   * Cron schedules (UTC) kept by pg-boss's timekeeper, which then runs on this server; a queue
   * given `null` loses its schedule. Absent: schedules are neither changed nor run here.
   */
  readonly schedules?: Readonly<Partial<Record<JobQueue, JobSchedule | null>>>;
}

export interface JobSchedule {
  readonly cron: string;
  readonly data: Record<string, unknown>;
}

/** Anything with pg's `query`: the pool, or one checked-out client (a transaction's). */
interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** pg-boss's `db` option over pg's `query`. */
const executorOver = (queryable: Queryable): PgBoss.Db => ({
  executeSql: (text, values) => queryable.query(text, values) as Promise<{ rows: never[] }>,
});

/**
 * The connection of a database or drizzle transaction. Drizzle keeps a transaction's client in its
 * session and does not expose it; tests/server/job-runner.test.ts proves a rolled-back send leaves no job.
 */
function queryableOf(source: Database | DatabaseTransaction): Queryable {
  if ('$client' in source) return poolOf(source as Database);
  const client = (source as unknown as { session?: { client?: Queryable } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('jobs.send: cannot reach the transaction connection');
  return client;
}

/** Advisory-lock namespace (first key) of running jobs; the second key is hashtext(job id). */
const RUNNING_JOB_LOCK = 0x6a6f62; // 'job'

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

interface ClaimedJob {
  readonly id: string;
  readonly data: Record<string, unknown>;
  readonly retryCount: number;
  readonly retryLimit: number;
}

export class PgBossJobRunner implements JobRunner {
  private readonly boss: PgBoss;
  private readonly pool: pg.Pool;
  private started: Promise<void> | undefined;
  private readonly stopping = new AbortController();
  private readonly wakers = new Map<JobQueue, () => void>();
  private readonly loops: Promise<void>[] = [];
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly options: JobRunnerOptions,
  ) {
    this.pool = poolOf(db);
    this.boss = new PgBoss({
      db: executorOver(this.pool),
      schema: JOB_SCHEMA,
      supervise: options.supervise ?? false,
      // The timekeeper's clock checks cost queries: only a server with schedules runs it, at its slowest.
      schedule: Object.values(options.schedules ?? {}).some((schedule) => schedule),
      cronMonitorIntervalSeconds: 45,
      cronWorkerIntervalSeconds: 45,
      clockMonitorIntervalSeconds: 600,
      migrate: true,
    });
    this.boss.on('error', (error: unknown) => options.log.error({ err: error }, 'job runner error'));
  }

  /** Creates (or migrates) pg-boss's schema and the queues, once. */
  private ensureStarted(): Promise<void> {
    this.started ??= (async () => {
      await this.boss.start();
      for (const queue of ALL_JOB_QUEUES) {
        const queueOptions = { ...JOB_QUEUE_OPTIONS[queue], name: queue };
        await this.boss.createQueue(queue, queueOptions);
        // createQueue leaves an existing queue alone: bring its retry options up to date.
        await this.boss.updateQueue(queue, queueOptions);
      }
      for (const [queue, schedule] of Object.entries(this.options.schedules ?? {})) {
        if (schedule) await this.boss.schedule(queue, schedule.cron, schedule.data, { tz: 'UTC' });
        else await this.boss.unschedule(queue);
      }
    })();
    return this.started;
  }

  async send(queue: JobQueue, data: Record<string, unknown>, options: SendOptions = {}): Promise<string> {
    await this.ensureStarted();
    const id = await this.boss.send(queue, data, {
      ...(options.id ? { id: options.id } : {}),
      db: executorOver(queryableOf(options.tx ?? this.db)),
    });
    if (!id) throw new Error(`jobs.send: ${queue} refused the job`);
    // Outside a transaction the job is visible now: wake this server's worker.
    if (!options.tx) this.wakers.get(queue)?.();
    return id;
  }

  async runPending(queue?: JobQueue): Promise<number> {
    await this.ensureStarted();
    let ran = 0;
    for (const name of queue ? [queue] : ALL_JOB_QUEUES) {
      if (!this.options.handlers[name]) continue;
      while (!this.stopping.signal.aborted && (await this.runNext(name))) ran += 1;
    }
    return ran;
  }

  /** Claims one due job of the queue and runs it; false when none is due. */
  private async runNext(queue: JobQueue): Promise<boolean> {
    const handler = this.options.handlers[queue];
    if (!handler) return false;
    const client = await this.pool.connect();
    let job: ClaimedJob | undefined;
    try {
      // Claim and lock in one transaction: no other server ever sees the job active and unlocked.
      await client.query('BEGIN');
      const [row] = await this.boss.fetch<Record<string, unknown>>(queue, {
        batchSize: 1,
        includeMetadata: true,
        db: executorOver(client),
      });
      if (row) {
        await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [RUNNING_JOB_LOCK, row.id]);
        job = { id: row.id, data: row.data ?? {}, retryCount: row.retryCount, retryLimit: row.retryLimit };
      }
      await client.query('COMMIT');
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
    if (!job) {
      client.release();
      return false;
    }
    try {
      await this.runClaimed(queue, handler, job);
    } finally {
      // Completed or failed first, unlocked after: a sweep never takes a live job for a dead one.
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [RUNNING_JOB_LOCK, job.id]).then(
        () => client.release(),
        (error: Error) => client.release(error),
      );
    }
    return true;
  }

  private async runClaimed(queue: JobQueue, handler: JobHandler, job: ClaimedJob): Promise<void> {
    const attempt: JobAttempt = { id: job.id, queue, retryCount: job.retryCount, retryLimit: job.retryLimit };
    const log = this.options.log.child({ jobId: job.id, queue, attempt: job.retryCount + 1 });
    const signal = this.stopping.signal;
    const delayMs = this.options.testDelayMs ?? 0;
    const step = async () => {
      signal.throwIfAborted();
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    };
    const context: JobContext = { db: this.db, jobs: this, job: attempt, signal, step, log };
    try {
      await handler(context, job.data);
    } catch (error) {
      const message = errorMessage(error);
      log.warn({ err: error }, 'job attempt failed');
      await this.boss.fail(queue, job.id, { message });
      if (job.retryCount >= job.retryLimit) await this.failedForGood(context, job.data, message);
      return;
    }
    await this.boss.complete(queue, job.id);
  }

  private async failedForGood(context: Omit<JobContext, 'signal' | 'step'>, data: Record<string, unknown>, message: string): Promise<void> {
    const onFailed = this.options.failureHandlers?.[context.job.queue];
    if (!onFailed) return;
    try {
      await onFailed({ db: context.db, jobs: context.jobs, job: context.job, log: context.log }, data, message);
    } catch (error) {
      context.log.error({ err: error }, 'job failure handler failed');
    }
  }

  /**
   * Fails (into retry) every active job whose runner is gone: its advisory lock is free. The lock
   * is held while failing, so no server claims the job in between.
   */
  async sweepOrphans(): Promise<number> {
    await this.ensureStarted();
    const queues = ALL_JOB_QUEUES.filter((queue) => this.options.handlers[queue]);
    const { rows } = await this.pool.query<{
      id: string;
      name: JobQueue;
      data: Record<string, unknown> | null;
      retry_count: number;
      retry_limit: number;
    }>(`SELECT id, name, data, retry_count, retry_limit FROM ${JOB_SCHEMA}.job WHERE name = ANY($1::text[]) AND state = 'active'`, [
      queues,
    ]);
    let failed = 0;
    for (const row of rows) {
      const client = await this.pool.connect();
      try {
        const locked = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked', [
          RUNNING_JOB_LOCK,
          row.id,
        ]);
        if (!locked.rows[0]?.locked) continue;
        try {
          const message = 'The server running this job stopped before it finished.';
          const result = (await this.boss.fail(row.name, row.id, { message }, { db: executorOver(client) })) as unknown as {
            affected?: number;
          };
          if (!result?.affected) continue;
          failed += 1;
          this.options.log.warn({ jobId: row.id, queue: row.name }, 'job of a stopped server returned to the queue');
          if (row.retry_count >= row.retry_limit) {
            const job: JobAttempt = { id: row.id, queue: row.name, retryCount: row.retry_count, retryLimit: row.retry_limit };
            await this.failedForGood({ db: this.db, jobs: this, job, log: this.options.log }, row.data ?? {}, message);
          }
        } finally {
          await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [RUNNING_JOB_LOCK, row.id]);
        }
      } finally {
        client.release();
      }
    }
    return failed;
  }

  /** Starts this server's workers: one loop per queue with a handler, and the periodic sweep. */
  async startWorkers(): Promise<void> {
    await this.ensureStarted();
    await this.sweep();
    const sweepIntervalMs = this.options.sweepIntervalMs ?? 10_000;
    this.sweepTimer = setInterval(() => void this.sweep(), sweepIntervalMs);
    this.sweepTimer.unref();
    for (const queue of ALL_JOB_QUEUES) {
      if (this.options.handlers[queue]) this.loops.push(this.workLoop(queue));
    }
  }

  private sweep(): Promise<void> {
    this.sweeping ??= this.sweepOrphans()
      .then((failed) => {
        // Failed jobs are due after their backoff: let the loops look again.
        if (failed > 0) for (const wake of this.wakers.values()) wake();
      })
      .catch((error: unknown) => this.options.log.error({ err: error }, 'job sweep failed'))
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  private async workLoop(queue: JobQueue): Promise<void> {
    const pollIntervalMs = this.options.pollIntervalMs ?? 1000;
    while (!this.stopping.signal.aborted) {
      try {
        while (!this.stopping.signal.aborted && (await this.runNext(queue))) {
          // Drain what is due before sleeping.
        }
      } catch (error) {
        if (!this.stopping.signal.aborted) this.options.log.error({ err: error, queue }, 'job worker error');
      }
      await new Promise<void>((resolve) => {
        const signal = this.stopping.signal;
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, pollIntervalMs);
        this.wakers.set(queue, done);
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  /** Stops the workers (a running job is aborted and will be retried) and pg-boss. */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await Promise.allSettled(this.loops);
    await this.sweeping;
    if (this.started) {
      await this.started.catch(() => undefined);
      await this.boss.stop({ graceful: false, close: false });
    }
  }
}

const quiet = () => undefined;
const silentLog = { level: 'silent', fatal: quiet, error: quiet, warn: quiet, info: quiet, debug: quiet, trace: quiet, silent: quiet };

/**
 * pg-boss's schema and the queues, made (or brought up to date) by the owner role: the job runner
 * of the application role then finds them and only reads and writes rows.
 */
export async function createJobSchema(db: Database): Promise<void> {
  const log = { ...silentLog, child: () => log } as unknown as FastifyBaseLogger;
  const runner = new PgBossJobRunner(db, { handlers: {}, log });
  try {
    await runner.runPending(); // with no handlers: starts pg-boss (schema, queues) and runs nothing
  } finally {
    await runner.stop();
  }
}
