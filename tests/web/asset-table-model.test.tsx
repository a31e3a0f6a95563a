// @vitest-environment jsdom
// Model-based test of the asset-table machine through /assets/assets in the signed-in app: the
// search (debounced), roles and date filters and the URL's search coming back, over a fake API
// the test settles; the list's paging, sort and selection are walked in paged-list-model.test.tsx.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { assetTableMachine, type AssetTableEvent } from '../../machines/asset-table';
import type { LoanListQuery } from '../../src/contract/loans';
import { APP_PATHS } from '../../src/domain/app-paths';
import { parseAssetListView, serializeAssetListView } from '../../src/domain/asset-table';
import { SEARCH_DEBOUNCE_MS } from '../../src/domain/constants';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES } from '../../src/domain/loan';
import { MULTI_SELECT_TEXTS, PAGINATION_TEXTS } from '../../src/domain/texts';
import { ASSET_TEXTS } from '../../src/domain/asset-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { linkedView, walk } from '../machines/walks/asset-table';
import { sampleLoanPage } from '../support/loan-list-fixtures';
import { ULI_VISIBLE_END, UliCell } from '../../src/web/screens/assets/asset-columns';
import { assetTable, dataRows, openAssetScreen, pageSummaryText, searchBox } from './support/assets-screen';

const page25 = sampleLoanPage(0, 10, 25);

const walker = createModelWalker(assetTableMachine, walk);

const user = userEvent.setup();
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
      await calls.settle('listLoans', { value: page25 });
      await waitFor(() => expect(dataRows()).toHaveLength(10));
      const urlView = () => parseAssetListView(app.location().search);
      let queryBefore = '';
      await path.test({
        states: {
          idle: ({ context }) =>
            eventually(() => {
              expect(searchBox()).toHaveValue(context.searchText);
              // Settled: the list (and the URL) search for what the box holds.
              expect(urlView().query).toBe(context.searchText.trim());
              expect(calls.calls('listLoans').at(-1)?.[0]).toMatchObject(
                context.searchText.trim() ? { query: context.searchText.trim() } : {},
              );
            }),
          debouncing: ({ context }) => {
            // Typed, not yet applied: the URL (and the list) still hold the search before it.
            expect(searchBox()).toHaveValue(context.searchText);
            expect(urlView().query).toBe(queryBefore);
          },
        },
        events: {
          'filters.roles': async () => {
            await user.click(
              screen.getByRole('button', { name: `${ASSET_TEXTS.roles} ${MULTI_SELECT_TEXTS.selected(DEFAULT_ROLE_FILTER.length)}` }),
            );
            await user.click(screen.getByRole('checkbox', { name: 'Originator' }));
            await user.keyboard('{Escape}');
            await waitFor(() => expect(urlView().roles).toEqual(FILTERABLE_ROLES));
            expect((calls.calls('listLoans').at(-1)?.[0] as LoanListQuery).participantRoles).toBe(FILTERABLE_ROLES.join(','));
          },
          'filters.date': async () => {
            await user.selectOptions(screen.getByRole('combobox', { name: ASSET_TEXTS.dateFilter }), 'Today');
            await waitFor(() => expect(urlView().dateFilter).toBe('today'));
            expect((calls.calls('listLoans').at(-1)?.[0] as LoanListQuery).oldestDateLastUpdated).toBeDefined();
          },
          // The machine's debounce runs on a fake clock from the keystroke until the delay is walked.
          'filters.search': ({ event }) => {
            if (!vi.isFakeTimers()) queryBefore = urlView().query;
            vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
            fireEvent.change(searchBox(), { target: { value: payload<'filters.search'>(event).text } });
          },
          'after: debounce': () => {
            act(() => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS));
            vi.useRealTimers();
          },
          'list.synced': () => {
            vi.useRealTimers();
            return act(() => app.router.navigate(`${APP_PATHS.assets}${serializeAssetListView(linkedView)}`));
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
