// The app-wide batch download of assignment documents (machines/batch-download.ts, an actor of
// the root's system that follows the organization itself), shown as a progress bar at the
// Downloads entry of the navigation on every screen.
import { useSelector } from '@xstate/react';
import { selectPhase, selectProgress } from '../../../machines/batch-download';
import { BATCH_DOWNLOAD_TEXTS } from '../../domain/texts';
import { BatchDownloadActorContext } from './actor-contexts';

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
