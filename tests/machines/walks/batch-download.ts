// The walk of the batch-download machine: what its model-based test
// (tests/web/batch-download-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { batchDownloadMachine } from '../../../machines/batch-download';
import { HttpError } from '../../../src/contract/http-error';
import { zipFileName, type Job, type JobStatus, type StartJobBody } from '../../../src/contract/jobs';
import { DEFAULT_ROLE_FILTER } from '../../../src/domain/loan';
import type { WalkerOptions } from '../support/model-coverage';

export const JOB_ID = '4f6f2a8e-51a2-4e53-9a57-6a3f1d1c2b10';

export const TOTAL = 12;

export function job(status: JobStatus, progress: number, delivered = false): Job {
  return {
    jobId: JOB_ID,
    type: 'BATCH_DOWNLOAD_AOMS',
    status,
    progress,
    total: TOTAL,
    error: status === 'FAILED' ? 'The zip could not be stored.' : null,
    delivered,
    createdAt: '2026-01-15T10:00:00.000Z',
    updatedAt: '2026-01-15T10:00:05.000Z',
  };
}

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const zip = new Blob(['PK'], { type: 'application/zip' });

/** The whole filtered set of the default view. */
export const filteredRequest: StartJobBody = { type: 'BATCH_DOWNLOAD_AOMS', filters: { participantRoles: [...DEFAULT_ROLE_FILTER] } };

export const walk: WalkerOptions<typeof batchDownloadMachine> = {
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    'batch.start': { request: filteredRequest },
    // The caller's jobs: none, the followed one running, done (its zip not yet asked for, or
    // already asked for in another tab), failed.
    'done: fetchJobs': [
      { output: [] },
      { output: [job('RUNNING', 5)] },
      { output: [job('DONE', TOTAL)] },
      { output: [job('DONE', TOTAL, true)] },
      { output: [job('FAILED', 3)] },
    ],
    'error: fetchJobs': { error: serverError },
    'done: startJob': { output: job('PENDING', 0) },
    'error: startJob': { error: serverError },
    'done: downloadZip': { output: { file: zip, fileName: zipFileName(job('DONE', TOTAL)) } },
    'error: downloadZip': { error: serverError },
  },
};
