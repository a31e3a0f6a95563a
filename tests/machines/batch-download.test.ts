import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  batchDownloadMachine,
  downloadFailure,
  selectCanStart,
  selectPhase,
  selectProgress,
  type ZipFile,
} from '../../machines/batch-download';
import { HttpError } from '../../src/contract/http-error';
import type { Job, JobStatus, StartJobBody } from '../../src/contract/jobs';
import { JOB_POLL_INTERVAL_MS } from '../../src/domain/constants';
import { BATCH_DOWNLOAD_TEXTS } from '../../src/domain/texts';

const JOB_ID = '4f6f2a8e-51a2-4e53-9a57-6a3f1d1c2b10';
const OTHER_ID = '9d3c8a91-5b6e-4b2f-8f0a-2c7e1d9b4a55';
const request: StartJobBody = { type: 'BATCH_DOWNLOAD_AOMS', loanIds: ['0a1b2c3d-0000-4000-8000-000000000001'] };

function job(status: JobStatus, progress = 0, values: Partial<Job> = {}): Job {
  return {
    jobId: JOB_ID,
    type: 'BATCH_DOWNLOAD_AOMS',
    status,
    progress,
    total: 10,
    error: status === 'FAILED' ? 'The disk is full.' : null,
    delivered: false,
    createdAt: '2026-01-15T10:00:00.000Z',
    updatedAt: '2026-01-15T10:00:00.000Z',
    ...values,
  };
}

function start(options: {
  jobs: () => Promise<Job[]>;
  startJob?: (body: StartJobBody) => Promise<Job>;
  zip?: (job: Job) => Promise<ZipFile>;
}) {
  const saved: ZipFile[] = [];
  const notifyComplete = vi.fn();
  const notifyFailed = vi.fn();
  const notifyStartFailed = vi.fn();
  const fetches = vi.fn(options.jobs);
  const actor = createActor(
    batchDownloadMachine.provide({
      actors: {
        fetchJobs: fromPromise(() => fetches()),
        startJob: fromPromise(({ input }) => (options.startJob ?? (async () => job('PENDING')))(input)),
        downloadZip: fromPromise(({ input }) => (options.zip ?? (async () => ({ file: new Blob(['zip']), fileName: 'a.zip' })))(input)),
      },
      actions: {
        saveFile: (_, file) => void saved.push(file),
        notifyComplete,
        notifyFailed: (_, params) => notifyFailed(params.message),
        notifyStartFailed,
      },
    }),
  ).start();
  return { actor, saved, fetches, notifyComplete, notifyFailed, notifyStartFailed };
}

/** Lets pending promises settle under fake timers. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('batch download machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('does nothing until the organization is known, then asks for the jobs once', async () => {
    const { actor, fetches } = start({ jobs: async () => [] });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(selectCanStart(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'batch.start', request });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'batch.load' });
    await settle();
    expect(fetches).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);
    await vi.advanceTimersByTimeAsync(5 * JOB_POLL_INTERVAL_MS);
    expect(fetches).toHaveBeenCalledTimes(1);
  });

  it('starts a job, polls every 1000 ms with its progress until DONE, then saves the zip and says so', async () => {
    let answer: Job[] = [];
    const { actor, fetches, saved, notifyComplete, notifyFailed } = start({ jobs: async () => answer });
    actor.send({ type: 'batch.load' });
    await settle();
    actor.send({ type: 'batch.start', request });
    expect(selectPhase(actor.getSnapshot())).toBe('starting');
    await settle();
    expect(selectProgress(actor.getSnapshot())).toEqual({ progress: 0, total: 10 });
    // A second start while one runs is ignored.
    expect(selectCanStart(actor.getSnapshot())).toBe(false);

    answer = [job('RUNNING', 4)];
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS - 1);
    expect(fetches).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetches).toHaveBeenCalledTimes(2);
    expect(selectProgress(actor.getSnapshot())).toEqual({ progress: 4, total: 10 });

    answer = [job('DONE', 10)];
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    await settle();
    expect(saved).toHaveLength(1);
    expect(notifyComplete).toHaveBeenCalledTimes(1);
    expect(notifyFailed).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);
    expect(selectProgress(actor.getSnapshot())).toBeNull();
    await vi.advanceTimersByTimeAsync(3 * JOB_POLL_INTERVAL_MS);
    expect(fetches).toHaveBeenCalledTimes(3);
  });

  it("shows a FAILED job's error message and stops polling", async () => {
    let answer: Job[] = [];
    const { actor, notifyFailed, saved } = start({ jobs: async () => answer });
    actor.send({ type: 'batch.load' });
    await settle();
    actor.send({ type: 'batch.start', request });
    await settle();
    answer = [job('FAILED', 3)];
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(notifyFailed).toHaveBeenCalledWith('The disk is full.');
    expect(saved).toEqual([]);
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);
  });

  it('resumes polling a job that runs when it loads (a reload mid-job), and keeps polling through a failed poll', async () => {
    let answer: Job[] | Error = [job('RUNNING', 2), job('DONE', 10, { jobId: OTHER_ID })];
    const { actor, fetches } = start({
      jobs: async () => {
        if (answer instanceof Error) throw answer;
        return answer;
      },
    });
    actor.send({ type: 'batch.load' });
    await settle();
    expect(selectProgress(actor.getSnapshot())).toEqual({ progress: 2, total: 10 });
    answer = new Error('503');
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().matches({ active: { polling: 'waiting' } })).toBe(true);
    answer = [job('RUNNING', 7)];
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(fetches).toHaveBeenCalledTimes(3);
    expect(selectProgress(actor.getSnapshot())).toEqual({ progress: 7, total: 10 });
  });

  it('offers once, on load, a job that finished while no page followed it (a reload)', async () => {
    const { actor, saved, notifyComplete, fetches } = start({ jobs: async () => [job('DONE', 10), job('DONE', 10, { jobId: OTHER_ID })] });
    actor.send({ type: 'batch.load' });
    await settle();
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);
    expect(saved).toHaveLength(1);
    expect(notifyComplete).toHaveBeenCalledTimes(1);
    // Only the newest is offered, and nothing is polled afterwards.
    await vi.advanceTimersByTimeAsync(5 * JOB_POLL_INTERVAL_MS);
    expect(fetches).toHaveBeenCalledTimes(1);
    expect(saved).toHaveLength(1);
  });

  it('does not offer again a finished job whose zip was asked for, and forgets a job that left the list', async () => {
    let answer: Job[] = [job('DONE', 10, { delivered: true })];
    const { actor, saved, notifyComplete } = start({ jobs: async () => answer });
    actor.send({ type: 'batch.load' });
    await settle();
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);
    expect(saved).toEqual([]);
    expect(notifyComplete).not.toHaveBeenCalled();

    answer = [job('PENDING')];
    actor.send({ type: 'batch.load' });
    await settle();
    expect(actor.getSnapshot().hasTag('running')).toBe(true);
    answer = [];
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);
    expect(actor.getSnapshot().context.job).toBeNull();
  });

  it('a followed job that another tab has already downloaded ends quietly here', async () => {
    let answer: Job[] = [job('RUNNING', 4)];
    const { actor, saved, notifyComplete } = start({ jobs: async () => answer });
    actor.send({ type: 'batch.load' });
    await settle();
    expect(actor.getSnapshot().hasTag('running')).toBe(true);
    answer = [job('DONE', 10, { delivered: true })];
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);
    expect(selectProgress(actor.getSnapshot())).toBeNull();
    expect(saved).toEqual([]);
    expect(notifyComplete).not.toHaveBeenCalled();
  });

  it("a start refused for the user's running jobs (429) says the server's words", async () => {
    const refusal = 'You have 3 batch downloads in progress: start another when one has finished.';
    const { actor, notifyStartFailed } = start({
      jobs: async () => [],
      startJob: async () => {
        throw new HttpError(429, JSON.stringify({ statusCode: 429, error: 'Too Many Requests', message: refusal }));
      },
    });
    actor.send({ type: 'batch.load' });
    await settle();
    actor.send({ type: 'batch.start', request });
    await settle();
    expect(notifyStartFailed.mock.calls[0]?.[1]).toEqual({ message: refusal });
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);
  });

  it('says when the job cannot start or the zip cannot be downloaded', async () => {
    let answer: Job[] = [];
    const { actor, notifyStartFailed, notifyFailed, notifyComplete } = start({
      jobs: async () => answer,
      startJob: async () => {
        throw new Error('400');
      },
    });
    actor.send({ type: 'batch.load' });
    await settle();
    actor.send({ type: 'batch.start', request });
    await settle();
    expect(notifyStartFailed).toHaveBeenCalledTimes(1);
    expect(notifyStartFailed.mock.calls[0]?.[1]).toEqual({ message: BATCH_DOWNLOAD_TEXTS.startFailed });
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);

    const failingZip = start({
      jobs: async () => answer,
      zip: async () => {
        throw new Error('500');
      },
    });
    answer = [job('DONE', 10)];
    failingZip.actor.send({ type: 'batch.load' });
    await settle();
    answer = [];
    failingZip.actor.send({ type: 'batch.start', request });
    await settle();
    answer = [job('DONE', 10)];
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    await settle();
    expect(failingZip.notifyFailed).toHaveBeenCalledWith(BATCH_DOWNLOAD_TEXTS.downloadFailed);
    expect(failingZip.notifyComplete).not.toHaveBeenCalled();
    expect(notifyFailed).not.toHaveBeenCalled();
    expect(notifyComplete).not.toHaveBeenCalled();
  });

  it("a zip refused because a loan has moved on (404) says so; another 404 gets SPEC's text", async () => {
    const refusal = (message: string) => new HttpError(404, JSON.stringify({ statusCode: 404, error: 'Not Found', message }));
    expect(downloadFailure(refusal(BATCH_DOWNLOAD_TEXTS.accessLost))).toBe(BATCH_DOWNLOAD_TEXTS.accessLost);
    expect(downloadFailure(refusal('Job not found.'))).toBe(BATCH_DOWNLOAD_TEXTS.downloadFailed);
    expect(downloadFailure(new Error(BATCH_DOWNLOAD_TEXTS.accessLost))).toBe(BATCH_DOWNLOAD_TEXTS.downloadFailed);

    let answer: Job[] = [];
    const { actor, notifyFailed } = start({
      jobs: async () => answer,
      zip: async () => {
        throw refusal(BATCH_DOWNLOAD_TEXTS.accessLost);
      },
    });
    actor.send({ type: 'batch.load' });
    await settle();
    actor.send({ type: 'batch.start', request });
    await settle();
    answer = [job('DONE', 10)];
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    await settle();
    expect(notifyFailed).toHaveBeenCalledWith(BATCH_DOWNLOAD_TEXTS.accessLost);
    expect(actor.getSnapshot().matches({ active: 'ready' })).toBe(true);
  });

  it('forgets the job on sign-out and stops polling', async () => {
    const { actor, fetches } = start({ jobs: async () => [job('RUNNING', 1)] });
    actor.send({ type: 'batch.load' });
    await settle();
    actor.send({ type: 'batch.reset' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(selectProgress(actor.getSnapshot())).toBeNull();
    await vi.advanceTimersByTimeAsync(3 * JOB_POLL_INTERVAL_MS);
    expect(fetches).toHaveBeenCalledTimes(1);
  });
});
