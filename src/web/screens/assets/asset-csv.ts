// The CSV calls behind the csv-export machine: the asset list's CSV (chosen loanIds plus the
// same filters, or the whole filtered set) and the pool-asset CSV (loanIds or poolDenomination).
import { useMemo } from 'react';
import { fromPromise, sendTo } from 'xstate';
import { csvExportMachine, type CsvExportRequest, type CsvFile } from '../../../../machines/csv-export';
import { toastShow } from '../../../../machines/toasts';
import type { RegistryApi } from '../../../client/api';
import { loanFiltersOf } from '../../../domain/asset-table';
import { ASSET_TEXTS } from '../../../domain/asset-texts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';

export const ASSETS_CSV_FILE = 'assets.csv';
export const POOL_ASSETS_CSV_FILE = 'pool-assets.csv';

/**
 * The chosen ids one CSV request carries at most. They travel in the query string (SPEC section 7),
 * 37 characters and a comma each: 150 make about 6 KB, inside the 8 KB request line that common
 * proxies allow and the server's 16 KB of headers. Selections persist across pages, so a few
 * hundred rows once overflowed it (431) and the export failed.
 */
export const CSV_IDS_PER_REQUEST = 150;

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * The CSV of `loanIds` through `fetchPart`, one request per CSV_IDS_PER_REQUEST ids, joined into
 * one file: the first part whole, the header row of the others left out. The rows come part after
 * part, each part in the list's order.
 */
export async function csvOfChosenIds(loanIds: readonly string[], fetchPart: (ids: readonly string[]) => Promise<Blob>): Promise<Blob> {
  if (loanIds.length <= CSV_IDS_PER_REQUEST) return fetchPart(loanIds);
  const parts: string[] = [];
  let type = '';
  for (let start = 0; start < loanIds.length; start += CSV_IDS_PER_REQUEST) {
    const part = await fetchPart(loanIds.slice(start, start + CSV_IDS_PER_REQUEST));
    type ||= part.type;
    // text() decodes UTF-8 and may drop the byte order mark: the file gets it once, in front.
    const text = (await part.text()).replace(/^\uFEFF/, '');
    parts.push(start === 0 ? BYTE_ORDER_MARK + text : text.slice(text.indexOf('\n') + 1));
  }
  return new Blob(parts, { type });
}

export async function downloadAssetCsv(api: RegistryApi, request: CsvExportRequest, now: Date, signal?: AbortSignal): Promise<CsvFile> {
  const { loanIds, scope } = request;
  if (scope.kind === 'pool') {
    const file =
      loanIds.length > 0
        ? await csvOfChosenIds(loanIds, (ids) => api.poolAssetsCsv({ loanIds: ids }, signal))
        : await api.poolAssetsCsv({ poolDenomination: scope.poolId }, signal);
    return { file, fileName: POOL_ASSETS_CSV_FILE };
  }
  const filters = loanFiltersOf(scope.view, now);
  const file =
    loanIds.length > 0
      ? await csvOfChosenIds(loanIds, (ids) => api.loansCsv({ ...filters, loanIds: ids }, signal))
      : await api.loansCsv(filters, signal);
  return { file, fileName: ASSETS_CSV_FILE };
}

/** The csv-export actor of an asset screen: downloads through the API, saves the file, toasts a failure (a child of the app root, so it reaches the toasts with `system.get`). */
export function useCsvExportActor() {
  const { api, download } = useAppServices();
  const logic = useMemo(
    () =>
      csvExportMachine.provide({
        actors: { downloadCsv: fromPromise(({ input, signal }) => downloadAssetCsv(api, input, new Date(), signal)) },
        actions: {
          saveFile: (_, { file, fileName }) => download(file, fileName),
          notifyFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', ASSET_TEXTS.csvFailed)),
        },
      }),
    [api, download],
  );
  return useScreenActor(logic);
}
