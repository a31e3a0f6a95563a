// Pieces both asset table screens share: the selection bar, the CSV export button (with its
// progress state), the failed-load message with its retry, and the way back to a list view.
import type { RefObject } from 'react';
import type { Location } from 'react-router-dom';
import { APP_PATHS } from '../../../domain/app-paths';
import { TEXTS } from '../../../domain/texts';
import { ASSET_TEXTS } from '../../../domain/asset-texts';
import { Icon } from '../../ui/icons';

/**
 * Router location state of a page opened from a list (an asset from the asset tables, a pool's
 * assets from the pools): the list view it was opened from, page, filters and all, so that the
 * page's back link returns there (as the browser's Back button does).
 */
export interface ListReturnState {
  readonly returnTo: string;
}

/** The state a link from the list at `location` passes on. */
export const listReturnState = (location: Pick<Location, 'pathname' | 'search'>): ListReturnState => ({
  returnTo: `${location.pathname}${location.search}`,
});

/** The list views an asset may be opened from, and a back link return to: the assets and a pool's assets. */
export const ASSET_LIST_VIEWS: readonly string[] = [APP_PATHS.assets, APP_PATHS.poolAssets('')];

/**
 * Where a back link goes: the list view in the location state when it is one of `lists` (paths,
 * or path prefixes ending in '/'), else null (the caller's default list). Other state is ignored.
 */
export function returnPathOf(state: unknown, lists: readonly string[]): string | null {
  if (typeof state !== 'object' || state === null || !('returnTo' in state)) return null;
  const { returnTo } = state;
  if (typeof returnTo !== 'string') return null;
  const pathname = returnTo.split(/[?#]/, 1)[0] ?? '';
  const known = lists.some((list) => (list.endsWith('/') ? pathname.startsWith(list) && pathname.length > list.length : pathname === list));
  return known ? returnTo : null;
}

export function SelectionBar({
  count,
  onClear,
  focusAfterClear,
}: {
  count: number;
  onClear: () => void;
  /** Takes the focus when 'Clear selection' (which disappears with the selection) is used. */
  focusAfterClear: RefObject<HTMLElement | null>;
}) {
  const clear = () => {
    onClear();
    focusAfterClear.current?.focus();
  };
  return (
    // Out of the flow while empty (a live region all the same): a wrapped toolbar (phones) keeps no blank row.
    <p className="flex min-h-9 items-center gap-3 text-sm text-slate-700 empty:sr-only" aria-live="polite">
      {count > 0 && (
        <>
          <span>{ASSET_TEXTS.selectedCount(count)}</span>
          <button type="button" className="font-medium text-brand-700 underline" onClick={clear}>
            {ASSET_TEXTS.clearSelection}
          </button>
        </>
      )}
    </p>
  );
}

/** Stays enabled while busy (focus never drops); the csv-export machine ignores a second click. */
export function CsvExportButton({
  selectedCount,
  exporting,
  onExport,
}: {
  selectedCount: number;
  exporting: boolean;
  onExport: () => void;
}) {
  return (
    <div className="flex items-center gap-3">
      {/* Out of the flow while empty (still read by screen readers): no gap before the button when the toolbar wraps. */}
      <p role="status" className="text-sm text-slate-600 empty:sr-only">
        {exporting ? ASSET_TEXTS.exportingCsv : ''}
      </p>
      <button
        type="button"
        aria-busy={exporting}
        onClick={onExport}
        className="inline-flex h-10 items-center gap-2 rounded-md bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-900 aria-busy:opacity-70"
      >
        {exporting ? (
          <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-white border-t-transparent" />
        ) : (
          <Icon name="downloads" className="h-4 w-4" />
        )}
        {selectedCount > 0 ? ASSET_TEXTS.exportSelectedCsv(selectedCount) : ASSET_TEXTS.exportCsv}
      </button>
    </div>
  );
}

export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-8 text-center text-red-900">
      <p>{message}</p>
      <button type="button" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white" onClick={onRetry}>
        {TEXTS.tryAgain}
      </button>
    </div>
  );
}
