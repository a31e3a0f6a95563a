// The app-wide batch download of assignment documents (machines/batch-download.ts): provided
// once under the session's services, told when the organization is known or changes (it then
// asks for that organization's jobs once, resuming a job that runs), and shown as a progress bar
// at the Downloads entry of the navigation on every screen.
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, type ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { batchDownloadMachine, selectPhase, selectProgress } from '../../../machines/batch-download';
import { selectSignedInOrganization } from '../../../machines/session';
import { zipFileName } from '../../contract/jobs';
import { BATCH_DOWNLOAD_TEXTS } from '../../domain/texts';
import { BatchDownloadActorContext, SessionActorContext, ToastsActorContext } from './actor-contexts';
import { useAppServices } from './services';

export function BatchDownloadProvider({ children }: { children: ReactNode }) {
  const { api, download } = useAppServices();
  const toasts = ToastsActorContext.useActorRef();
  const logic = useMemo(() => {
    // Sent after this transition: one actor's action must not run another's step.
    const toast = (variant: 'success' | 'error', message: string) =>
      queueMicrotask(() => toasts.send({ type: 'toast.show', variant, message }));
    return batchDownloadMachine.provide({
      actors: {
        fetchJobs: fromPromise(({ signal }) => api.listJobs('BATCH_DOWNLOAD_AOMS', signal)),
        startJob: fromPromise(({ input, signal }) => api.startJob(input, signal)),
        downloadZip: fromPromise(async ({ input, signal }) => ({
          file: await api.documentsZip(input.jobId, signal),
          fileName: zipFileName(input),
        })),
      },
      actions: {
        saveFile: (_, { file, fileName }) => download(file, fileName),
        notifyComplete: () => toast('success', BATCH_DOWNLOAD_TEXTS.downloadComplete),
        notifyFailed: (_, { message }) => toast('error', message),
        notifyStartFailed: () => toast('error', BATCH_DOWNLOAD_TEXTS.startFailed),
      },
    });
  }, [api, download, toasts]);
  return (
    <BatchDownloadActorContext.Provider logic={logic}>
      <FollowOrganization />
      {children}
    </BatchDownloadActorContext.Provider>
  );
}

/** Tells the batch download which organization it serves: its jobs belong to the organization. */
function FollowOrganization() {
  const organization = SessionActorContext.useSelector(selectSignedInOrganization);
  const batch = BatchDownloadActorContext.useActorRef();
  useEffect(() => {
    batch.send(organization ? { type: 'batch.load' } : { type: 'batch.reset' });
  }, [organization, batch]);
  return null;
}

/** The running job's progress bar (nothing when no job runs). */
export function BatchDownloadProgress({ compact }: { compact: boolean }) {
  const batch = BatchDownloadActorContext.useActorRef();
  const progress = useSelector(batch, selectProgress);
  if (!progress) return null;
  const text = BATCH_DOWNLOAD_TEXTS.progressText(progress.progress, progress.total);
  const percent = progress.total > 0 ? Math.round((progress.progress / progress.total) * 100) : 0;
  return (
    <div className={compact ? 'px-2 pb-2' : 'px-3 pb-2'}>
      <div
        role="progressbar"
        aria-label={BATCH_DOWNLOAD_TEXTS.progressLabel}
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.progress}
        aria-valuetext={text}
        title={compact ? text : undefined}
        className="h-2 w-full overflow-hidden rounded-full bg-white/20"
      >
        <div className="h-full rounded-full bg-emerald-400 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      {!compact && <p className="mt-1 text-xs text-slate-200">{text}</p>}
    </div>
  );
}

/** What the Downloads entry says when opened. */
export function BatchDownloadStatus() {
  const batch = BatchDownloadActorContext.useActorRef();
  const progress = useSelector(batch, selectProgress);
  const phase = useSelector(batch, selectPhase);
  if (phase === 'starting') return <>{BATCH_DOWNLOAD_TEXTS.startingText}</>;
  if (phase === 'saving') return <>{BATCH_DOWNLOAD_TEXTS.savingText}</>;
  return <>{progress ? BATCH_DOWNLOAD_TEXTS.progressText(progress.progress, progress.total) : BATCH_DOWNLOAD_TEXTS.noDownloads}</>;
}
