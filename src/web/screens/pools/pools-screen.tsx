// /assets/pools (SPEC sections 2 and 9): the tabs Assets and Pools, then the completed pools
// (name linking to the pool's assets, count, total amount, date completed), optionally only the
// last 30 days (one month). The range lives in the URL (?completed=last30Days); each range gets
// its own pools-list actor, so links, reload and the back button show what the URL says.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { parsePoolRange, POOL_RANGE_PARAM, poolsListMachine, selectPools, type PoolRange } from '../../../../machines/pools-list';
import type { RegistryApi } from '../../../client/api';
import { APP_PATHS } from '../../../domain/app-paths';
import { DATE_FILTER_LABELS } from '../../../domain/date-filters';
import { formatCurrency, formatDate } from '../../../domain/format';
import { POOLS_TEXTS, TEXTS } from '../../../domain/texts';
import { useAppServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { StatusMessage } from '../../ui/status-message';
import { AssetListTabs } from '../assets/asset-list-tabs';

/** The pools-list machine over the app's API. */
export function providePoolsList(api: RegistryApi) {
  return poolsListMachine.provide({
    actors: { loadPools: fromPromise(({ input, signal }) => api.listPools(input.query, signal)) },
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
        <span id="pools-date-filter" className="text-sm font-medium text-slate-700">{POOLS_TEXTS.dateFilterLabel}</span>
        {RANGES.map((option) => (
          <Link
            key={option.range}
            to={option.to}
            aria-current={option.range === range ? 'true' : undefined}
            className={`rounded-full border px-3 py-1 text-sm font-medium ${
              option.range === range ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 bg-white text-slate-800 hover:border-brand-600'
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

function PoolsList({ range }: { range: PoolRange }) {
  const { api } = useAppServices();
  const logic = useMemo(() => providePoolsList(api), [api]);
  const pools = useActorRef(logic, { input: { range } });
  const loading = useSelector(pools, (snapshot) => snapshot.hasTag('busy'));
  const loaded = useSelector(pools, (snapshot) => snapshot.matches('loaded'));
  const empty = useSelector(pools, (snapshot) => snapshot.matches('empty'));
  const failed = useSelector(pools, (snapshot) => snapshot.matches('failed'));
  return (
    // The same minimum height in every state: nothing jumps when the pools arrive.
    <div className="min-h-64">
      {loading && <StatusMessage>{POOLS_TEXTS.loading}</StatusMessage>}
      {empty && <p className="p-8 text-center text-slate-600">{range === 'last30Days' ? POOLS_TEXTS.emptyLast30Days : POOLS_TEXTS.empty}</p>}
      {failed && (
        <div className="flex flex-col items-center gap-4 p-8">
          <p role="alert" className="text-red-900">{POOLS_TEXTS.failed}</p>
          <button type="button" className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-600"
            onClick={() => pools.send({ type: 'pools.retry' })}>
            {TEXTS.tryAgain}
          </button>
        </div>
      )}
      {loaded && <PoolsTable pools={pools} />}
    </div>
  );
}

function PoolsTable({ pools }: { pools: ActorRefFrom<typeof poolsListMachine> }) {
  const rows = useSelector(pools, selectPools);
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full text-left text-sm">
        <caption className="sr-only">{POOLS_TEXTS.tableLabel}</caption>
        <thead className="bg-slate-50 text-xs tracking-wide text-slate-700 uppercase">
          <tr>
            <th scope="col" className="px-4 py-2">Name</th>
            <th scope="col" className="px-4 py-2 text-right">Count</th>
            <th scope="col" className="px-4 py-2 text-right">Total amount</th>
            <th scope="col" className="px-4 py-2">Date completed</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {rows.map((pool) => (
            <tr key={pool.id}>
              <th scope="row" className="px-4 py-3 font-medium">
                <Link className="text-brand-700 underline" to={APP_PATHS.poolAssets(pool.id)}>{pool.name}</Link>
              </th>
              <td className="px-4 py-3 text-right tabular-nums">{pool.count.toLocaleString('en-US')}</td>
              <td className="px-4 py-3 text-right tabular-nums">{formatCurrency(pool.totalAmount)}</td>
              <td className="px-4 py-3 whitespace-nowrap">{formatDate(pool.dateCompleted)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
