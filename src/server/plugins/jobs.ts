// The durable job runner as a decoration, `app.jobs` (src/server/jobs/job-runner.ts): routes
// enqueue with `app.jobs.send(queue, data, { tx })`; tests run what is due with `app.jobs.runPending()`.
// pg-boss starts lazily on first use, so apps that never touch jobs (most tests) never create its
// schema; with workers on (the server), it starts when the app is ready and stops on close.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { JOB_FAILURE_HANDLERS, JOB_HANDLERS } from '../jobs/job-handlers';
import { PgBossJobRunner, type JobFailureHandlers, type JobHandlers, type JobRunner, type JobRunnerOptions } from '../jobs/job-runner';
import { runPeriodically } from './periodic-task';

declare module 'fastify' {
  interface FastifyInstance {
    readonly jobs: JobRunner;
  }
}

export interface JobsPluginOptions {
  /** Run jobs in this process (poll, sweep, pg-boss maintenance). Off: only send and runPending. */
  readonly workers: boolean;
  /** Overrides of the handlers (tests). */
  readonly handlers?: JobHandlers;
  readonly failureHandlers?: JobFailureHandlers;
  /** Test only: pause of each job step (see JobContext.step). */
  readonly testDelayMs?: number;
  /** Finished jobs (and their zips) older than this are deleted, every purgeIntervalMs, by every server. */
  readonly retentionHours: number;
  readonly purgeIntervalMs: number;
  /** Cron schedules this server keeps and runs (the embedded database's daily backup). */
  readonly schedules?: JobRunnerOptions['schedules'];
}

async function jobsPlugin(app: FastifyInstance, options: JobsPluginOptions): Promise<void> {
  const runner = new PgBossJobRunner(app.db, {
    handlers: options.handlers ?? JOB_HANDLERS,
    failureHandlers: options.failureHandlers ?? JOB_FAILURE_HANDLERS,
    log: app.log.child({ plugin: 'jobs' }),
    supervise: options.workers,
    testDelayMs: options.testDelayMs ?? 0,
    ...(options.schedules ? { schedules: options.schedules } : {}),
  });
  app.decorate('jobs', runner);
  if (options.workers) app.addHook('onReady', () => runner.startWorkers());
  app.addHook('onClose', () => runner.stop());

  // A DELETE any server may run: the same rows go once.
  runPeriodically(app, options.purgeIntervalMs, async () => {
    try {
      const deleted = await app.repositories.jobs.deleteFinishedJobs(options.retentionHours);
      if (deleted > 0) app.log.info({ deleted }, 'finished jobs past their retention deleted');
    } catch (error) {
      app.log.warn({ err: error }, 'finished jobs not purged');
    }
  });
}

export default fp(jobsPlugin, { name: 'jobs', fastify: '5.x', dependencies: ['database', 'repositories'] });
