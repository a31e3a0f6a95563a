// The job runner's queues (pg-boss queue names). A new kind of background work is one entry here,
// its options below and its handler in job-handlers.ts.
export const JOB_QUEUES = {
  batchDownloadAoms: 'batch-download-aoms',
  processDeactivation: 'process-deactivation',
  sendOutbox: 'send-outbox',
  backupDatabase: 'backup-database',
  reconcileTape: 'reconcile-tape',
} as const;

export type JobQueue = (typeof JOB_QUEUES)[keyof typeof JOB_QUEUES];

export const ALL_JOB_QUEUES: readonly JobQueue[] = Object.values(JOB_QUEUES);

/** How a queue's jobs are retried and when pg-boss's own maintenance gives up on a silent one. */
export interface JobQueueOptions {
  /** Attempts after the first. */
  readonly retryLimit: number;
  /** Seconds before the first retry; doubled (with jitter) on each further one. */
  readonly retryDelay: number;
  readonly retryBackoff: boolean;
  /**
   * pg-boss's expiration: an active job older than this is failed (and retried) by maintenance.
   * Only a backstop: a job whose server died is found at once by its free advisory lock (job-runner.ts).
   */
  readonly expireInSeconds: number;
}

export const JOB_QUEUE_OPTIONS: Readonly<Record<JobQueue, JobQueueOptions>> = {
  // Zipping thousands of documents can take minutes; a retry starts the zip over.
  [JOB_QUEUES.batchDownloadAoms]: { retryLimit: 4, retryDelay: 2, retryBackoff: true, expireInSeconds: 4 * 60 * 60 },
  [JOB_QUEUES.processDeactivation]: { retryLimit: 5, retryDelay: 2, retryBackoff: true, expireInSeconds: 15 * 60 },
  // A mail server that is down for a while: retries over about an hour.
  [JOB_QUEUES.sendOutbox]: { retryLimit: 6, retryDelay: 60, retryBackoff: true, expireInSeconds: 15 * 60 },
  // A million-loan backup takes minutes; a failed one is tried again a few times within the day.
  [JOB_QUEUES.backupDatabase]: { retryLimit: 3, retryDelay: 15 * 60, retryBackoff: true, expireInSeconds: 4 * 60 * 60 },
  // A tape of a few hundred thousand rows takes under a minute; a retry reads the stored tape again.
  [JOB_QUEUES.reconcileTape]: { retryLimit: 3, retryDelay: 2, retryBackoff: true, expireInSeconds: 60 * 60 },
};
