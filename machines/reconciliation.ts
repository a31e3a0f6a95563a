// Reconciliation against a loan tape (the Reconcile screen of Assets): on entry it asks for the
// caller's newest reconciliation, so a reload (or a server restart) in the middle of one resumes
// following it and a finished one shows its report. Choosing a CSV and uploading it starts a job,
// polled every 1000 ms (as the batch download) until DONE (the report: counts per kind, a paged
// table through the shared list, the CSV download) or FAILED (its message, and the form again).
// The server's refusals of a tape (not CSV, no loan key, over 50 MB) show under the file field.
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { isHttpError } from '../src/contract/http-error';
import type { Reconciliation } from '../src/contract/reconciliation';
import { JOB_POLL_INTERVAL_MS } from '../src/domain/constants';
import { RECONCILIATION_TEXTS, TAPE_MAX_BYTES } from '../src/domain/reconciliation';
import type { ListView } from './paged-list';

export interface ReconciliationContext {
  /** The reconciliation followed or shown. */
  readonly job: Reconciliation | null;
  /** The tape chosen in the form. */
  readonly file: File | null;
  /** What is wrong with the tape (the form's message), the upload's or the job's failure. */
  readonly error: string | null;
  /** The report could not be downloaded. */
  readonly downloadError: string | null;
}

export type ReconciliationEvent =
  | { type: 'tape.choose'; file: File | null }
  | { type: 'tape.upload' }
  | { type: 'tape.new' }
  | { type: 'report.download' }
  | { type: 'load.retry' };

/** A tape file as the download actor answers it. */
export interface ReportFile {
  readonly file: Blob;
  readonly fileName: string;
}

const prefix = (message: string) => message.replace(/^tape: /, '');

/** Why an upload failed: the server's own words for a tape it refused (4xx), else the generic text. */
export const uploadFailure = (error: unknown): string =>
  isHttpError(error) && error.status >= 400 && error.status < 500 && error.serverMessage
    ? prefix(error.serverMessage)
    : RECONCILIATION_TEXTS.uploadFailed;

/** Refused in the browser before any upload: too large (the server says the same). */
export const fileProblem = (file: File | null): string | null =>
  !file ? RECONCILIATION_TEXTS.chooseFile : file.size > TAPE_MAX_BYTES ? RECONCILIATION_TEXTS.tooLarge : null;

const outputOf = <T>(event: unknown): T => (event as { output: T }).output;
const isFinished = (job: Reconciliation | undefined) => job?.status === 'DONE' || job?.status === 'FAILED';

/** The report list's view: the shared list's paging plus the kind shown. */
export interface DifferencesView extends ListView {
  readonly kind: string | null;
}
export const differencesListInput = { view: { page: 1, limit: 10, kind: null } as DifferencesView, idKey: 'id' } as const;

export const reconciliationMachine = setup({
  types: { context: {} as ReconciliationContext, events: {} as ReconciliationEvent },
  delays: { pollInterval: JOB_POLL_INTERVAL_MS },
  actors: {
    fetchReconciliations: fromPromise<Reconciliation[]>(async () => {
      throw new Error('fetchReconciliations is provided by the app');
    }),
    uploadTape: fromPromise<Reconciliation, File>(async () => {
      throw new Error('uploadTape is provided by the app');
    }),
    downloadReport: fromPromise<ReportFile, Reconciliation>(async () => {
      throw new Error('downloadReport is provided by the app');
    }),
  },
  actions: {
    /** Provided by the app: hands the report to the browser. */
    saveFile: (_, _params: ReportFile) => undefined,
  },
  guards: {
    fileAcceptable: ({ context }) => fileProblem(context.file) === null,
    newestRunning: ({ event }) => {
      const newest = outputOf<Reconciliation[]>(event)[0];
      return !!newest && !isFinished(newest);
    },
    newestDone: ({ event }) => outputOf<Reconciliation[]>(event)[0]?.status === 'DONE',
    followedDone: ({ context, event }) =>
      outputOf<Reconciliation[]>(event).find((job) => job.jobId === context.job?.jobId)?.status === 'DONE',
    followedFailed: ({ context, event }) => {
      const job = outputOf<Reconciliation[]>(event).find((candidate) => candidate.jobId === context.job?.jobId);
      return !job || job.status === 'FAILED';
    },
  },
}).createMachine({
  id: 'reconciliation',
  context: { job: null, file: null, error: null, downloadError: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'fetchReconciliations',
        onDone: [
          { guard: 'newestRunning', target: 'running', actions: assign({ job: ({ event }) => event.output[0] ?? null }) },
          { guard: 'newestDone', target: 'done', actions: assign({ job: ({ event }) => event.output[0] ?? null }) },
          { target: 'choosing' },
        ],
        onError: { target: 'loadFailed' },
      },
    },
    loadFailed: {
      on: { 'load.retry': { target: 'loading' } },
    },
    choosing: {
      on: {
        'tape.choose': {
          actions: assign({
            file: ({ event }) => event.file,
            error: ({ event }) => (event.file && fileProblem(event.file)) || null,
          }),
        },
        'tape.upload': [
          { guard: 'fileAcceptable', target: 'uploading', actions: assign({ error: null }) },
          { actions: assign({ error: ({ context }) => fileProblem(context.file) }) },
        ],
      },
    },
    uploading: {
      tags: ['busy'],
      invoke: {
        src: 'uploadTape',
        input: ({ context }) => context.file as File,
        onDone: { target: 'running', actions: assign({ job: ({ event }) => event.output, file: null }) },
        onError: { target: 'choosing', actions: assign({ error: ({ event }) => uploadFailure(event.error) }) },
      },
    },
    running: {
      tags: ['busy'],
      after: { pollInterval: { target: 'polling' } },
    },
    polling: {
      tags: ['busy'],
      invoke: {
        src: 'fetchReconciliations',
        onDone: [
          {
            guard: 'followedDone',
            target: 'done',
            actions: assign({ job: ({ context, event }) => event.output.find((job) => job.jobId === context.job?.jobId) ?? null }),
          },
          {
            guard: 'followedFailed',
            target: 'choosing',
            actions: assign({
              error: ({ context, event }) =>
                event.output.find((job) => job.jobId === context.job?.jobId)?.error ?? RECONCILIATION_TEXTS.failed,
              job: null,
            }),
          },
          {
            target: 'running',
            actions: assign({ job: ({ context, event }) => event.output.find((job) => job.jobId === context.job?.jobId) ?? null }),
          },
        ],
        // A failed poll is tried again at the next interval.
        onError: { target: 'running' },
      },
    },
    done: {
      initial: 'idle',
      on: { 'tape.new': { target: 'choosing', actions: assign({ job: null, error: null, downloadError: null }) } },
      states: {
        idle: {
          on: { 'report.download': { target: 'downloading', actions: assign({ downloadError: null }) } },
        },
        downloading: {
          tags: ['downloading'],
          invoke: {
            src: 'downloadReport',
            input: ({ context }) => context.job as Reconciliation,
            onDone: { target: 'idle', actions: { type: 'saveFile', params: ({ event }) => event.output } },
            onError: { target: 'idle', actions: assign({ downloadError: RECONCILIATION_TEXTS.downloadFailed }) },
          },
        },
      },
    },
  },
});

export type ReconciliationSnapshot = SnapshotFrom<typeof reconciliationMachine>;

export const selectReconciliation = (snapshot: ReconciliationSnapshot): Reconciliation | null => snapshot.context.job;
export const selectReconciliationError = (snapshot: ReconciliationSnapshot): string | null => snapshot.context.error;
export const selectDownloadError = (snapshot: ReconciliationSnapshot): string | null => snapshot.context.downloadError;
export const selectChosenFile = (snapshot: ReconciliationSnapshot): File | null => snapshot.context.file;
export const selectIsChoosing = (snapshot: ReconciliationSnapshot): boolean => snapshot.matches('choosing');
export const selectIsBusy = (snapshot: ReconciliationSnapshot): boolean => snapshot.hasTag('busy');
export const selectIsUploading = (snapshot: ReconciliationSnapshot): boolean => snapshot.matches('uploading');
export const selectIsDone = (snapshot: ReconciliationSnapshot): boolean => snapshot.matches('done');
export const selectIsDownloading = (snapshot: ReconciliationSnapshot): boolean => snapshot.hasTag('downloading');
export const selectIsLoading = (snapshot: ReconciliationSnapshot): boolean => snapshot.hasTag('loading');
export const selectLoadFailed = (snapshot: ReconciliationSnapshot): boolean => snapshot.matches('loadFailed');
