// @vitest-environment jsdom
// Model-based test of the shared list machine (machines/paged-list.ts) through the signed-in app:
// as a whole list, every transition is walked on /assets/pools over a fake API whose pools call
// the test settles; as a list paged on the server, on /assets/pool-assets/:poolId.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpError } from '../../src/contract/http-error';
import type { PoolListQuery } from '../../src/contract/pools';
import { APP_PATHS } from '../../src/domain/app-paths';
import { PAGINATION_TEXTS, TEXTS } from '../../src/domain/texts';
import { ASSET_TEXTS, POOLS_TEXTS } from '../../src/domain/asset-texts';
import { pagedListMachine, selectListItems, selectPageSummary, type ListPage, type PagedListEvent } from '../../machines/paged-list';
import type { PoolsView } from '../../machines/pools-list';
import type { Pool } from '../../src/contract/pools';
import { createModelWalker } from '../machines/support/model-coverage';
import { pool25, pools, serverWalk, sortWalk, walk } from '../machines/walks/paged-list';
import { samplePoolDetail } from '../support/loan-list-fixtures';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';
import { samplePoolId } from '../support/loan-list-fixtures';
import { serializeAssetListView, type AssetListView } from '../../src/domain/asset-table';
import type { PoolAssetsPage } from '../../machines/pool-assets';
import type { LoanListItem, LoanListQuery } from '../../src/contract/loans';
import { assetTable, dataRows, openAssetScreen, pageSummaryText } from './support/assets-screen';

const walker = createModelWalker(pagedListMachine, walk);

const user = userEvent.setup();
const errorOf = (event: unknown) => (event as { error: HttpError }).error;
const outputOf = (event: unknown) => (event as { output: unknown }).output;
const rangeLinks = () => within(screen.getByRole('group', { name: POOLS_TEXTS.dateFilterLabel }));

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/pools/pools-screen')]);
});

async function openPools(path: string = APP_PATHS.pools) {
  const app = await renderSignedIn([sampleOrganization(1, true)]);
  const calls = deferProductCalls(app.fake.api, ['listPools']);
  await act(() => app.router.navigate(path));
  return { app, calls };
}

function expectTabsAndHeading() {
  expect(screen.getByRole('heading', { level: 1, name: POOLS_TEXTS.title })).toBeInTheDocument();
  const tabs = within(screen.getByRole('navigation', { name: ASSET_TEXTS.assetListsNavigation }));
  expect(tabs.getByRole('link', { name: ASSET_TEXTS.poolsTab })).toHaveAttribute('aria-current', 'page');
  expect(tabs.getByRole('link', { name: ASSET_TEXTS.assetsTab })).not.toHaveAttribute('aria-current');
}

describe('list machine as a whole list, driven through the pools screen', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openPools();
      await path.test({
        states: {
          loading: async () => {
            expect(await screen.findByText(POOLS_TEXTS.loading)).toBeInTheDocument();
            expectTabsAndHeading();
            // Placeholder rows hold the table's place while it loads.
            expect(screen.getByRole('table', { name: POOLS_TEXTS.tableLabel })).toHaveAttribute('aria-busy', 'true');
          },
          loaded: async (snapshot) => {
            const table = await screen.findByRole('table', { name: POOLS_TEXTS.tableLabel });
            const shown = selectListItems<Pool>(snapshot);
            await waitFor(() => expect(within(table).getAllByRole('row').slice(1)).toHaveLength(shown.length));
            const rows = within(table).getAllByRole('row').slice(1);
            expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual(shown.map((pool) => pool.name));
            expect(screen.getByText(selectPageSummary(snapshot))).toBeInTheDocument();
            const { page, limit, range } = snapshot.context.view as PoolsView;
            if (range !== 'all') return expect(app.location().search).toBe('?completed=last30Days');
            if (page !== 1 || limit !== 10) expect(app.location().search).toBe(`?page=${page}&limit=${limit}`);
            if (page !== 1) return;
            const first = within(rows[0] as HTMLElement);
            expect(first.getByRole('link', { name: 'Harbor 2025-1' })).toHaveAttribute('href', APP_PATHS.poolAssets(pools[0]?.id ?? ''));
            expect(first.getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
              'Harbor 2025-1',
              '1,200',
              '$98,765,433',
              '02-14-2025',
            ]);
            expect(table).toHaveAttribute('aria-busy', 'false');
            expect(screen.queryByText(POOLS_TEXTS.loading)).not.toBeInTheDocument();
          },
          empty: async (snapshot) => {
            const { range } = snapshot.context.view as PoolsView;
            expect(await screen.findByText(range === 'all' ? POOLS_TEXTS.empty : POOLS_TEXTS.emptyLast30Days)).toBeInTheDocument();
            expect(screen.queryByRole('link', { name: 'Harbor 2025-1' })).not.toBeInTheDocument();
          },
          failed: async () => {
            expect(await screen.findByRole('alert')).toHaveTextContent(POOLS_TEXTS.failed);
            expect(screen.getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
          },
        },
        events: {
          'done: loadPage': ({ event }) => calls.settle('listPools', { value: (outputOf(event) as ListPage).items }),
          'error: loadPage': ({ event }) => calls.settle('listPools', { error: errorOf(event) }),
          'list.reload': () => user.click(screen.getByRole('button', { name: TEXTS.tryAgain })),
          'page.go': async ({ event }) => {
            const field = screen.getByRole('spinbutton', { name: PAGINATION_TEXTS.pageNumber });
            await user.clear(field);
            await user.type(field, `${(event as Extract<PagedListEvent, { type: 'page.go' }>).page}{Enter}`);
          },
          'page.size': ({ event }) =>
            user.selectOptions(
              screen.getByRole('combobox', { name: PAGINATION_TEXTS.pageSize }),
              String((event as Extract<PagedListEvent, { type: 'page.size' }>).limit),
            ),
          'view.sync': ({ event }) => {
            const { page, limit, range } = (event as Extract<PagedListEvent, { type: 'view.sync' }>).view as PoolsView;
            if (range !== 'all') return user.click(rangeLinks().getByRole('link', { name: 'Last 30 days' }));
            return act(() => app.router.navigate(`${APP_PATHS.pools}?page=${page}&limit=${limit}`));
          },
        },
      });
      expect(calls.calls('listPools').every(([query]) => (query as PoolListQuery).state === 'COMPLETE')).toBe(true);
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});

describe('pools screen', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('the last-30-days filter asks for pools completed since the start of the local day one month ago; back shows all again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 2, 31, 9, 0));
    const { app, calls } = await openPools();
    await calls.settle('listPools', { value: pools });
    await screen.findByRole('table', { name: POOLS_TEXTS.tableLabel });
    expect(rangeLinks().getByRole('link', { name: POOLS_TEXTS.allDates })).toHaveAttribute('aria-current', 'true');

    await user.click(rangeLinks().getByRole('link', { name: 'Last 30 days' }));
    expect(app.location().search).toBe('?completed=last30Days');
    await waitFor(() => expect(rangeLinks().getByRole('link', { name: 'Last 30 days' })).toHaveAttribute('aria-current', 'true'));
    expect(await screen.findByText(POOLS_TEXTS.loading)).toBeInTheDocument();
    const query = calls.calls('listPools')[1]?.[0] as PoolListQuery;
    expect(query.state).toBe('COMPLETE');
    expect(new Date(query.completedAfter as string).getTime()).toBe(new Date(2025, 1, 28).getTime());
    await calls.settle('listPools', { value: [] });
    expect(await screen.findByText(POOLS_TEXTS.emptyLast30Days)).toBeInTheDocument();

    await act(() => app.router.navigate(-1));
    expect(app.location().search).toBe('');
    await calls.settle('listPools', { value: pools });
    expect(await screen.findByRole('table', { name: POOLS_TEXTS.tableLabel })).toBeInTheDocument();
    expect(calls.calls('listPools').map(([q]) => (q as PoolListQuery).completedAfter)).toEqual([
      undefined,
      query.completedAfter,
      undefined,
    ]);
  });

  it('opens a deep link with the filter on, and a pool name leads to its assets', async () => {
    const { app, calls } = await openPools(`${APP_PATHS.pools}?completed=last30Days`);
    await calls.settle('listPools', { value: pools });
    expect((calls.calls('listPools')[0]?.[0] as PoolListQuery).completedAfter).toMatch(/T00:00:00([+-]\d{2}:\d{2}|Z)$/);
    await user.click(await screen.findByRole('link', { name: 'Harbor 2025-1' }));
    // The pool's assets are a lazy route: the location changes once its screen has loaded.
    await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.poolAssets(pools[0]?.id ?? '')));
  });

  it("'Back to pools' returns to the pools view the pool was opened from, after paging through the pool too", async () => {
    await import('../../src/web/screens/assets/pool-assets-screen');
    const { app, calls } = await openPools(`${APP_PATHS.pools}?completed=last30Days`);
    const poolCalls = deferProductCalls(app.fake.api, ['pool']);
    await calls.settle('listPools', { value: pools });
    await user.click(await screen.findByRole('link', { name: 'Harbor 2025-1' }));
    await poolCalls.settle('pool', { value: samplePoolDetail(0, 10, 25, 'Harbor 2025-1') });
    await user.click(await screen.findByRole('button', { name: PAGINATION_TEXTS.next }));
    await waitFor(() => expect(app.location().search).toBe('?page=2&limit=10'));
    await poolCalls.settle('pool', { value: samplePoolDetail(10, 10, 25, 'Harbor 2025-1') });
    await user.click(await screen.findByRole('link', { name: ASSET_TEXTS.backToPools }));
    await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.pools));
    expect(app.location().search).toBe('?completed=last30Days');
  });

  it("'Back to pools' goes to the default pools list when the pool was not opened from it", async () => {
    await import('../../src/web/screens/assets/pool-assets-screen');
    const { app } = await openPools(APP_PATHS.poolAssets(pools[0]?.id ?? ''));
    const back = await screen.findByRole('link', { name: ASSET_TEXTS.backToPools });
    await user.click(back);
    await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.pools));
    expect(app.location().search).toBe('');
  });
});

const serverWalker = createModelWalker(pagedListMachine, serverWalk);

const poolPath = APP_PATHS.poolAssets(samplePoolId);

describe('list machine paged on the server, driven through /assets/pool-assets/:poolId', () => {
  beforeAll(async () => {
    await import('../../src/web/screens/assets/pool-assets-screen');
  });
  afterEach(cleanup);

  for (const path of serverWalker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openAssetScreen(poolPath);
      await path.test({
        states: {
          loading: async ({ context }) => {
            await waitFor(() => expect(assetTable()).toHaveAttribute('aria-busy', 'true'));
            expect(dataRows()).toHaveLength(context.items.length);
          },
          loaded: async (snapshot) => {
            const { view, selectedIds } = snapshot.context;
            const items = snapshot.context.items as readonly LoanListItem[];
            await waitFor(() => expect(assetTable()).toHaveAttribute('aria-busy', 'false'));
            expect(screen.getByRole('heading', { level: 1, name: pool25.pool.name })).toBeInTheDocument();
            expect(app.location().search).toBe(`?page=${view.page}&limit=${view.limit}`);
            expect(pageSummaryText()).toBe(selectPageSummary(snapshot));
            expect(calls.calls('pool').at(-1)).toEqual([
              samplePoolId,
              { limit: view.limit, offset: (view.page - 1) * view.limit },
              expect.anything(),
            ]);
            expect(dataRows()).toHaveLength(items.length);
            const checked = within(assetTable())
              .queryAllByRole('checkbox', { name: /^Select asset / })
              .filter((box) => (box as HTMLInputElement).checked);
            expect(checked).toHaveLength(items.filter((row) => selectedIds.includes(row.loanId)).length);
            // Pools are not sorted: headers are plain.
            expect(screen.getByRole('columnheader', { name: /ULI/ })).not.toHaveAttribute('aria-sort');
          },
          empty: async () => {
            expect(await screen.findByText(ASSET_TEXTS.poolEmpty)).toBeInTheDocument();
            expect(pageSummaryText()).toBe('Page 1 of 1. Items 0 through 0');
          },
          failed: async () => {
            expect(await screen.findByRole('alert')).toHaveTextContent(ASSET_TEXTS.failed);
            expect(screen.getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
          },
        },
        events: {
          'done: loadPage': ({ event }) => {
            const { items, totalCount, pool } = (event as unknown as { output: PoolAssetsPage }).output;
            return calls.settle('pool', { value: { pool, loans: items, totalCount } });
          },
          'error: loadPage': ({ event }) => calls.settle('pool', { error: (event as unknown as { error: unknown }).error }),
          'list.reload': () => user.click(screen.getByRole('button', { name: TEXTS.tryAgain })),
          'page.go': async ({ event }) => {
            const field = screen.getByRole('spinbutton', { name: PAGINATION_TEXTS.pageNumber });
            await user.clear(field);
            await user.type(field, `${(event as Extract<PagedListEvent, { type: 'page.go' }>).page}{Enter}`);
          },
          'page.size': ({ event }) =>
            user.selectOptions(
              screen.getByRole('combobox', { name: PAGINATION_TEXTS.pageSize }),
              String((event as Extract<PagedListEvent, { type: 'page.size' }>).limit),
            ),
          'selection.toggle': () => user.click(screen.getByRole('checkbox', { name: ASSET_TEXTS.selectRow('ULI000000') })),
          'selection.togglePage': () => user.click(screen.getByRole('checkbox', { name: ASSET_TEXTS.selectPage })),
          'selection.clear': () => user.click(screen.getByRole('button', { name: ASSET_TEXTS.clearSelection })),
          'view.sync': ({ event }) => {
            const { page, limit } = (event as Extract<PagedListEvent, { type: 'view.sync' }>).view;
            return act(() => app.router.navigate(`${poolPath}?page=${page}&limit=${limit}`));
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    serverWalker.expectFullCoverage();
    serverWalker.expectEveryStateAsserted();
  });
});

const sortedBy = (view: AssetListView) => (view.sort?.column === 'uli' ? view.sort.direction : null);

const sortWalker = createModelWalker(pagedListMachine, sortWalk);

describe('list machine sorted and filtered on the server, driven through /assets/assets', () => {
  beforeAll(async () => {
    await import('../../src/web/screens/assets/assets-screen');
  });
  afterEach(cleanup);

  for (const path of sortWalker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openAssetScreen();
      const lastQuery = () => calls.calls('listLoans').at(-1)?.[0] as LoanListQuery;
      await path.test({
        states: {
          loading: async ({ context }) => {
            await waitFor(() => expect(assetTable()).toHaveAttribute('aria-busy', 'true'));
            expect(dataRows()).toHaveLength(context.items.length);
          },
          loaded: async (snapshot) => {
            const view = snapshot.context.view as AssetListView;
            await waitFor(() => expect(assetTable()).toHaveAttribute('aria-busy', 'false'));
            expect(app.location().search).toBe(serializeAssetListView(view));
            expect(lastQuery().sortBy).toBe(view.sort?.column);
            expect(lastQuery().sortDirection).toBe(view.sort?.direction);
            expect(lastQuery().oldestDateLastUpdated === undefined).toBe(view.dateFilter === null);
            const direction = sortedBy(view);
            expect(screen.getByRole('columnheader', { name: /ULI/ })).toHaveAttribute(
              'aria-sort',
              direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none',
            );
            expect(dataRows()).toHaveLength(snapshot.context.items.length);
          },
          empty: async () => {
            expect(await screen.findByText(ASSET_TEXTS.empty)).toBeInTheDocument();
          },
          failed: async () => {
            expect(await screen.findByRole('alert')).toHaveTextContent(ASSET_TEXTS.failed);
            expect(screen.queryByRole('table')).not.toBeInTheDocument();
          },
        },
        events: {
          'done: loadPage': ({ event }) => {
            const { items, totalCount } = (event as unknown as { output: ListPage }).output;
            return calls.settle('listLoans', { value: { loans: items, totalCount } });
          },
          'error: loadPage': ({ event }) => calls.settle('listLoans', { error: (event as unknown as { error: unknown }).error }),
          'list.reload': () => user.click(screen.getByRole('button', { name: TEXTS.tryAgain })),
          'sort.toggle': () => user.click(within(screen.getByRole('columnheader', { name: /ULI/ })).getByRole('button')),
          'list.filter': () => user.selectOptions(screen.getByRole('combobox', { name: ASSET_TEXTS.dateFilter }), 'Today'),
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    sortWalker.expectFullCoverage();
    sortWalker.expectEveryStateAsserted();
  });
});
