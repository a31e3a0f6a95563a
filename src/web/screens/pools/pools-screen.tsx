// /assets/pools (SPEC sections 2 and 9): the tabs Assets and Pools, then the completed pools
// (name linking to the pool's assets, count, total amount, date completed), optionally only the
// last 30 days (one month), a page at a time. The range, page and limit live in the URL
// (?completed=last30Days&page=2&limit=20); each range gets its own pools-list actor, so links,
// reload and the back button show what the URL says.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { selectHasFailed } from '../../../../machines/paged-list';
import {
  parsePoolRange,
  parsePoolsView,
  POOL_RANGE_PARAM,
  poolsListInput,
  serializePoolsView,
  type PoolRange,
} from '../../../../machines/pools-list';
import type { Pool } from '../../../contract/pools';
import { APP_PATHS } from '../../../domain/app-paths';
import { DATE_FILTER_LABELS } from '../../../domain/date-filters';
import { formatCurrency, formatDate } from '../../../domain/format';
import { POOLS_TEXTS } from '../../../domain/asset-texts';
import { useAppServices } from '../../app/services';
import { createDataTableColumnHelper, ListDataTable, type DataTableColumn } from '../../ui/data-table';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { useListUrl } from '../../ui/use-list-url';
import { AssetListTabs } from '../assets/asset-list-tabs';
import { listReturnState, LoadFailed } from '../assets/asset-table-parts';
import { poolsListLogic } from './pools-actors';

const POOLS_URL = { parse: parsePoolsView, serialize: serializePoolsView };

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
      <PoolsList range={range} />
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
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => poolsListLogic(services), [services]);
  const list = useActorRef(logic, { input: poolsListInput(parsePoolsView(location.search)) });
  useListUrl(list, POOLS_URL);
  const failed = useSelector(list, selectHasFailed);
  if (failed) return <LoadFailed message={POOLS_TEXTS.failed} onRetry={() => list.send({ type: 'list.reload' })} />;
  // While loading, placeholder rows hold the table's height: nothing jumps when the pools arrive.
  return (
    <div>
      <ListDataTable
        list={list}
        label={POOLS_TEXTS.tableLabel}
        columns={poolColumns}
        getRowId={(pool) => pool.id}
        loadingMessage={POOLS_TEXTS.loading}
        emptyMessage={range === 'last30Days' ? POOLS_TEXTS.emptyLast30Days : POOLS_TEXTS.empty}
      />
      <ListPagination list={list} />
    </div>
  );
}
