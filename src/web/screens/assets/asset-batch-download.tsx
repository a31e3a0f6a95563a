// 'Download assignments' on the asset table: starts the app-wide batch download (machines/
// batch-download.ts) for the selected rows, or with none selected for the whole filtered set, as
// the CSV export does. Its progress shows at the Downloads entry of the navigation.
import { useSelector } from '@xstate/react';
import { selectCanStart, selectIsBusy } from '../../../../machines/batch-download';
import type { StartJobBody } from '../../../contract/jobs';
import { dateFilterStart } from '../../../domain/date-filters';
import type { AssetListView } from '../../../domain/asset-table';
import { BATCH_DOWNLOAD_TEXTS } from '../../../domain/texts';
import { BatchDownloadActorContext } from '../../app/actor-contexts';
import { Icon } from '../../ui/icons';

/** POST v4 /jobs's body: the chosen loans, or the view's filters (its paging and sort do not matter). */
export function batchDownloadRequestOf(selectedIds: readonly string[], view: AssetListView, now: Date): StartJobBody {
  if (selectedIds.length > 0) return { type: 'BATCH_DOWNLOAD_AOMS', loanIds: [...selectedIds] };
  return {
    type: 'BATCH_DOWNLOAD_AOMS',
    filters: {
      ...(view.query ? { query: view.query } : {}),
      ...(view.dateFilter ? { oldestDateLastUpdated: dateFilterStart(view.dateFilter, now) } : {}),
      ...(view.roles.length > 0 ? { participantRoles: [...view.roles] } : {}),
    },
  };
}

/** Stays focusable while a job runs (aria-disabled): the machine ignores a click it cannot take. */
export function DownloadAssignmentsButton({ selectedIds, view }: { selectedIds: readonly string[]; view: AssetListView }) {
  const batch = BatchDownloadActorContext.useActorRef();
  const canStart = useSelector(batch, selectCanStart);
  const busy = useSelector(batch, selectIsBusy);
  return (
    <button
      type="button"
      aria-disabled={!canStart}
      aria-busy={busy}
      onClick={() => batch.send({ type: 'batch.start', request: batchDownloadRequestOf(selectedIds, view, new Date()) })}
      className="inline-flex h-10 items-center gap-2 rounded-md border border-brand-700 bg-white px-4 text-sm font-semibold text-brand-700 hover:bg-brand-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
    >
      <Icon name="downloads" className="h-4 w-4" />
      {BATCH_DOWNLOAD_TEXTS.downloadAssignments}
    </button>
  );
}
