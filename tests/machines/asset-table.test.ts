import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { assetTableMachine, matchesNoAsset, selectList, selectNeedsRole, selectSearchTooShort } from '../../machines/asset-table';
import {
  pagedListOf,
  selectIsEmpty,
  selectListItems,
  selectListView,
  selectPageCount,
  selectPageSelection,
  selectPageSummary,
  selectSelectedIds,
  type PagedListEvent,
  type PagedListSnapshot,
} from '../../machines/paged-list';
import type { LoanList } from '../../src/contract/loans';
import { DEFAULT_ASSET_LIST_VIEW, serializeAssetListView, type AssetListView } from '../../src/domain/asset-table';
import { FILTERABLE_ROLES } from '../../src/domain/loan';
import { SEARCH_DEBOUNCE_MS } from '../../src/domain/constants';
import type { DateFilter } from '../../src/domain/date-filters';
import { loanIdOf, sampleLoanPage } from '../support/loan-list-fixtures';

type TableEvent =
  | PagedListEvent
  | { type: 'filters.search'; text: string }
  | { type: 'filters.roles'; roles: readonly string[] }
  | { type: 'filters.date'; filter: DateFilter | null };

/**
 * The table over a fake list call that answers from a function of the view (async, like the
 * network). `actor` sends filters to the table's machine and the rest to its list, as the screen
 * does, and reads the list; `shown` records the views the list gives the URL.
 */
function start(answer: (view: AssetListView) => LoanList | Error, view: AssetListView = DEFAULT_ASSET_LIST_VIEW) {
  const loads: AssetListView[] = [];
  const shown: Array<{ view: AssetListView; replace: boolean }> = [];
  const signals: AbortSignal[] = [];
  const table = createActor(
    assetTableMachine.provide({
      actors: {
        list: pagedListOf(
          async (shownView, signal) => {
            loads.push(shownView as AssetListView);
            signals.push(signal);
            const result = answer(shownView as AssetListView);
            if (result instanceof Error) throw result;
            return { items: result.loans, totalCount: result.totalCount };
          },
          { matchesNothing: matchesNoAsset },
        ),
      },
    }),
    { input: { view } },
  );
  const list = selectList(table.getSnapshot());
  if (!list) throw new Error('the table has no list');
  list.on('list.view', (event) => void shown.push({ view: event.view as AssetListView, replace: event.replace }));
  table.start();
  const actor = {
    send: (event: TableEvent) => (event.type.startsWith('filters.') ? table.send(event as never) : list.send(event as PagedListEvent)),
    getSnapshot: (): PagedListSnapshot => list.getSnapshot(),
  };
  return { actor, table, loads, shown, signals };
}
const selectView = (snapshot: PagedListSnapshot) => selectListView<AssetListView>(snapshot);

const pageOf25 = (view: AssetListView) =>
  sampleLoanPage((view.page - 1) * view.limit, Math.min(view.limit, 25 - (view.page - 1) * view.limit), 25);
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('asset table machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads the first page of the URL view and reads the summary; the URL is left to the screen', async () => {
    const { actor, loads, shown } = start(pageOf25);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    expect(shown).toEqual([]);
    await settle();
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
    expect(loads).toEqual([DEFAULT_ASSET_LIST_VIEW]);
    expect(selectPageSummary(actor.getSnapshot())).toBe('Page 1 of 3. Items 1 through 10');
    expect(selectPageCount(actor.getSnapshot())).toBe(3);
  });

  it('goes to a page clamped to 1..page count, pushing the view; the same page is no reload', async () => {
    const { actor, loads, shown } = start(pageOf25);
    await settle();
    actor.send({ type: 'page.go', page: 99 });
    await settle();
    expect(selectView(actor.getSnapshot()).page).toBe(3);
    expect(shown.at(-1)).toEqual({ view: { ...DEFAULT_ASSET_LIST_VIEW, page: 3 }, replace: false });
    expect(selectPageSummary(actor.getSnapshot())).toBe('Page 3 of 3. Items 21 through 25');
    actor.send({ type: 'page.go', page: 3 });
    actor.send({ type: 'page.go', page: 7 });
    expect(loads).toHaveLength(2);
    actor.send({ type: 'page.go', page: -4 });
    await settle();
    expect(selectView(actor.getSnapshot()).page).toBe(1);
  });

  it('clamps a linked page past the end to the last page, replacing the URL entry', async () => {
    const { actor, loads, shown } = start(pageOf25, { ...DEFAULT_ASSET_LIST_VIEW, page: 9 });
    await settle();
    await settle();
    expect(loads.map((view) => view.page)).toEqual([9, 3]);
    expect(shown.at(-1)).toEqual({ view: { ...DEFAULT_ASSET_LIST_VIEW, page: 3 }, replace: true });
    expect(actor.getSnapshot().matches('loaded')).toBe(true);
  });

  it('changing the page size returns to page 1', async () => {
    const { actor, loads } = start(pageOf25, { ...DEFAULT_ASSET_LIST_VIEW, page: 2 });
    await settle();
    actor.send({ type: 'page.size', limit: 20 });
    actor.send({ type: 'page.size', limit: 20 });
    await settle();
    expect(loads.map((view) => [view.page, view.limit])).toEqual([
      [2, 10],
      [1, 20],
    ]);
    expect(selectPageSummary(actor.getSnapshot())).toBe('Page 1 of 2. Items 1 through 20');
  });

  it('debounces the search 500 ms, then loads page 1 with it; typing back to the same text loads nothing', async () => {
    const { actor, table, loads } = start(pageOf25, { ...DEFAULT_ASSET_LIST_VIEW, page: 2 });
    await settle();
    actor.send({ type: 'filters.search', text: 'sm' });
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1);
    actor.send({ type: 'filters.search', text: 'smith ' });
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1);
    expect(loads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads.at(-1)).toMatchObject({ query: 'smith', page: 1 });
    actor.send({ type: 'filters.search', text: 'smith' });
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(loads).toHaveLength(2);
    expect(table.getSnapshot().matches('idle')).toBe(true);
  });

  it('says a typed text is too short to search by until it holds three characters in a row', async () => {
    const { actor, table } = start(pageOf25);
    await settle();
    expect(selectSearchTooShort(table.getSnapshot())).toBe(false);
    actor.send({ type: 'filters.search', text: 'ab' });
    expect(selectSearchTooShort(table.getSnapshot())).toBe(true);
    actor.send({ type: 'filters.search', text: 'ab\ncd' });
    expect(selectSearchTooShort(table.getSnapshot())).toBe(true);
    actor.send({ type: 'filters.search', text: 'abc' });
    expect(selectSearchTooShort(table.getSnapshot())).toBe(false);
    actor.send({ type: 'filters.search', text: '   ' });
    expect(selectSearchTooShort(table.getSnapshot())).toBe(false);
  });

  it('puts the first settled search in a new history entry and refines it in place, until another change', async () => {
    const { actor, shown } = start(pageOf25);
    await settle();
    const search = async (text: string) => {
      actor.send({ type: 'filters.search', text });
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
      return shown.at(-1);
    };
    expect(await search('smi')).toEqual({ view: { ...DEFAULT_ASSET_LIST_VIEW, query: 'smi' }, replace: false });
    // A pause and more typing: the same search, refined in place; back returns to the list before it.
    expect(await search('smith')).toEqual({ view: { ...DEFAULT_ASSET_LIST_VIEW, query: 'smith' }, replace: true });
    expect(await search('')).toEqual({ view: DEFAULT_ASSET_LIST_VIEW, replace: true });
    // Paging is an entry of its own; a search after it starts a new one.
    await search('smith');
    actor.send({ type: 'page.go', page: 2 });
    expect(shown.at(-1)).toEqual({ view: { ...DEFAULT_ASSET_LIST_VIEW, query: 'smith', page: 2 }, replace: false });
    await settle();
    expect(await search('smithson')).toEqual({ view: { ...DEFAULT_ASSET_LIST_VIEW, query: 'smithson' }, replace: false });
    // After the back button, too.
    const back: AssetListView = { ...DEFAULT_ASSET_LIST_VIEW, query: 'smith', page: 2 };
    actor.send({ type: 'view.sync', view: back });
    await settle();
    expect(await search('smit')).toEqual({ view: { ...DEFAULT_ASSET_LIST_VIEW, query: 'smit' }, replace: false });
  });

  it('role and date filters return to page 1 and drop the selection; unchanged filters do nothing', async () => {
    const { actor, loads } = start(pageOf25, { ...DEFAULT_ASSET_LIST_VIEW, page: 2 });
    await settle();
    actor.send({ type: 'selection.toggle', id: loanIdOf(10) });
    actor.send({ type: 'filters.roles', roles: ['SERVICER', 'OWNER'] });
    await settle();
    expect(loads.at(-1)).toMatchObject({ page: 1, roles: ['OWNER', 'SERVICER'] });
    expect(selectSelectedIds(actor.getSnapshot())).toEqual([]);
    actor.send({ type: 'filters.roles', roles: ['OWNER', 'SERVICER'] });
    actor.send({ type: 'filters.date', filter: 'today' });
    await settle();
    expect(loads).toHaveLength(3);
    expect(loads.at(-1)).toMatchObject({ page: 1, dateFilter: 'today' });
    actor.send({ type: 'filters.date', filter: 'today' });
    expect(loads).toHaveLength(3);
  });

  it('sorts a column ascending, descending, then not at all', async () => {
    const { actor, loads } = start(pageOf25);
    await settle();
    for (let i = 0; i < 3; i += 1) {
      actor.send({ type: 'sort.toggle', column: 'uli' });
      await settle();
    }
    expect(loads.slice(1).map((view) => view.sort)).toEqual([
      { column: 'uli', direction: 'asc' },
      { column: 'uli', direction: 'desc' },
      null,
    ]);
  });

  it('selects rows one by one and all on the page; another page drops them (the selection is of the page shown)', async () => {
    const { actor } = start(pageOf25);
    await settle();
    actor.send({ type: 'selection.toggle', id: loanIdOf(0) });
    expect(selectPageSelection(actor.getSnapshot())).toBe('some');
    actor.send({ type: 'selection.togglePage' });
    expect(selectPageSelection(actor.getSnapshot())).toBe('all');
    expect(selectSelectedIds(actor.getSnapshot())).toHaveLength(10);
    actor.send({ type: 'page.go', page: 2 });
    await settle();
    expect(selectPageSelection(actor.getSnapshot())).toBe('none');
    expect(selectSelectedIds(actor.getSnapshot())).toEqual([]);
    actor.send({ type: 'selection.toggle', id: loanIdOf(10) });
    // A row of another page is not selected from this one.
    actor.send({ type: 'selection.toggle', id: loanIdOf(0) });
    expect(selectSelectedIds(actor.getSnapshot())).toEqual([loanIdOf(10)]);
    actor.send({ type: 'selection.togglePage' });
    expect(selectSelectedIds(actor.getSnapshot())).toHaveLength(10);
    actor.send({ type: 'selection.togglePage' });
    actor.send({ type: 'selection.togglePage' });
    expect(selectSelectedIds(actor.getSnapshot())).toHaveLength(10);
    actor.send({ type: 'selection.clear' });
    expect(selectSelectedIds(actor.getSnapshot())).toEqual([]);
  });

  it('shows the view the URL names after the back button, without pushing it again', async () => {
    const { actor, table, loads, shown } = start(pageOf25);
    await settle();
    const linked: AssetListView = { ...DEFAULT_ASSET_LIST_VIEW, page: 2, query: 'abc' };
    actor.send({ type: 'view.sync', view: linked });
    await settle();
    expect(loads.at(-1)).toEqual(linked);
    expect(table.getSnapshot().context.searchText).toBe('abc');
    expect(shown).toHaveLength(0);
    actor.send({ type: 'view.sync', view: linked });
    expect(loads).toHaveLength(2);
  });

  it('aborts the superseded load', async () => {
    const { actor, signals } = start(pageOf25);
    actor.send({ type: 'page.size', limit: 50 });
    expect(signals[0]?.aborted).toBe(true);
    await settle();
    expect(selectPageSummary(actor.getSnapshot())).toBe('Page 1 of 1. Items 1 through 25');
  });

  it('fails visibly and retries; an empty result is the empty state', async () => {
    let fail = true;
    const { actor } = start(() => (fail ? new Error('offline') : sampleLoanPage(0, 0, 0)));
    await settle();
    expect(actor.getSnapshot().matches('failed')).toBe(true);
    actor.send({ type: 'selection.togglePage' });
    fail = false;
    actor.send({ type: 'list.reload' });
    await settle();
    expect(selectIsEmpty(actor.getSnapshot())).toBe(true);
    expect(selectPageSummary(actor.getSnapshot())).toBe('Page 1 of 1. Items 0 through 0');
  });

  it('lets the role filter be emptied: asks for a role, loads nothing, keeps none in the URL', async () => {
    const { actor, loads, shown } = start(pageOf25);
    await settle();
    actor.send({ type: 'selection.toggle', id: loanIdOf(0) });
    actor.send({ type: 'filters.roles', roles: [] });
    await settle();
    expect(selectNeedsRole(actor.getSnapshot())).toBe(true);
    expect(selectView(actor.getSnapshot()).roles).toEqual([]);
    expect(loads).toHaveLength(1);
    expect(selectListItems(actor.getSnapshot())).toEqual([]);
    expect(selectSelectedIds(actor.getSnapshot())).toEqual([]);
    expect(selectPageSummary(actor.getSnapshot())).toBe('Page 1 of 1. Items 0 through 0');
    expect(shown.at(-1)).toEqual({ view: { ...DEFAULT_ASSET_LIST_VIEW, roles: [] }, replace: false });
    expect(serializeAssetListView(selectView(actor.getSnapshot()))).toContain('roles=');
    // Other changes of the view still load nothing while no role is chosen.
    actor.send({ type: 'page.size', limit: 20 });
    actor.send({ type: 'filters.date', filter: 'today' });
    actor.send({ type: 'sort.toggle', column: 'uli' });
    actor.send({ type: 'filters.search', text: 'smith' });
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(selectNeedsRole(actor.getSnapshot())).toBe(true);
    expect(loads).toHaveLength(1);
    // Choosing every role again (Select All) loads them.
    actor.send({ type: 'filters.roles', roles: FILTERABLE_ROLES });
    await settle();
    expect(selectNeedsRole(actor.getSnapshot())).toBe(false);
    expect(loads).toHaveLength(2);
    expect(loads.at(-1)?.roles).toEqual(FILTERABLE_ROLES);
  });

  it('opens on a URL that names no role without asking for a list', async () => {
    const { actor, loads } = start(pageOf25, { ...DEFAULT_ASSET_LIST_VIEW, roles: [] });
    await settle();
    expect(selectNeedsRole(actor.getSnapshot())).toBe(true);
    expect(loads).toEqual([]);
    actor.send({ type: 'view.sync', view: DEFAULT_ASSET_LIST_VIEW });
    await settle();
    expect(loads).toEqual([DEFAULT_ASSET_LIST_VIEW]);
  });
});
