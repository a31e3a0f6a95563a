// @vitest-environment jsdom
// Model-based test of the pool-assets machine through /assets/pool-assets/:poolId: the pool's
// name and assets, paging (in the URL, clamped), selection, failure and retry, and not found.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { poolAssetsMachine, selectPageSummary, type PoolAssetsEvent } from '../../machines/pool-assets';
import { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { ASSET_TEXTS, PAGINATION_TEXTS, TEXTS } from '../../src/domain/texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { loanIdOf, samplePoolDetail, samplePoolId } from '../support/loan-list-fixtures';
import { assetTable, dataRows, openAssetScreen, pageSummaryText } from './support/assets-screen';

const pool25 = samplePoolDetail(0, 10, 25);
const emptyPool = samplePoolDetail(0, 0, 0);
const notFound = new HttpError(404, '{"statusCode":404,"error":"Not Found","message":"Pool not found"}');
const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

const walker = createModelWalker(poolAssetsMachine, {
  input: { poolId: samplePoolId, page: 1, limit: 10 },
  serializeState: (snapshot) => {
    const { paging, rows, selectedIds, totalCount } = snapshot.context;
    return JSON.stringify([snapshot.value, paging, rows.length, selectedIds.length, totalCount]);
  },
  events: {
    'done: loadPage': [{ output: pool25 }, { output: emptyPool }],
    'error: loadPage': [{ error: notFound }, { error: serverError }],
    'page.go': [{ page: 2 }],
    'page.size': [{ limit: 20 }],
    'selection.toggle': [{ loanId: loanIdOf(0) }],
    'view.sync': [{ paging: { page: 2, limit: 10 } }],
  },
  filterEvents: (snapshot, event) => {
    const { paging, totalCount, selectedIds } = snapshot.context;
    const home = paging.page === 1 && paging.limit === 10;
    const settled = snapshot.matches('ready') && totalCount > 0;
    if (event.type.startsWith('xstate.done.actor') && (event as { output?: unknown }).output === emptyPool) return paging.limit === 10;
    if (['page.go', 'page.size', 'view.sync'].includes(event.type)) return settled && home && selectedIds.length === 0;
    if (event.type === 'selection.clear' && selectedIds.length === 0) return false;
    if (event.type.startsWith('selection.')) return settled && home;
    return true;
  },
});

const user = userEvent.setup();
const poolPath = APP_PATHS.poolAssets(samplePoolId);

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/assets/pool-assets-screen')]);
});

describe('pool-assets machine, driven through /assets/pool-assets/:poolId', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openAssetScreen(poolPath);
      await path.test({
        states: {
          loading: async ({ context }) => {
            await waitFor(() => expect(assetTable()).toHaveAttribute('aria-busy', 'true'));
            expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(context.poolName || ASSET_TEXTS.poolLoading);
            expect(dataRows()).toHaveLength(context.rows.length);
          },
          ready: async (snapshot) => {
            const { paging, rows, selectedIds, poolName } = snapshot.context;
            await waitFor(() => expect(assetTable()).toHaveAttribute('aria-busy', 'false'));
            expect(screen.getByRole('heading', { level: 1, name: poolName })).toBeInTheDocument();
            expect(app.location().search).toBe(`?page=${paging.page}&limit=${paging.limit}`);
            expect(pageSummaryText()).toBe(selectPageSummary(snapshot));
            expect(calls.calls('pool').at(-1)).toEqual([
              samplePoolId,
              { limit: paging.limit, offset: (paging.page - 1) * paging.limit },
              expect.anything(),
            ]);
            if (rows.length === 0) expect(screen.getByText(ASSET_TEXTS.poolEmpty)).toBeInTheDocument();
            else expect(dataRows()).toHaveLength(rows.length);
            const checked = within(assetTable())
              .queryAllByRole('checkbox', { name: /^Select asset / })
              .filter((box) => (box as HTMLInputElement).checked);
            expect(checked).toHaveLength(rows.filter((row) => selectedIds.includes(row.loanId)).length);
            // Pools are not sorted: headers are plain.
            expect(screen.getByRole('columnheader', { name: /ULI/ })).not.toHaveAttribute('aria-sort');
          },
          failed: async () => {
            expect(await screen.findByRole('alert')).toHaveTextContent(ASSET_TEXTS.failed);
            expect(screen.getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
          },
          notFound: async () => {
            expect(await screen.findByRole('heading', { level: 1, name: ASSET_TEXTS.poolNotFoundTitle })).toBeInTheDocument();
            expect(screen.getByText(ASSET_TEXTS.poolNotFoundBody)).toBeInTheDocument();
            expect(screen.getByRole('link', { name: ASSET_TEXTS.backToPools })).toHaveAttribute('href', APP_PATHS.pools);
            expect(screen.queryByRole('table')).not.toBeInTheDocument();
          },
        },
        events: {
          'done: loadPage': ({ event }) => calls.settle('pool', { value: (event as unknown as { output: unknown }).output }),
          'error: loadPage': ({ event }) => calls.settle('pool', { error: (event as unknown as { error: unknown }).error }),
          'list.retry': () => user.click(screen.getByRole('button', { name: TEXTS.tryAgain })),
          'page.go': async ({ event }) => {
            const field = screen.getByRole('spinbutton', { name: PAGINATION_TEXTS.pageNumber });
            await user.clear(field);
            await user.type(field, `${(event as Extract<PoolAssetsEvent, { type: 'page.go' }>).page}{Enter}`);
          },
          'page.size': ({ event }) =>
            user.selectOptions(
              screen.getByRole('combobox', { name: PAGINATION_TEXTS.pageSize }),
              String((event as Extract<PoolAssetsEvent, { type: 'page.size' }>).limit),
            ),
          'selection.toggle': () => user.click(screen.getByRole('checkbox', { name: ASSET_TEXTS.selectRow('ULI000000') })),
          'selection.togglePage': () => user.click(screen.getByRole('checkbox', { name: ASSET_TEXTS.selectPage })),
          'selection.clear': () => user.click(screen.getByRole('button', { name: ASSET_TEXTS.clearSelection })),
          'view.sync': ({ event }) => {
            const { page, limit } = (event as Extract<PoolAssetsEvent, { type: 'view.sync' }>).paging;
            return act(() => app.router.navigate(`${poolPath}?page=${page}&limit=${limit}`));
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
