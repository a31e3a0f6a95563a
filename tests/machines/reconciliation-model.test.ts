// Model-based test of the reconciliation machine: every transition walked on a running actor whose
// calls (the reconciliations, the upload, the report's CSV) are settled by the test, with what the
// screen reads asserted in every state.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  reconciliationMachine,
  selectDownloadError,
  selectIsBusy,
  selectIsChoosing,
  selectIsDone,
  selectIsDownloading,
  selectIsLoading,
  selectLoadFailed,
  selectReconciliation,
  selectReconciliationError,
  type ReportFile,
} from '../../machines/reconciliation';
import type { Reconciliation } from '../../src/contract/reconciliation';
import { JOB_POLL_INTERVAL_MS } from '../../src/domain/constants';
import { RECONCILIATION_TEXTS } from '../../src/domain/reconciliation';
import { createModelWalker } from './support/model-coverage';
import { HUGE, job, JOB_ID, TAPE, walk } from './walks/reconciliation';

const walker = createModelWalker(reconciliationMachine, walk);

interface Deferred<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}
const settle = async () => {
  for (let n = 0; n < 10; n++) await Promise.resolve();
};

describe('reconciliation machine (model)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  for (const path of walker.paths) {
    it(path.description, async () => {
      const fetching: Deferred<Reconciliation[]>[] = [];
      const uploading: { file: File; deferred: Deferred<Reconciliation> }[] = [];
      const downloading: Deferred<ReportFile>[] = [];
      const saved: ReportFile[] = [];
      const actor = createActor(
        reconciliationMachine.provide({
          actors: {
            fetchReconciliations: fromPromise(() => new Promise<Reconciliation[]>((resolve, reject) => fetching.push({ resolve, reject }))),
            uploadTape: fromPromise(
              ({ input }) =>
                new Promise<Reconciliation>((resolve, reject) => uploading.push({ file: input, deferred: { resolve, reject } })),
            ),
            downloadReport: fromPromise(() => new Promise<ReportFile>((resolve, reject) => downloading.push({ resolve, reject }))),
          },
          actions: { saveFile: (_, file) => void saved.push(file) },
        }),
      ).start();
      const snapshot = () => actor.getSnapshot();
      await path.test({
        states: {
          loading: () => expect(selectIsLoading(snapshot())).toBe(true),
          loadFailed: () => expect(selectLoadFailed(snapshot())).toBe(true),
          choosing: () => {
            expect(selectIsChoosing(snapshot())).toBe(true);
            const { file, error } = snapshot().context;
            if (file === HUGE) expect(error).toBe(RECONCILIATION_TEXTS.tooLarge);
            if (error) expect(typeof selectReconciliationError(snapshot())).toBe('string');
          },
          uploading: () => {
            expect(selectIsBusy(snapshot())).toBe(true);
            expect(uploading.at(-1)?.file).toBe(TAPE);
          },
          running: () => {
            expect(selectIsBusy(snapshot())).toBe(true);
            expect(selectReconciliation(snapshot())?.jobId).toBe(JOB_ID);
          },
          polling: () => expect(fetching.length).toBeGreaterThan(0),
          done: () => expect(selectReconciliation(snapshot())?.status).toBe('DONE'),
          'done.idle': () => {
            expect(selectIsDone(snapshot())).toBe(true);
            expect(selectReconciliation(snapshot())?.counts).not.toBeNull();
            if (selectDownloadError(snapshot())) expect(selectDownloadError(snapshot())).toBe(RECONCILIATION_TEXTS.downloadFailed);
          },
          'done.downloading': () => expect(selectIsDownloading(snapshot())).toBe(true),
        },
        events: {
          'tape.choose': ({ event }) => actor.send(event),
          'tape.upload': ({ event }) => actor.send(event),
          'tape.new': ({ event }) => actor.send(event),
          'report.download': ({ event }) => actor.send(event),
          'load.retry': ({ event }) => actor.send(event),
          'after: pollInterval': async () => {
            vi.advanceTimersByTime(JOB_POLL_INTERVAL_MS);
            await settle();
          },
          'done: fetchReconciliations': async ({ event }) => {
            fetching.shift()?.resolve((event as unknown as { output: Reconciliation[] }).output);
            await settle();
          },
          'error: fetchReconciliations': async () => {
            fetching.shift()?.reject(new Error('offline'));
            await settle();
          },
          'done: uploadTape': async () => {
            uploading.shift()?.deferred.resolve(job('PENDING'));
            await settle();
          },
          'error: uploadTape': async ({ event }) => {
            uploading.shift()?.deferred.reject((event as unknown as { error: unknown }).error);
            await settle();
          },
          'done: downloadReport': async () => {
            downloading.shift()?.resolve({ file: new Blob(['csv']), fileName: 'report.csv' });
            await settle();
            expect(saved).toHaveLength(1);
          },
          'error: downloadReport': async () => {
            downloading.shift()?.reject(new Error('offline'));
            await settle();
          },
        },
      });
      actor.stop();
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
