// The Assets tile's count: how many assets the current organization holds. One asset-count
// actor per organization (the dashboard keys this by the organization id), so a switch counts
// again and a late answer for the previous organization is aborted, never shown.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { type assetCountMachine, selectAssetCount } from '../../../../machines/asset-count';
import { ASSET_COUNT_TEXTS } from '../../../domain/texts';
import { useAppServices } from '../../app/services';
import { assetCountActors } from './dashboard-actors';

export type AssetCountRef = ActorRefFrom<typeof assetCountMachine>;

export function useAssetCount(): AssetCountRef {
  const services = useAppServices();
  const logic = useMemo(() => assetCountActors(services), [services]);
  return useActorRef(logic);
}

/** The count line inside the tile's link: one line high in every state (no layout shift). */
export function AssetCountText({ count }: { count: AssetCountRef }) {
  const loading = useSelector(count, (snapshot) => snapshot.hasTag('busy'));
  const failed = useSelector(count, (snapshot) => snapshot.matches('failed'));
  const total = useSelector(count, selectAssetCount);
  return (
    <span className="flex h-8 items-center text-2xl font-semibold text-slate-900" data-testid="asset-count">
      {loading && (
        <>
          <span aria-hidden="true" className="h-6 w-24 animate-pulse rounded bg-slate-200" />
          <span className="sr-only">{ASSET_COUNT_TEXTS.loading}</span>
        </>
      )}
      {failed && <span className="text-sm font-normal text-red-900">{ASSET_COUNT_TEXTS.failed}</span>}
      {total !== null && !loading && ASSET_COUNT_TEXTS.assets(total)}
    </span>
  );
}

/** Shown beside the tile (a button cannot sit inside its link) only when the count failed. */
export function AssetCountRetry({ count }: { count: AssetCountRef }) {
  const failed = useSelector(count, (snapshot) => snapshot.matches('failed'));
  if (!failed) return null;
  return (
    <button
      type="button"
      className="mt-2 rounded-md border border-brand-700 px-3 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50"
      onClick={() => count.send({ type: 'assetCount.retry' })}
    >
      {ASSET_COUNT_TEXTS.retry}
    </button>
  );
}
