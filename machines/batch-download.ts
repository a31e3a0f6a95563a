// The batch download of assignment documents (SPEC sections 2, 4, 8 and 9), app-wide: start a
// job, poll it every 1000 ms until DONE or FAILED, then download its zip with the toast
// 'Download complete!' or the job's error message. On load (and on an organization switch) it
// asks for the jobs once, so a reload in the middle of a job resumes polling, and a job that
// finished unseen (while the page reloaded) is offered then. A job is offered once: the server
// marks it delivered when its zip is first asked for, in this tab or another. One job at a time.
import { assertEvent, assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { isHttpError } from '../src/contract/http-error';
import { FINAL_JOB_STATUSES, type Job, type StartJobBody } from '../src/contract/jobs';
import { JOB_POLL_INTERVAL_MS } from '../src/domain/constants';
import { BATCH_DOWNLOAD_TEXTS } from '../src/domain/texts';
import { followOrganization } from './session';
import { toastShow } from './toasts';

/** Why a start failed, for the toast: the server's own words for its limit of running jobs (429), else SPEC's text. */
export const startFailure = (error: unknown): string =>
  isHttpError(error) && error.status === 429 ? error.serverMessage : BATCH_DOWNLOAD_TEXTS.startFailed;

/** Why a download failed, for the toast: that a loan of the zip has moved on (the server's 404), else SPEC's text. */
export const downloadFailure = (error: unknown): string =>
  isHttpError(error) && error.status === 404 && error.serverMessage === BATCH_DOWNLOAD_TEXTS.accessLost
    ? BATCH_DOWNLOAD_TEXTS.accessLost
    : BATCH_DOWNLOAD_TEXTS.downloadFailed;

export interface ZipFile {
  readonly file: Blob;
  readonly fileName: string;
}

export interface BatchDownloadContext {
  /** The job being followed (or the last one followed). */
  readonly job: Job | null;
}

export type BatchDownloadEvent =
  /** The organization is known (sign-in, switch, reload): ask for its jobs once. */
  | { type: 'batch.load' }
  /** Signed out or no organization: forget the job. */
  | { type: 'batch.reset' }
  | { type: 'batch.start'; request: StartJobBody };

/** The caller's jobs, newest first (GET v4 /jobs). */
const newest = (jobs: readonly Job[]): Job | undefined => jobs[0];
const isRunning = (job: Job | undefined): job is Job => !!job && !FINAL_JOB_STATUSES.includes(job.status);
/** Finished with its zip never asked for: nobody has been offered it yet. */
const isUnseen = (job: Job | undefined): job is Job => !!job && job.status === 'DONE' && !job.delivered;
const followed = (context: BatchDownloadContext, jobs: readonly Job[]): Job | undefined =>
  jobs.find((job) => job.jobId === context.job?.jobId);
/** The jobs a fetchJobs actor answered: named guards see the done event as an unknown one. */
const jobsOf = (event: unknown): readonly Job[] => (event as { output: readonly Job[] }).output;

export const batchDownloadMachine = setup({
  types: { context: {} as BatchDownloadContext, events: {} as BatchDownloadEvent },
  delays: { pollInterval: JOB_POLL_INTERVAL_MS },
  actors: {
    followOrganization,
    fetchJobs: fromPromise<Job[]>(async () => {
      throw new Error('fetchJobs is provided by the app');
    }),
    startJob: fromPromise<Job, StartJobBody>(async () => {
      throw new Error('startJob is provided by the app');
    }),
    downloadZip: fromPromise<ZipFile, Job>(async () => {
      throw new Error('downloadZip is provided by the app');
    }),
  },
  actions: {
    /** Provided by the app: hands the zip to the browser. */
    saveFile: (_, _params: ZipFile) => undefined,
    /** The toast 'Download complete!', through the app's toasts actor. */
    notifyComplete: sendTo(({ system }) => system.get('toasts'), toastShow('success', BATCH_DOWNLOAD_TEXTS.downloadComplete)),
    /** An error toast with this message (the job's error or why the zip could not be had). */
    notifyFailed: sendTo(
      ({ system }) => system.get('toasts'),
      (_, params: { message: string }) => toastShow('error', params.message),
    ),
    /** The error toast that the download could not start, with this message. */
    notifyStartFailed: sendTo(
      ({ system }) => system.get('toasts'),
      (_, params: { message: string }) => toastShow('error', params.message),
    ),
  },
  guards: {
    newestIsRunning: ({ event }) => isRunning(newest(jobsOf(event))),
    newestIsUnseen: ({ event }) => isUnseen(newest(jobsOf(event))),
    /** Done, and its zip already asked for (another tab offered it first). */
    followedWasDelivered: ({ context, event }) => followed(context, jobsOf(event))?.delivered === true,
    followedIsDone: ({ context, event }) => followed(context, jobsOf(event))?.status === 'DONE',
    followedIsFailed: ({ context, event }) => followed(context, jobsOf(event))?.status === 'FAILED',
    followedIsGone: ({ context, event }) => !followed(context, jobsOf(event)),
  },
}).createMachine({
  id: 'batchDownload',
  context: { job: null },
  // The session's organization, for as long as this actor lives: its jobs, or none.
  invoke: { src: 'followOrganization', input: { whenKnown: { type: 'batch.load' }, whenUnknown: { type: 'batch.reset' } } },
  initial: 'idle',
  states: {
    /** No organization yet (before sign-in). */
    idle: {
      on: { 'batch.load': { target: 'active' } },
    },
    /** An organization is known: its jobs are followed. */
    active: {
      initial: 'loading',
      on: {
        // Another organization (or the same after a reload of the session): ask again.
        'batch.load': { target: '.loading', reenter: true, actions: assign({ job: null }) },
        'batch.reset': { target: 'idle', actions: assign({ job: null }) },
      },
      states: {
        loading: {
          invoke: {
            src: 'fetchJobs',
            onDone: [
              { guard: 'newestIsRunning', target: 'polling', actions: assign({ job: ({ event }) => newest(event.output) ?? null }) },
              // It finished while no page followed it (a reload): offered now, once.
              { guard: 'newestIsUnseen', target: 'downloading', actions: assign({ job: ({ event }) => newest(event.output) ?? null }) },
              { target: 'ready' },
            ],
            // Nothing to resume is shown; starting a job stays possible.
            onError: { target: 'ready' },
          },
        },
        ready: {
          on: { 'batch.start': { target: 'starting' } },
        },
        starting: {
          tags: ['busy'],
          invoke: {
            src: 'startJob',
            input: ({ event }) => {
              assertEvent(event, 'batch.start');
              return event.request;
            },
            onDone: { target: 'polling', actions: assign({ job: ({ event }) => event.output }) },
            onError: {
              target: 'ready',
              actions: { type: 'notifyStartFailed', params: ({ event }) => ({ message: startFailure(event.error) }) },
            },
          },
        },
        polling: {
          tags: ['busy', 'running'],
          initial: 'waiting',
          states: {
            waiting: {
              after: { pollInterval: { target: 'checking' } },
            },
            checking: {
              invoke: {
                src: 'fetchJobs',
                onDone: [
                  {
                    guard: 'followedWasDelivered',
                    target: '#batchDownload.active.ready',
                    actions: assign({ job: ({ context, event }) => followed(context, event.output) ?? context.job }),
                  },
                  {
                    guard: 'followedIsDone',
                    target: '#batchDownload.active.downloading',
                    actions: assign({ job: ({ context, event }) => followed(context, event.output) ?? context.job }),
                  },
                  {
                    guard: 'followedIsFailed',
                    target: '#batchDownload.active.ready',
                    actions: [
                      assign({ job: ({ context, event }) => followed(context, event.output) ?? context.job }),
                      { type: 'notifyFailed', params: ({ context }) => ({ message: context.job?.error || BATCH_DOWNLOAD_TEXTS.failed }) },
                    ],
                  },
                  // Gone from the list (removed with its organization): stop following it.
                  { guard: 'followedIsGone', target: '#batchDownload.active.ready', actions: assign({ job: null }) },
                  { target: 'waiting', actions: assign({ job: ({ context, event }) => followed(context, event.output) ?? context.job }) },
                ],
                // A failed poll is tried again at the next tick.
                onError: { target: 'waiting' },
              },
            },
          },
        },
        downloading: {
          tags: ['busy', 'running'],
          invoke: {
            src: 'downloadZip',
            input: ({ context }) => context.job as Job,
            onDone: {
              target: 'ready',
              actions: [{ type: 'saveFile', params: ({ event }) => event.output }, 'notifyComplete'],
            },
            onError: {
              target: 'ready',
              actions: { type: 'notifyFailed', params: ({ event }) => ({ message: downloadFailure(event.error) }) },
            },
          },
        },
      },
    },
  },
});

export type BatchDownloadSnapshot = SnapshotFrom<typeof batchDownloadMachine>;

/** Documents zipped so far of all, while a job runs (null otherwise). */
export const selectProgress = (snapshot: BatchDownloadSnapshot): { readonly progress: number; readonly total: number } | null => {
  const job = snapshot.context.job;
  if (!snapshot.hasTag('running') || !job) return null;
  return snapshot.matches({ active: 'downloading' })
    ? { progress: job.total, total: job.total }
    : { progress: job.progress, total: job.total };
};

/** A new job can be started now (organization known, none running). */
export const selectCanStart = (snapshot: BatchDownloadSnapshot): boolean => snapshot.matches({ active: 'ready' });
export const selectIsBusy = (snapshot: BatchDownloadSnapshot): boolean => snapshot.hasTag('busy');

/** What the Downloads entry says: nothing running, starting, zipping (with progress) or saving the zip. */
export type BatchDownloadPhase = 'none' | 'starting' | 'zipping' | 'saving';
export const selectPhase = (snapshot: BatchDownloadSnapshot): BatchDownloadPhase =>
  snapshot.matches({ active: 'starting' })
    ? 'starting'
    : snapshot.matches({ active: 'polling' })
      ? 'zipping'
      : snapshot.matches({ active: 'downloading' })
        ? 'saving'
        : 'none';
