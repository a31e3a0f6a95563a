// /assets/pool-assets/:poolId (SPEC section 2): the pool's name as heading and its assets with
// the asset table kit (paging in the URL, selection) and the pool CSV; an unknown pool, or one
// of another organization, says so.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, useRef } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { selectIsExporting } from '../../../../machines/csv-export';
import { selectHasFailed, selectSelectedIds, type PagedListRef } from '../../../../machines/paged-list';
import {
  parsePagingView,
  selectIsNotFound,
  selectList,
  selectPoolName,
  selectReturnTo,
  serializePagingView,
} from '../../../../machines/pool-assets';
import type { LoanListItem } from '../../../contract/loans';
import { APP_PATHS } from '../../../domain/app-paths';
import { ASSET_TEXTS } from '../../../domain/asset-texts';
import { useAppServices } from '../../app/services';
import { ListDataTable, type ListDataTableProps } from '../../ui/data-table';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { useListUrl } from '../../ui/use-list-url';
import { useAssetColumns } from './asset-column-visibility';
import { assetRowId } from './asset-columns';
import { useCsvExportActor } from './asset-csv';
import { CsvExportButton, LoadFailed, returnPathOf, SelectionBar } from './asset-table-parts';
import { poolAssetsLogic } from './pool-assets-actors';

const PAGING_URL = { parse: parsePagingView, serialize: serializePagingView };

/** Remounts per pool: each pool is a new table. */
export function PoolAssetsScreen() {
  const { poolId = '' } = useParams();
  return <PoolAssets key={poolId} poolId={poolId} />;
}

function PoolAssets({ poolId }: { poolId: string }) {
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => poolAssetsLogic(services, poolId), [services, poolId]);
  const pool = useActorRef(logic, {
    input: { view: parsePagingView(location.search), returnTo: returnPathOf(location.state, [APP_PATHS.pools]) },
  });
  const list = useSelector(pool, selectList);
  const poolName = useSelector(pool, selectPoolName);
  const notFound = useSelector(pool, selectIsNotFound);
  const returnTo = useSelector(pool, selectReturnTo);
  const backToPools = returnTo ?? APP_PATHS.pools;
  // The paging's URLs keep the pools view this page was opened from (a reload keeps the back link).
  useListUrl(list, PAGING_URL, { fillEmptyUrl: true, state: returnTo === null ? undefined : { returnTo } });

  if (notFound || !list) {
    return (
      <div className="flex flex-col items-start gap-4">
        <PageHeading>{ASSET_TEXTS.poolNotFoundTitle}</PageHeading>
        <p className="text-slate-600">{ASSET_TEXTS.poolNotFoundBody}</p>
        <Link className="font-medium text-brand-700 underline" to={backToPools}>
          {ASSET_TEXTS.backToPools}
        </Link>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-1">
        <Link className="text-sm font-medium text-brand-700 underline" to={backToPools}>
          {ASSET_TEXTS.backToPools}
        </Link>
        {/* The heading exists from the first render (focus moves to it); the name fills it when it arrives. */}
        <PageHeading>{poolName || ASSET_TEXTS.poolLoading}</PageHeading>
      </div>
      <PoolAssetsList list={list} poolId={poolId} label={poolName || ASSET_TEXTS.tableLabel} />
    </div>
  );
}

function PoolAssetsList({ list, poolId, label }: { list: PagedListRef; poolId: string; label: string }) {
  const { columns, chooser } = useAssetColumns();
  const csv = useCsvExportActor();
  const exporting = useSelector(csv, selectIsExporting);
  const failed = useSelector(list, selectHasFailed);
  const selectedIds = useSelector(list, selectSelectedIds);
  // 'Clear selection' disappears with the selection: the focus goes to the header checkbox.
  const pageCheckbox = useRef<HTMLInputElement>(null);
  const selectable = useMemo<ListDataTableProps<LoanListItem>['selectable']>(
    () => ({ rowLabel: (loan) => ASSET_TEXTS.selectRow(loan.uli), pageLabel: ASSET_TEXTS.selectPage, pageCheckboxRef: pageCheckbox }),
    [],
  );
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SelectionBar count={selectedIds.length} onClear={() => list.send({ type: 'selection.clear' })} focusAfterClear={pageCheckbox} />
        <div className="flex flex-wrap items-center gap-3">
          {chooser}
          <CsvExportButton
            selectedCount={selectedIds.length}
            exporting={exporting}
            onExport={() => csv.send({ type: 'csv.export', request: { loanIds: selectedIds, scope: { kind: 'pool', poolId } } })}
          />
        </div>
      </div>
      {failed ? (
        <LoadFailed message={ASSET_TEXTS.failed} onRetry={() => list.send({ type: 'list.reload' })} />
      ) : (
        <div>
          <ListDataTable
            list={list}
            label={label}
            columns={columns}
            getRowId={assetRowId}
            loadingMessage={ASSET_TEXTS.loading}
            emptyMessage={ASSET_TEXTS.poolEmpty}
            selectable={selectable}
          />
          <ListPagination list={list} />
        </div>
      )}
    </>
  );
}
