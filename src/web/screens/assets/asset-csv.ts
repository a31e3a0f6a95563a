// The CSV calls behind the csv-export machine: the asset list's CSV (chosen loanIds plus the
// same filters, or the whole filtered set) and the pool-asset CSV (loanIds or poolDenomination).
import type { RegistryApi } from '../../../client/api';
import { loanFiltersOf } from '../../../domain/asset-table';
import type { CsvExportRequest, CsvFile } from '../../../../machines/csv-export';

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
