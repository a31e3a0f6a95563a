// The reconciliation machine's rules beside its model: the browser's own refusal of a tape, the
// server's words for one it refused, resuming a running reconciliation on entry, and FAILED.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { fileProblem, reconciliationMachine, selectReconciliationError, uploadFailure } from '../../machines/reconciliation';
import { HttpError } from '../../src/contract/http-error';
import type { JobStatus } from '../../src/contract/jobs';
import type { Reconciliation } from '../../src/contract/reconciliation';
import { JOB_POLL_INTERVAL_MS } from '../../src/domain/constants';
import { RECONCILIATION_TEXTS, TAPE_MAX_BYTES } from '../../src/domain/reconciliation';

const job = (status: JobStatus, jobId = 'a1'): Reconciliation => ({
  jobId,
  status,
  progress: 0,
  total: 10,
  error: status === 'FAILED' ? 'The disk is full.' : null,
  fileName: 'tape.csv',
  rows: 0,
  fields: ['uli'],
  counts: status === 'DONE' ? { NOT_IN_REGISTRY: 0, MISSING_FROM_TAPE: 0, FIELD_DIFFERS: 0, UNREADABLE_ROW: 0 } : null,
  createdAt: '2026-01-15T10:00:00.000Z',
  updatedAt: '2026-01-15T10:00:00.000Z',
});

const flush = async () => {
  for (let n = 0; n < 10; n++) await Promise.resolve();
};

describe('reconciliation machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('refuses no file and a file over 50 MB in the browser', () => {
    expect(fileProblem(null)).toBe(RECONCILIATION_TEXTS.chooseFile);
    expect(fileProblem({ size: TAPE_MAX_BYTES + 1 } as File)).toBe(RECONCILIATION_TEXTS.tooLarge);
    expect(fileProblem({ size: TAPE_MAX_BYTES } as File)).toBeNull();
  });

  it("shows the server's words for a refused tape without the field's prefix, else the generic text", () => {
    const refused = new HttpError(415, JSON.stringify({ message: `tape: ${RECONCILIATION_TEXTS.notCsv}` }));
    expect(uploadFailure(refused)).toBe(RECONCILIATION_TEXTS.notCsv);
    expect(uploadFailure(new HttpError(500, 'boom'))).toBe(RECONCILIATION_TEXTS.uploadFailed);
    expect(uploadFailure(new Error('offline'))).toBe(RECONCILIATION_TEXTS.uploadFailed);
  });

  it('resumes following a running reconciliation, then shows the job error of a FAILED one in the form', async () => {
    const answers = [[job('RUNNING')], [job('RUNNING')], [job('FAILED')]];
    const fetches = vi.fn(async () => answers.shift() ?? []);
    const actor = createActor(reconciliationMachine.provide({ actors: { fetchReconciliations: fromPromise(() => fetches()) } })).start();
    await flush();
    expect(actor.getSnapshot().matches('running')).toBe(true);
    vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS);
    await flush();
    expect(actor.getSnapshot().matches('running')).toBe(true);
    vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS);
    await flush();
    expect(actor.getSnapshot().matches('choosing')).toBe(true);
    expect(selectReconciliationError(actor.getSnapshot())).toBe('The disk is full.');
    expect(fetches).toHaveBeenCalledTimes(3);
  });

  it('a reconciliation that is no longer listed counts as failed', async () => {
    const answers = [[job('RUNNING')], []];
    const actor = createActor(
      reconciliationMachine.provide({ actors: { fetchReconciliations: fromPromise(async () => answers.shift() ?? []) } }),
    ).start();
    await flush();
    vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS);
    await flush();
    expect(selectReconciliationError(actor.getSnapshot())).toBe(RECONCILIATION_TEXTS.failed);
  });
});
