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
        notifyStartFailed: (_, { message }) => toast('error', message),
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

/**
 * The running job's progress: one bar and one line of text (zipping n of total, or saving the zip).
 * The text is the bar's `aria-valuetext` too; in the compact rail it is the bar's tooltip only.
 */
function ProgressBar({ progress, total, text, caption }: { progress: number; total: number; text: string; caption: boolean }) {
  const percent = total > 0 ? Math.round((progress / total) * 100) : 0;
  return (
    <>
      <div
        role="progressbar"
        aria-label={BATCH_DOWNLOAD_TEXTS.progressLabel}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={progress}
        aria-valuetext={text}
        title={caption ? undefined : text}
        className="h-2 w-full overflow-hidden rounded-full bg-white/20"
      >
        <div className="h-full rounded-full bg-emerald-400 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      {caption && <p className="mt-1 text-xs text-slate-200">{text}</p>}
    </>
  );
}

function useRunningProgress(): { progress: number; total: number; text: string } | null {
  const batch = BatchDownloadActorContext.useActorRef();
  const progress = useSelector(batch, selectProgress);
  const phase = useSelector(batch, selectPhase);
  if (!progress) return null;
  const text = phase === 'saving' ? BATCH_DOWNLOAD_TEXTS.savingText : BATCH_DOWNLOAD_TEXTS.progressText(progress.progress, progress.total);
  return { ...progress, text };
}

/**
 * The running job's progress under the Downloads entry while its panel is closed (nothing when
 * no job runs). In the compact rail: the bar alone, its text in the tooltip and accessible value.
 */
export function BatchDownloadProgress({ compact }: { compact: boolean }) {
  const shown = useRunningProgress();
  if (!shown) return null;
  return (
    <div className={compact ? 'px-2 pb-2' : 'pr-3 pb-2 pl-11'}>
      <ProgressBar {...shown} caption={!compact} />
    </div>
  );
}

/** What the Downloads entry's panel says: the running job's progress (in place of the bar under the entry), or the phase. */
export function BatchDownloadStatus() {
  const shown = useRunningProgress();
  const batch = BatchDownloadActorContext.useActorRef();
  const phase = useSelector(batch, selectPhase);
  if (shown) return <ProgressBar {...shown} caption />;
  if (phase === 'starting') return <p>{BATCH_DOWNLOAD_TEXTS.startingText}</p>;
  if (phase === 'saving') return <p>{BATCH_DOWNLOAD_TEXTS.savingText}</p>;
  return <p>{BATCH_DOWNLOAD_TEXTS.noDownloads}</p>;
}
