// The walk of the reconciliation machine: what its model-based test
// (tests/machines/reconciliation-model.test.ts) sends on every path, and the statechart explorer's
// service answers and tours.
import type { reconciliationMachine } from '../../../machines/reconciliation';
import { HttpError } from '../../../src/contract/http-error';
import type { JobStatus } from '../../../src/contract/jobs';
import type { Reconciliation } from '../../../src/contract/reconciliation';
import { RECONCILIATION_TEXTS, TAPE_MAX_BYTES } from '../../../src/domain/reconciliation';
import type { WalkerOptions } from '../support/model-coverage';

export const JOB_ID = '4f6f2a8e-51a2-4e53-9a57-6a3f1d1c2b10';
export const job = (status: JobStatus): Reconciliation => ({
  jobId: JOB_ID,
  status,
  progress: status === 'PENDING' ? 0 : 5,
  total: 10,
  error: status === 'FAILED' ? RECONCILIATION_TEXTS.failed : null,
  fileName: 'tape.csv',
  rows: status === 'DONE' ? 3 : 0,
  fields: ['uli', 'servicer'],
  counts: status === 'DONE' ? { NOT_IN_REGISTRY: 1, MISSING_FROM_TAPE: 1, FIELD_DIFFERS: 1, UNREADABLE_ROW: 0 } : null,
  createdAt: '2026-01-15T10:00:00.000Z',
  updatedAt: '2026-01-15T10:00:00.000Z',
});
export const TAPE = new File(['ULI\nX\n'], 'tape.csv', { type: 'text/csv' });
export const HUGE = { name: 'huge.csv', size: TAPE_MAX_BYTES + 1 } as File;
export const REFUSED = new HttpError(400, JSON.stringify({ message: `tape: ${RECONCILIATION_TEXTS.noLoanKey}` }));

export const walk: WalkerOptions<typeof reconciliationMachine> = {
  events: {
    'done: fetchReconciliations': [{ output: [] }, { output: [job('RUNNING')] }, { output: [job('DONE')] }, { output: [job('FAILED')] }],
    'error: fetchReconciliations': { error: new Error('offline') },
    'tape.choose': [{ file: TAPE }, { file: HUGE }, { file: null }],
    'done: uploadTape': { output: job('PENDING') },
    'error: uploadTape': [{ error: REFUSED }, { error: new Error('offline') }],
    'done: downloadReport': { output: { file: new Blob(['csv']), fileName: 'report.csv' } },
    'error: downloadReport': { error: new Error('offline') },
  },
  serializeState: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.job?.status ?? null,
      snapshot.context.file?.name ?? null,
      snapshot.context.error,
      snapshot.context.downloadError !== null,
    ]),
};
