// /assets/pool-assets/:poolId (SPEC section 2): the pool's name as heading and its assets with
// the asset table kit (paging in the URL, selection) and the pool CSV; an unknown pool, or one
// of another organization, says so.
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { selectIsExporting } from '../../../../machines/csv-export';
import {
  poolAssetsMachine,
  selectHasFailed,
  selectIsLoading,
  selectIsNotFound,
  selectPageCount,
  selectPageSelection,
  selectPageSummary,
  selectPaging,
  selectPoolName,
  selectRows,
  selectReturnTo,
  selectSelectedIds,
  type PoolPaging,
} from '../../../../machines/pool-assets';
import type { LoanListItem } from '../../../contract/loans';
import { APP_PATHS } from '../../../domain/app-paths';
import { pageOffset, parseAssetListView } from '../../../domain/asset-table';
import { ASSET_TEXTS } from '../../../domain/texts';
import { useAppServices } from '../../app/services';
import { DataTable, type DataTableSelection } from '../../ui/data-table';
import { PageHeading } from '../../ui/page-heading';
import { Pagination } from '../../ui/pagination';
import { useAssetColumns } from './asset-column-visibility';
import { assetRowId } from './asset-columns';
import { useCsvExportActor } from './asset-csv';
import { CsvExportButton, LoadFailed, returnPathOf, SelectionBar } from './asset-table-parts';

/** Page and limit of the URL, read as the asset list reads them. */
const pagingOf = (search: string): PoolPaging => {
  const { page, limit } = parseAssetListView(search);
  return { page, limit };
};
const searchOf = ({ page, limit }: PoolPaging) => `?${new URLSearchParams({ page: String(page), limit: String(limit) }).toString()}`;

/** Remounts per pool: each pool is a new table. */
export function PoolAssetsScreen() {
  const { poolId = '' } = useParams();
  return <PoolAssets key={poolId} poolId={poolId} />;
}

function PoolAssets({ poolId }: { poolId: string }) {
  const { api } = useAppServices();
  const navigate = useNavigate();
  const location = useLocation();

  const tableLogic = useMemo(
    () =>
      poolAssetsMachine.provide({
        actors: {
          loadPage: fromPromise(({ input, signal }) =>
            api.pool(input.poolId, { limit: input.paging.limit, offset: pageOffset(input.paging.page, input.paging.limit) }, signal),
          ),
        },
        // The paging's URLs keep the pools view this page was opened from (a reload keeps the back link).
        actions: {
          showPaging: ({ context }, { paging, replace }) =>
            void navigate(
              { search: searchOf(paging) },
              { replace, state: context.returnTo === null ? undefined : { returnTo: context.returnTo } },
            ),
        },
      }),
    [api, navigate],
  );
  const table = useActorRef(tableLogic, {
    input: { poolId, ...pagingOf(location.search), returnTo: returnPathOf(location.state, [APP_PATHS.pools]) },
  });

  // The URL changed outside the table (back button, a link): the machine shows that page.
  useEffect(() => {
    table.send({ type: 'view.sync', paging: pagingOf(location.search) });
  }, [location.search, table]);

  const { columns, chooser } = useAssetColumns();
  const csv = useCsvExportActor();
  const exporting = useSelector(csv, selectIsExporting);

  const poolName = useSelector(table, selectPoolName);
  const paging = useSelector(table, selectPaging);
  const rows = useSelector(table, selectRows);
  const loading = useSelector(table, selectIsLoading);
  const failed = useSelector(table, selectHasFailed);
  const notFound = useSelector(table, selectIsNotFound);
  const summary = useSelector(table, selectPageSummary);
  const pageCount = useSelector(table, selectPageCount);
  const selectedIds = useSelector(table, selectSelectedIds);
  const pageSelection = useSelector(table, selectPageSelection);
  const backToPools = useSelector(table, selectReturnTo) ?? APP_PATHS.pools;
  // 'Clear selection' disappears with the selection: the focus goes to the header checkbox.
  const pageCheckbox = useRef<HTMLInputElement>(null);

  const selection = useMemo<DataTableSelection<LoanListItem>>(
    () => ({
      selectedIds,
      pageSelection,
      onToggleRow: (loanId) => table.send({ type: 'selection.toggle', loanId }),
      onTogglePage: () => table.send({ type: 'selection.togglePage' }),
      rowLabel: (loan) => ASSET_TEXTS.selectRow(loan.uli),
      pageLabel: ASSET_TEXTS.selectPage,
      pageCheckboxRef: pageCheckbox,
    }),
    [selectedIds, pageSelection, table],
  );

  if (notFound) {
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
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SelectionBar count={selectedIds.length} onClear={() => table.send({ type: 'selection.clear' })} focusAfterClear={pageCheckbox} />
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
        <LoadFailed message={ASSET_TEXTS.failed} onRetry={() => table.send({ type: 'list.retry' })} />
      ) : (
        <div>
          <DataTable
            label={poolName || ASSET_TEXTS.tableLabel}
            columns={columns}
            rows={rows}
            getRowId={assetRowId}
            loading={loading}
            pageSize={paging.limit}
            loadingMessage={ASSET_TEXTS.loading}
            emptyMessage={ASSET_TEXTS.poolEmpty}
            selection={selection}
          />
          <Pagination
            page={paging.page}
            pageCount={pageCount}
            limit={paging.limit}
            summary={summary}
            onPage={(page) => table.send({ type: 'page.go', page })}
            onPageSize={(limit) => table.send({ type: 'page.size', limit })}
          />
        </div>
      )}
    </div>
  );
}
