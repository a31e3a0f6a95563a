// @vitest-environment jsdom
// Model-based test of the asset-table machine through /assets/assets in the signed-in app: every
// transition of a walk around the default view (each filter, sort, size and page change taken
// from it; selection on it) drives the real screen over a fake API the test settles.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assetTableMachine, selectPageSummary, type AssetTableEvent } from '../../machines/asset-table';
import { HttpError } from '../../src/contract/http-error';
import type { LoanListQuery } from '../../src/contract/loans';
import { APP_PATHS } from '../../src/domain/app-paths';
import { DEFAULT_ASSET_LIST_VIEW, parseAssetListView, sameView, serializeAssetListView } from '../../src/domain/asset-table';
import { SEARCH_DEBOUNCE_MS } from '../../src/domain/constants';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES } from '../../src/domain/loan';
import { ASSET_TEXTS, MULTI_SELECT_TEXTS, PAGINATION_TEXTS, TEXTS } from '../../src/domain/texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { loanIdOf, sampleLoanPage } from '../support/loan-list-fixtures';
import { ULI_VISIBLE_END, UliCell } from '../../src/web/screens/assets/asset-columns';
import { assetTable, dataRows, openAssetScreen, pageSummaryText, searchBox } from './support/assets-screen';

const page25 = sampleLoanPage(0, 10, 25);
const emptyList = sampleLoanPage(0, 0, 0);
const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');
const linkedView = { ...DEFAULT_ASSET_LIST_VIEW, page: 2 };
const VIEW_EVENTS = ['page.go', 'page.size', 'filters.roles', 'filters.date', 'view.sync', 'filters.search'];

const walker = createModelWalker(assetTableMachine, {
  input: { view: DEFAULT_ASSET_LIST_VIEW },
  serializeState: (snapshot) => {
    const { view, rows, selectedIds, totalCount, searchText } = snapshot.context;
    return JSON.stringify([snapshot.value, view, rows.length, selectedIds.length, totalCount, searchText]);
  },
  events: {
    'done: loadPage': [{ output: page25 }, { output: emptyList }],
    'error: loadPage': { error: serverError },
    'page.go': [{ page: 2 }],
    'page.size': [{ limit: 20 }],
    // Every role, and none (the filter emptied: nothing is asked for).
    'filters.roles': [{ roles: FILTERABLE_ROLES }, { roles: [] }],
    'filters.date': [{ filter: 'today' }],
    // A search, and one that trims to the current (empty) search: no reload.
    'filters.search': [{ text: 'smith' }, { text: ' ' }],
    'sort.toggle': [{ column: 'uli' }],
    'selection.toggle': [{ loanId: loanIdOf(0) }],
    'view.sync': [{ view: linkedView }],
  },
  filterEvents: (snapshot, event) => {
    const { view, totalCount, selectedIds, searchText } = snapshot.context;
    const ready = snapshot.matches({ list: 'ready' });
    const idle = snapshot.matches({ search: 'idle' }) && searchText === view.query;
    const isDefault = sameView(view, DEFAULT_ASSET_LIST_VIEW);
    const settled = ready && idle && totalCount > 0 && selectedIds.length === 0;
    if (event.type.startsWith('xstate.done.actor') && (event as { output?: unknown }).output === emptyList) {
      // An empty answer on the default view (the empty state) and on page 2 (the page clamp).
      return sameView({ ...view, page: 1 }, DEFAULT_ASSET_LIST_VIEW);
    }
    if (event.type === 'filters.search' && snapshot.matches({ search: 'debouncing' })) return true;
    // With no role chosen, choosing them all again is the way back.
    if (snapshot.matches({ list: 'noRoles' })) return event.type === 'filters.roles' && event.roles.length > 0;
    if (VIEW_EVENTS.includes(event.type)) return settled && isDefault;
    // The sort cycle: ascending, descending, none, each from the one before.
    if (event.type === 'sort.toggle') return settled && sameView({ ...view, sort: null }, DEFAULT_ASSET_LIST_VIEW);
    // 'Clear selection' shows only when something is selected.
    if (event.type === 'selection.clear' && selectedIds.length === 0) return false;
    if (event.type.startsWith('selection.')) return ready && idle && isDefault && totalCount > 0;
    return true;
  },
});

const user = userEvent.setup();
const rolesButton = (count: number) => screen.getByRole('button', { name: `${ASSET_TEXTS.roles} ${MULTI_SELECT_TEXTS.selected(count)}` });
/** waitFor, or at once while the debounce runs on fake timers (Testing Library's waitFor needs real ones). */
const eventually = async (assertion: () => void) => (vi.isFakeTimers() ? assertion() : waitFor(assertion));
const payload = <T extends AssetTableEvent['type']>(event: unknown) => event as Extract<AssetTableEvent, { type: T }>;

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/assets/assets-screen')]);
});

describe('asset-table machine, driven through /assets/assets', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openAssetScreen();
      const lastQuery = () => calls.calls('listLoans').at(-1)?.[0] as LoanListQuery;
      await path.test({
        states: {
          list: () => eventually(() => expect(screen.getByRole('heading', { level: 1, name: ASSET_TEXTS.title })).toBeInTheDocument()),
          'list.loading': async ({ context }) => {
            await waitFor(() => expect(assetTable()).toHaveAttribute('aria-busy', 'true'));
            expect(screen.getByText(ASSET_TEXTS.loading)).toBeInTheDocument();
            // The rows shown before stay (dimmed) until the next page arrives: no layout shift.
            expect(dataRows()).toHaveLength(context.rows.length);
          },
          'list.ready': async (snapshot) => {
            const { view, rows, selectedIds } = snapshot.context;
            await eventually(() => expect(assetTable()).toHaveAttribute('aria-busy', 'false'));
            expect(app.location().search).toBe(serializeAssetListView(view));
            expect(pageSummaryText()).toBe(selectPageSummary(snapshot));
            expect(lastQuery()).toMatchObject({
              limit: view.limit,
              offset: (view.page - 1) * view.limit,
              participantRoles: view.roles.join(','),
            });
            expect(lastQuery().query).toBe(view.query || undefined);
            expect(lastQuery().sortBy).toBe(view.sort?.column);
            expect(lastQuery().oldestDateLastUpdated === undefined).toBe(view.dateFilter === null);
            if (rows.length === 0) {
              expect(screen.getByText(ASSET_TEXTS.empty)).toBeInTheDocument();
            } else {
              expect(dataRows()).toHaveLength(rows.length);
              const checked = within(assetTable())
                .getAllByRole('checkbox', { name: /^Select asset / })
                .filter((box) => (box as HTMLInputElement).checked);
              expect(checked).toHaveLength(rows.filter((row) => selectedIds.includes(row.loanId)).length);
            }
            const uliHeader = screen.getByRole('columnheader', { name: /ULI/ });
            const direction = view.sort?.column === 'uli' ? view.sort.direction : null;
            expect(uliHeader).toHaveAttribute(
              'aria-sort',
              direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none',
            );
            const exportName = selectedIds.length ? ASSET_TEXTS.exportSelectedCsv(selectedIds.length) : ASSET_TEXTS.exportCsv;
            expect(screen.getByRole('button', { name: exportName })).toBeEnabled();
          },
          'list.noRoles': async ({ context }) => {
            await eventually(() => expect(screen.getByText(ASSET_TEXTS.chooseRole)).toBeInTheDocument());
            expect(assetTable()).toHaveAttribute('aria-busy', 'false');
            expect(dataRows()).toHaveLength(1);
            expect(app.location().search).toBe(serializeAssetListView(context.view));
            expect(rolesButton(0)).toBeInTheDocument();
            // Nothing was asked for with no role, and there is nothing to export.
            expect(calls.pendingCount('listLoans')).toBe(0);
            expect(calls.calls('listLoans').every(([query]) => (query as LoanListQuery).participantRoles !== '')).toBe(true);
            expect(screen.queryByRole('button', { name: ASSET_TEXTS.exportCsv })).not.toBeInTheDocument();
          },
          'list.failed': async () => {
            expect(await screen.findByRole('alert')).toHaveTextContent(ASSET_TEXTS.failed);
            expect(screen.getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
            expect(screen.queryByRole('table')).not.toBeInTheDocument();
          },
          search: ({ context }) => expect(searchBox()).toHaveValue(context.searchText),
          'search.idle': ({ context }) => expect(parseAssetListView(app.location().search).query).toBe(context.view.query),
          'search.debouncing': ({ context }) => {
            // Typed, not yet applied: the URL (and the list) still hold the search before it.
            expect(searchBox()).toHaveValue(context.searchText);
            expect(parseAssetListView(app.location().search).query).toBe(context.view.query);
          },
        },
        events: {
          'done: loadPage': ({ event }) => calls.settle('listLoans', { value: (event as unknown as { output: unknown }).output }),
          'error: loadPage': ({ event }) => calls.settle('listLoans', { error: (event as unknown as { error: unknown }).error }),
          'list.retry': () => user.click(screen.getByRole('button', { name: TEXTS.tryAgain })),
          'page.go': async ({ event }) => {
            const field = screen.getByRole('spinbutton', { name: PAGINATION_TEXTS.pageNumber });
            await user.clear(field);
            await user.type(field, `${payload<'page.go'>(event).page}{Enter}`);
          },
          'page.size': ({ event }) =>
            user.selectOptions(
              screen.getByRole('combobox', { name: PAGINATION_TEXTS.pageSize }),
              String(payload<'page.size'>(event).limit),
            ),
          'filters.roles': async ({ event }) => {
            const selectAll = () => user.click(screen.getByRole('checkbox', { name: MULTI_SELECT_TEXTS.selectAll }));
            // The walk chooses roles from the default five, or from none.
            const fromNone = screen.queryByRole('button', { name: `${ASSET_TEXTS.roles} ${MULTI_SELECT_TEXTS.selected(0)}` }) !== null;
            await user.click(rolesButton(fromNone ? 0 : DEFAULT_ROLE_FILTER.length));
            if (payload<'filters.roles'>(event).roles.length > 0) {
              // From the default five, Originator makes all six; from none, Select All does.
              if (fromNone) await selectAll();
              else await user.click(screen.getByRole('checkbox', { name: 'Originator' }));
              expect(rolesButton(FILTERABLE_ROLES.length)).toBeInTheDocument();
            } else {
              // Select All twice: every role, then none (the first choice loads its page first).
              await selectAll();
              await calls.settle('listLoans', { value: page25 });
              await waitFor(() => expect(assetTable()).toHaveAttribute('aria-busy', 'false'));
              await selectAll();
              expect(rolesButton(0)).toBeInTheDocument();
              expect(screen.getByRole('checkbox', { name: MULTI_SELECT_TEXTS.selectAll })).not.toBeChecked();
            }
            await user.keyboard('{Escape}');
          },
          'filters.date': () => user.selectOptions(screen.getByRole('combobox', { name: ASSET_TEXTS.dateFilter }), 'Today'),
          // The machine's debounce runs on a fake clock from the keystroke until the delay is walked.
          'filters.search': ({ event }) => {
            vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
            fireEvent.change(searchBox(), { target: { value: payload<'filters.search'>(event).text } });
          },
          'after: debounce': () => {
            act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
            vi.useRealTimers();
          },
          'sort.toggle': () => user.click(within(screen.getByRole('columnheader', { name: /ULI/ })).getByRole('button')),
          'selection.toggle': () => user.click(screen.getByRole('checkbox', { name: ASSET_TEXTS.selectRow('ULI000000') })),
          'selection.togglePage': () => user.click(screen.getByRole('checkbox', { name: ASSET_TEXTS.selectPage })),
          'selection.clear': () => user.click(screen.getByRole('button', { name: ASSET_TEXTS.clearSelection })),
          'view.sync': ({ event }) =>
            act(() => app.router.navigate(`${APP_PATHS.assets}${serializeAssetListView(payload<'view.sync'>(event).view)}`)),
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});

describe('asset table screen: keyboard focus, the ULI and the row actions', () => {
  afterEach(cleanup);

  it('keeps the focus on a paging button that becomes unavailable under it (aria-disabled, not disabled)', async () => {
    const { app, calls } = await openAssetScreen();
    await calls.settle('listLoans', { value: page25 });
    const last = await screen.findByRole('button', { name: PAGINATION_TEXTS.last });
    expect(last).toHaveAttribute('aria-disabled', 'false');
    last.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(parseAssetListView(app.location().search).page).toBe(3));
    await calls.settle('listLoans', { value: sampleLoanPage(20, 5, 25) });
    await waitFor(() => expect(pageSummaryText()).toBe('Page 3 of 3. Items 21 through 25'));
    expect(last).toHaveAttribute('aria-disabled', 'true');
    expect(last).toBeEnabled();
    expect(last).toHaveFocus();
    expect(screen.getByRole('button', { name: PAGINATION_TEXTS.next })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: PAGINATION_TEXTS.first })).toHaveAttribute('aria-disabled', 'false');
    // Unavailable: pressing it again asks for nothing.
    await user.keyboard('{Enter}');
    expect(calls.calls('listLoans')).toHaveLength(2);
    expect(last).toHaveFocus();
  });

  it("keeps the focus on a row checkbox it toggles, and gives it to the page's checkbox when 'Clear selection' goes away", async () => {
    const { calls } = await openAssetScreen();
    await calls.settle('listLoans', { value: page25 });
    const first = await screen.findByRole('checkbox', { name: ASSET_TEXTS.selectRow(page25.loans[0]?.uli ?? '') });
    first.focus();
    await user.keyboard(' ');
    expect(first).toBeChecked();
    expect(first).toHaveFocus();
    screen.getByRole('button', { name: ASSET_TEXTS.clearSelection }).focus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('button', { name: ASSET_TEXTS.clearSelection })).not.toBeInTheDocument();
    expect(first).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: ASSET_TEXTS.selectPage })).toHaveFocus();
  });

  it('pins the row actions to the right edge of the scrolling table', async () => {
    const { calls } = await openAssetScreen();
    await calls.settle('listLoans', { value: page25 });
    const actions = await screen.findByRole('button', { name: ASSET_TEXTS.rowActions(page25.loans[0]?.uli ?? '') });
    expect(actions.closest('td')).toHaveClass('sticky', 'right-0');
    expect(within(assetTable()).getAllByRole('columnheader').at(-1)).toHaveClass('sticky', 'right-0');
    // The scrolling region takes the focus, so the keyboard can scroll it.
    expect(screen.getByRole('region', { name: ASSET_TEXTS.tableLabel })).toHaveAttribute('tabindex', '0');
  });

  it('shows the end of a ULI, where ULIs of one lender differ, and keeps the whole ULI as its text and title', () => {
    const uli = '5493A9RXTTPFU88LM524B21E4437660BBAA829';
    render(<UliCell uli={uli} />);
    const cell = screen.getByTitle(uli);
    expect(cell).toHaveTextContent(uli);
    const [start, end] = Array.from(cell.children);
    expect(start).toHaveClass('truncate');
    expect(end).toHaveTextContent(uli.slice(-ULI_VISIBLE_END));
    expect(end).toHaveClass('shrink-0');
    cleanup();
    render(<UliCell uli="ULI000001" />);
    expect(screen.getByTitle('ULI000001')).toHaveTextContent('ULI000001');
  });
});
