import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { HttpError } from '../../src/contract/http-error';
import type { Pool, PoolListQuery } from '../../src/contract/pools';
import { pagedListOf, selectListItems, selectListView, selectPageCount, selectPageSummary } from '../../machines/paged-list';
import {
  parsePoolRange,
  parsePoolsView,
  poolListQuery,
  poolsListInput,
  serializePoolsView,
  type PoolRange,
  type PoolsView,
} from '../../machines/pools-list';
import { samplePool } from '../support/loan-fixtures';

type Paging = { page: number; limit: 10 | 20 | 50 | 100 };

/** The list as the pools screen configures it: a whole list, loaded with the range's query. */
function start(range: PoolRange, load: (query: PoolListQuery) => Promise<readonly Pool[]>, paging: Paging = { page: 1, limit: 10 }) {
  const queries: PoolListQuery[] = [];
  const signals: AbortSignal[] = [];
  const shown: { paging: Paging; replace: boolean }[] = [];
  const logic = pagedListOf(async (view, signal) => {
    const query = poolListQuery((view as PoolsView).range, new Date());
    queries.push(query);
    signals.push(signal);
    const pools = await load(query);
    return { items: pools, totalCount: pools.length };
  });
  const actor = createActor(logic, { input: poolsListInput({ range, ...paging }) });
  actor.on('list.view', ({ view, replace }) => void shown.push({ paging: { page: view.page, limit: view.limit }, replace }));
  return { actor: actor.start(), queries, signals, shown };
}

const selectPools = (snapshot: Parameters<typeof selectListItems>[0]) => snapshot.context.items as readonly Pool[];
const selectPagePools = selectListItems<Pool>;
const selectPaging = (snapshot: Parameters<typeof selectListItems>[0]): Paging => {
  const { page, limit } = selectListView(snapshot);
  return { page, limit };
};

const manyPools = Array.from({ length: 25 }, (_, index) => samplePool(index + 1));
const names = (pools: readonly Pool[]) => pools.map((pool) => pool.name);

describe('list machine as a whole list (the pools)', () => {
  afterEach(() => vi.useRealTimers());

  it('asks for completed pools and shows them', async () => {
    const pools = [samplePool(1), samplePool(2)];
    const { actor, queries } = start('all', async () => pools);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('loaded'));
    expect(queries).toEqual([{ state: 'COMPLETE' }]);
    expect(selectPools(snapshot)).toEqual(pools);
    expect((selectListView(snapshot) as PoolsView).range).toBe('all');
  });

  it('last 30 days: the start of the local day one month ago, with its offset', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 31, 15, 30));
    const { actor, queries } = start('last30Days', async () => []);
    await waitFor(actor, (s) => s.matches('empty'));
    const completedAfter = queries[0]?.completedAfter as string;
    expect(queries[0]?.state).toBe('COMPLETE');
    // One month before March 31 is February 28 (not 30 days: March 1), at local midnight.
    expect(new Date(completedAfter).getTime()).toBe(new Date(2025, 1, 28, 0, 0, 0).getTime());
    expect(completedAfter).toMatch(/^2025-02-28T00:00:00([+-]\d{2}:\d{2}|Z)$/);
  });

  it('is empty when no pool matches, and fails and retries on an error', async () => {
    let attempts = 0;
    const { actor, signals } = start('all', async () => {
      attempts += 1;
      if (attempts === 1) throw new HttpError(500, 'Internal Server Error');
      return [];
    });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'list.reload' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('empty'));
    expect(selectPools(snapshot)).toEqual([]);
    expect(signals).toHaveLength(2);
  });

  it('reads the range from the URL value, anything else meaning all', () => {
    expect(parsePoolRange('last30Days')).toBe('last30Days');
    expect(parsePoolRange(null)).toBe('all');
    expect(parsePoolRange('forever')).toBe('all');
    expect(poolListQuery('all', new Date())).toEqual({ state: 'COMPLETE' });
    expect(parsePoolsView('?completed=last30Days&page=2')).toEqual({ page: 2, limit: 10, range: 'last30Days' });
    expect(serializePoolsView({ page: 2, limit: 20, range: 'last30Days' })).toBe('?page=2&limit=20&completed=last30Days');
  });

  it('aborts the request when the screen goes away', () => {
    const { actor, signals } = start('all', () => new Promise(() => undefined));
    actor.stop();
    expect(signals[0]?.aborted).toBe(true);
  });

  it('shows a page at a time (SPEC section 9): first, another page, another size; no call for any of it', async () => {
    const { actor, queries, shown } = start('all', async () => manyPools);
    let snapshot = await waitFor(actor, (s) => s.matches('loaded'));
    expect(names(selectPagePools(snapshot))).toEqual(names(manyPools.slice(0, 10)));
    expect(selectPageCount(snapshot)).toBe(3);
    expect(selectPageSummary(snapshot)).toBe('Page 1 of 3. Items 1 through 10');
    actor.send({ type: 'page.go', page: 3 });
    snapshot = actor.getSnapshot();
    expect(names(selectPagePools(snapshot))).toEqual(names(manyPools.slice(20)));
    expect(selectPageSummary(snapshot)).toBe('Page 3 of 3. Items 21 through 25');
    // Past the last page: the last one, and no new entry when it is already shown.
    actor.send({ type: 'page.go', page: 9 });
    expect(selectPaging(actor.getSnapshot())).toEqual({ page: 3, limit: 10 });
    actor.send({ type: 'page.size', limit: 20 });
    snapshot = actor.getSnapshot();
    expect(selectPaging(snapshot)).toEqual({ page: 1, limit: 20 });
    expect(selectPagePools(snapshot)).toHaveLength(20);
    expect(shown).toEqual([
      { paging: { page: 3, limit: 10 }, replace: false },
      { paging: { page: 1, limit: 20 }, replace: false },
    ]);
    expect(queries).toHaveLength(1);
  });

  it("clamps the URL's page to the page count, replacing the URL, on load and on a sync", async () => {
    const { actor, shown } = start('all', async () => manyPools, { page: 7, limit: 10 });
    await waitFor(actor, (s) => s.matches('loaded'));
    expect(selectPaging(actor.getSnapshot())).toEqual({ page: 3, limit: 10 });
    expect(shown).toEqual([{ paging: { page: 3, limit: 10 }, replace: true }]);
    // The back button to page 2, then a link to page 5 of 20 a page (past the last, 2).
    actor.send({ type: 'view.sync', view: { page: 2, limit: 10, range: 'all' } as PoolsView });
    expect(selectPaging(actor.getSnapshot())).toEqual({ page: 2, limit: 10 });
    actor.send({ type: 'view.sync', view: { page: 5, limit: 20, range: 'all' } as PoolsView });
    expect(selectPaging(actor.getSnapshot())).toEqual({ page: 2, limit: 20 });
    expect(shown.at(-1)).toEqual({ paging: { page: 2, limit: 20 }, replace: true });
    expect(shown).toHaveLength(2);
  });

  it('takes the URL paging as it is while the pools load', async () => {
    let answer: (pools: readonly Pool[]) => void = () => undefined;
    const { actor } = start('all', () => new Promise((resolve) => (answer = resolve)));
    actor.send({ type: 'view.sync', view: { page: 2, limit: 10, range: 'all' } as PoolsView });
    expect(selectPaging(actor.getSnapshot())).toEqual({ page: 2, limit: 10 });
    answer(manyPools);
    const snapshot = await waitFor(actor, (s) => s.matches('loaded'));
    expect(names(selectPagePools(snapshot))).toEqual(names(manyPools.slice(10, 20)));
  });
});
