// What each queue's jobs do (see job-runner.ts for the contract: idempotent, retried with backoff).
// One line per queue; a handler parses its own data.
import { runBackupDatabase } from './backup-job';
import { batchDownloadAomsFailed, runBatchDownloadAoms } from './batch-download-job';
import { deactivationFailed, runProcessDeactivation } from './deactivation-job';
import { JOB_QUEUES } from './job-queues';
import type { JobFailureHandlers, JobHandlers } from './job-runner';
import { runSendOutbox } from './outbox-job';
import { reconciliationFailed, runReconciliation } from './reconciliation-job';

export const JOB_HANDLERS: JobHandlers = {
  [JOB_QUEUES.batchDownloadAoms]: runBatchDownloadAoms,
  [JOB_QUEUES.processDeactivation]: runProcessDeactivation,
  [JOB_QUEUES.sendOutbox]: runSendOutbox,
  [JOB_QUEUES.backupDatabase]: runBackupDatabase,
  [JOB_QUEUES.reconcileTape]: runReconciliation,
};

/** Called once when a queue's job has failed for good (optional per queue). */
export const JOB_FAILURE_HANDLERS: JobFailureHandlers = {
  [JOB_QUEUES.batchDownloadAoms]: batchDownloadAomsFailed,
  [JOB_QUEUES.processDeactivation]: deactivationFailed,
  [JOB_QUEUES.reconcileTape]: reconciliationFailed,
};
