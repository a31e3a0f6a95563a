// /assets/pools (SPEC sections 2 and 9): the tabs Assets and Pools, then the completed pools
// (name linking to the pool's assets, count, total amount, date completed), optionally only the
// last 30 days (one month), a page at a time. The range, page and limit live in the URL
// (?completed=last30Days&page=2&limit=20); each range gets its own pools-list actor, so links,
// reload and the back button show what the URL says.
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import {
  parsePoolRange,
  POOL_RANGE_PARAM,
  poolsListMachine,
  selectPageCount,
  selectPagePools,
  selectPageSummary,
  selectPaging,
  type PoolRange,
  type PoolsPaging,
} from '../../../../machines/pools-list';
import type { RegistryApi } from '../../../client/api';
import type { Pool } from '../../../contract/pools';
import { APP_PATHS } from '../../../domain/app-paths';
import { parseAssetListView, VIEW_PARAMS } from '../../../domain/asset-table';
import { DATE_FILTER_LABELS } from '../../../domain/date-filters';
import { formatCurrency, formatDate } from '../../../domain/format';
import { POOLS_TEXTS } from '../../../domain/texts';
import { useAppServices } from '../../app/services';
import { createDataTableColumnHelper, DataTable, type DataTableColumn } from '../../ui/data-table';
import { PageHeading } from '../../ui/page-heading';
import { Pagination } from '../../ui/pagination';
import { AssetListTabs } from '../assets/asset-list-tabs';
import { listReturnState, LoadFailed } from '../assets/asset-table-parts';

/** Page and limit of the URL, read as the asset list reads them. */
const pagingOf = (search: string): PoolsPaging => {
  const { page, limit } = parseAssetListView(search);
  return { page, limit };
};

/** The pools-list machine over the app's API; `showPaging` puts page and limit in the URL, keeping the range. */
export function providePoolsList(api: RegistryApi, showPaging: (paging: PoolsPaging, replace: boolean) => void) {
  return poolsListMachine.provide({
    actors: { loadPools: fromPromise(({ input, signal }) => api.listPools(input.query, signal)) },
    actions: { showPaging: (_, { paging, replace }) => showPaging(paging, replace) },
  });
}

const RANGES: ReadonlyArray<{ range: PoolRange; label: string; to: string }> = [
  { range: 'all', label: POOLS_TEXTS.allDates, to: APP_PATHS.pools },
  { range: 'last30Days', label: DATE_FILTER_LABELS.last30Days, to: `${APP_PATHS.pools}?${POOL_RANGE_PARAM}=last30Days` },
];

export function PoolsScreen() {
  const [searchParams] = useSearchParams();
  const range = parsePoolRange(searchParams.get(POOL_RANGE_PARAM));
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>{POOLS_TEXTS.title}</PageHeading>
      <AssetListTabs />
      <div role="group" aria-labelledby="pools-date-filter" className="flex flex-wrap items-center gap-3">
        <span id="pools-date-filter" className="text-sm font-medium text-slate-700">
          {POOLS_TEXTS.dateFilterLabel}
        </span>
        {RANGES.map((option) => (
          <Link
            key={option.range}
            to={option.to}
            aria-current={option.range === range ? 'true' : undefined}
            className={`rounded-full border px-3 py-1 text-sm font-medium ${
              option.range === range
                ? 'border-brand-700 bg-brand-700 text-white'
                : 'border-slate-300 bg-white text-slate-800 hover:border-brand-600'
            }`}
          >
            {option.label}
          </Link>
        ))}
      </div>
      <PoolsList key={range} range={range} />
    </div>
  );
}

const helper = createDataTableColumnHelper<Pool>();

/** The pool's name, leading to its assets; the link carries this pools view ('Back to pools' returns to it). */
function PoolLink({ pool }: { pool: Pool }) {
  const location = useLocation();
  return (
    <Link className="font-medium text-brand-700 underline" to={APP_PATHS.poolAssets(pool.id)} state={listReturnState(location)}>
      {pool.name}
    </Link>
  );
}

/** SPEC section 3's pool fields in SPEC section 9's formats; the name leads to the pool's assets. */
const poolColumns: readonly DataTableColumn<Pool>[] = [
  helper.accessor('name', {
    id: 'name',
    header: 'Name',
    size: 280,
    cell: ({ row }) => <PoolLink pool={row.original} />,
  }),
  helper.accessor('count', { id: 'count', header: 'Count', size: 120, cell: ({ getValue }) => getValue().toLocaleString('en-US') }),
  helper.accessor('totalAmount', {
    id: 'totalAmount',
    header: 'Total Amount',
    size: 180,
    cell: ({ getValue }) => formatCurrency(getValue()),
  }),
  helper.accessor('dateCompleted', {
    id: 'dateCompleted',
    header: 'Date Completed',
    size: 160,
    cell: ({ getValue }) => formatDate(getValue()) || '—',
  }),
];

function PoolsList({ range }: { range: PoolRange }) {
  const { api } = useAppServices();
  const navigate = useNavigate();
  const location = useLocation();
  const logic = useMemo(
    () =>
      providePoolsList(api, (paging, replace) => {
        const search = new URLSearchParams({ [VIEW_PARAMS.page]: String(paging.page), [VIEW_PARAMS.limit]: String(paging.limit) });
        if (range !== 'all') search.set(POOL_RANGE_PARAM, range);
        void navigate({ search: `?${search.toString()}` }, { replace });
      }),
    [api, navigate, range],
  );
  const pools = useActorRef(logic, { input: { range, ...pagingOf(location.search) } });

  // The URL changed outside the table (back button, a link): the machine shows that page.
  useEffect(() => {
    pools.send({ type: 'view.sync', paging: pagingOf(location.search) });
  }, [location.search, pools]);

  const loading = useSelector(pools, (snapshot) => snapshot.hasTag('busy'));
  const failed = useSelector(pools, (snapshot) => snapshot.matches('failed'));
  const rows = useSelector(pools, selectPagePools);
  const paging = useSelector(pools, selectPaging);
  const pageCount = useSelector(pools, selectPageCount);
  const summary = useSelector(pools, selectPageSummary);
  if (failed) return <LoadFailed message={POOLS_TEXTS.failed} onRetry={() => pools.send({ type: 'pools.retry' })} />;
  // While loading, placeholder rows hold the table's height: nothing jumps when the pools arrive.
  return (
    <div>
      <DataTable
        label={POOLS_TEXTS.tableLabel}
        columns={poolColumns}
        rows={rows}
        getRowId={(pool) => pool.id}
        loading={loading}
        pageSize={paging.limit}
        loadingMessage={POOLS_TEXTS.loading}
        emptyMessage={range === 'last30Days' ? POOLS_TEXTS.emptyLast30Days : POOLS_TEXTS.empty}
      />
      <Pagination
        page={paging.page}
        pageCount={pageCount}
        limit={paging.limit}
        summary={summary}
        onPage={(page) => pools.send({ type: 'page.go', page })}
        onPageSize={(limit) => pools.send({ type: 'page.size', limit })}
      />
    </div>
  );
}
