// The CSV calls behind the csv-export machine: the asset list's CSV (chosen loanIds plus the
// same filters, or the whole filtered set) and the pool-asset CSV (loanIds or poolDenomination).
import { useActorRef } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { csvExportMachine, type CsvExportRequest, type CsvFile } from '../../../../machines/csv-export';
import type { RegistryApi } from '../../../client/api';
import { loanFiltersOf } from '../../../domain/asset-table';
import { ASSET_TEXTS } from '../../../domain/texts';
import { ToastsActorContext } from '../../app/actor-contexts';
import { useAppServices } from '../../app/services';

export const ASSETS_CSV_FILE = 'assets.csv';
export const POOL_ASSETS_CSV_FILE = 'pool-assets.csv';

export async function downloadAssetCsv(api: RegistryApi, request: CsvExportRequest, now: Date, signal?: AbortSignal): Promise<CsvFile> {
  const { loanIds, scope } = request;
  const ids = loanIds.length > 0 ? { loanIds } : {};
  if (scope.kind === 'pool') {
    const file = await api.poolAssetsCsv(loanIds.length > 0 ? { loanIds } : { poolDenomination: scope.poolId }, signal);
    return { file, fileName: POOL_ASSETS_CSV_FILE };
  }
  const file = await api.loansCsv({ ...loanFiltersOf(scope.view, now), ...ids }, signal);
  return { file, fileName: ASSETS_CSV_FILE };
}

/** The csv-export actor of an asset screen: downloads through the API, saves the file, toasts a failure. */
export function useCsvExportActor() {
  const { api, download } = useAppServices();
  const toasts = ToastsActorContext.useActorRef();
  const logic = useMemo(
    () =>
      csvExportMachine.provide({
        actors: { downloadCsv: fromPromise(({ input, signal }) => downloadAssetCsv(api, input, new Date(), signal)) },
        actions: {
          saveFile: (_, { file, fileName }) => download(file, fileName),
          // Sent after this transition: one actor's action must not run another's step.
          notifyFailed: () => queueMicrotask(() => toasts.send({ type: 'toast.show', variant: 'error', message: ASSET_TEXTS.csvFailed })),
        },
      }),
    [api, download, toasts],
  );
  return useActorRef(logic);
}
