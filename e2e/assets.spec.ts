// The asset table (/assets/assets) and the pool assets screen against the real server and seeded
// database: paging (buttons, page number, size, clamp), URL deep links, reload and back button,
// search, role filter, each date filter, the sort cycle with aria-sort, keyboard column resize
// with its announcement, row actions, CSV of selected rows and of the filtered set, the pool's
// assets with the pool CSV, not found, axe clean.
import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { deactivationSubjectOfItem } from '../src/contract/deactivation';
import type { LoanList } from '../src/contract/loans';
import type { Pool, PoolDetail } from '../src/contract/pools';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { pageSummary } from '../src/domain/asset-table';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { DATE_FILTER_LABELS, DATE_FILTERS, dateFilterStart } from '../src/domain/date-filters';
import { deactivationBlocker } from '../src/domain/deactivation';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES, partyRoleLabel } from '../src/domain/loan';
import { COLUMN_RESIZE_TEXTS, MULTI_SELECT_TEXTS, PAGINATION_TEXTS } from '../src/domain/texts';
import { ASSET_PAGE_TEXTS, ASSET_TEXTS } from '../src/domain/asset-texts';
import { parseCsv } from '../tests/server/support/csv-parse';
import { UTF8_BOM } from '../src/server/csv/loan-csv';
import { expect, test } from './support/fixtures';

/** A product call as the app makes it, for the expected answers. */
async function productGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(
    async ({ path, header, key }) => {
      const participantId = window.localStorage.getItem(key) ?? '';
      const response = await fetch(path, { headers: { [header]: participantId, accept: 'application/json' }, credentials: 'include' });
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      return response.json();
    },
    { path, header: PARTICIPANT_HEADER, key: STORAGE_KEYS.participantId },
  );
}

const listLoans = (page: Page, query: Record<string, string>) =>
  productGet<LoanList>(page, `${PATHS.loans}?${new URLSearchParams({ limit: '10', offset: '0', ...query }).toString()}`);

/** The downloaded CSV's records; the file opens with a byte order mark, for Excel. */
async function downloadedRecords(download: Download): Promise<string[][]> {
  const text = await readFile((await download.path()) as string, 'utf8');
  expect(text.startsWith(UTF8_BOM)).toBe(true);
  return parseCsv(text);
}

const table = (page: Page) => page.getByRole('table');
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const summary = (page: Page) => page.getByRole('navigation', { name: PAGINATION_TEXTS.label }).getByRole('status');
const uliCells = (page: Page) => bodyRows(page).locator('td:nth-child(2)');
const loaded = (page: Page) => expect(table(page)).toHaveAttribute('aria-busy', 'false');
const search = (page: Page) => page.getByRole('searchbox', { name: ASSET_TEXTS.search });

async function openAssets(page: Page, search = '') {
  await page.goto(`.${APP_PATHS.assets}${search}`);
  await loaded(page);
}

test.describe('asset table', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn('admin@registry.test');
  });

  test('browses and pages; page size, page number, clamp, deep link, reload and back button', async ({ page, expectNoAxeViolations }) => {
    const { totalCount } = await listLoans(page, {});
    expect(totalCount).toBeGreaterThan(40);
    const pages = Math.ceil(totalCount / 10);
    await openAssets(page);
    await expect(page).toHaveURL(/\/assets\/assets\?page=1&limit=10$/);
    await expect(page.getByRole('heading', { level: 1, name: ASSET_TEXTS.title })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: ASSET_TEXTS.assetListsNavigation }).getByRole('link', { name: ASSET_TEXTS.assetsTab }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(summary(page)).toHaveText(pageSummary(1, 10, totalCount));
    await expect(bodyRows(page)).toHaveCount(10);
    await expectNoAxeViolations();

    await page.getByRole('button', { name: PAGINATION_TEXTS.next }).click();
    await expect(page).toHaveURL(/page=2&limit=10/);
    await expect(summary(page)).toHaveText(pageSummary(2, 10, totalCount));
    await page.getByRole('button', { name: PAGINATION_TEXTS.last }).click();
    await expect(summary(page)).toHaveText(pageSummary(pages, 10, totalCount));
    await page.getByRole('button', { name: PAGINATION_TEXTS.previous }).click();
    await expect(summary(page)).toHaveText(pageSummary(pages - 1, 10, totalCount));
    await page.getByRole('button', { name: PAGINATION_TEXTS.first }).click();
    await expect(summary(page)).toHaveText(pageSummary(1, 10, totalCount));

    const pageField = page.getByRole('spinbutton', { name: PAGINATION_TEXTS.pageNumber });
    await expect(pageField).toHaveAttribute('max', String(pages));
    await pageField.fill('3');
    await pageField.press('Enter');
    await expect(page).toHaveURL(/page=3&limit=10/);
    await expect(summary(page)).toHaveText(pageSummary(3, 10, totalCount));

    await page.getByRole('combobox', { name: PAGINATION_TEXTS.pageSize }).selectOption('20');
    await expect(page).toHaveURL(/page=1&limit=20/);
    await expect(summary(page)).toHaveText(pageSummary(1, 20, totalCount));
    await expect(bodyRows(page)).toHaveCount(20);

    await page.goBack();
    await expect(page).toHaveURL(/page=3&limit=10/);
    await expect(summary(page)).toHaveText(pageSummary(3, 10, totalCount));
    await page.reload();
    await loaded(page);
    await expect(summary(page)).toHaveText(pageSummary(3, 10, totalCount));

    // A link past the end shows the last page, in place.
    await openAssets(page, '?page=9999&limit=50');
    const lastOf50 = Math.ceil(totalCount / 50);
    await expect(page).toHaveURL(new RegExp(`page=${lastOf50}&limit=50`));
    await expect(summary(page)).toHaveText(pageSummary(lastOf50, 50, totalCount));
  });

  test("'Back to assets' returns to the list view the asset was opened from", async ({ page }) => {
    await openAssets(page, '?page=4&limit=20');
    await expect(summary(page)).toHaveText(/^Page 4 of/);
    await page
      .getByRole('button', { name: /^Actions for asset / })
      .first()
      .click();
    await page.getByRole('menuitem', { name: ASSET_TEXTS.viewDetails }).click();
    await expect(page).toHaveURL(/\/assets\/asset\//);
    await page.getByRole('link', { name: ASSET_PAGE_TEXTS.backToAssets }).click();
    await expect(page).toHaveURL(/\/assets\/assets\?page=4&limit=20$/);
  });

  test('search (debounced), role filter and each date filter return to page 1 with the server totals', async ({ page }) => {
    const first = (await listLoans(page, {})).loans[0];
    if (!first) throw new Error('no loans');
    const fragment = first.uli.slice(2, 12);
    await openAssets(page, '?page=2&limit=10');
    await search(page).fill(fragment);
    await expect(page).toHaveURL(new RegExp(`query=${fragment}`));
    await expect(page).toHaveURL(/page=1&/);
    await loaded(page);
    const searched = await listLoans(page, { query: fragment });
    await expect(summary(page)).toHaveText(pageSummary(1, 10, searched.totalCount));
    await expect(uliCells(page).first()).toContainText(fragment);
    await search(page).fill('');
    await expect(page).not.toHaveURL(/query=/);
    await loaded(page);

    await page.getByRole('button', { name: `${ASSET_TEXTS.roles} ${MULTI_SELECT_TEXTS.selected(DEFAULT_ROLE_FILTER.length)}` }).click();
    await page.getByRole('checkbox', { name: 'Originator' }).check();
    await expect(page).toHaveURL(/roles=OWNER%2CCONTROLLER%2CSERVICER%2CSUB_SERVICER%2CSECURED_PARTY%2CORIGINATOR/);
    await page.getByRole('searchbox', { name: MULTI_SELECT_TEXTS.search(ASSET_TEXTS.roles) }).fill('zzz');
    await expect(page.getByText(MULTI_SELECT_TEXTS.noResults)).toBeVisible();
    await expect(page.getByText(`${MULTI_SELECT_TEXTS.itemsShown}: 0`)).toBeVisible();
    await page.keyboard.press('Escape');
    await loaded(page);
    const withOriginator = await listLoans(page, { participantRoles: FILTERABLE_ROLES.join(',') });
    await expect(summary(page)).toHaveText(pageSummary(1, 10, withOriginator.totalCount));

    await openAssets(page);
    for (const filter of DATE_FILTERS) {
      await page.getByRole('combobox', { name: ASSET_TEXTS.dateFilter }).selectOption({ label: DATE_FILTER_LABELS[filter] });
      await expect(page).toHaveURL(new RegExp(`updated=${filter}`));
      await loaded(page);
      const expected = await listLoans(page, { oldestDateLastUpdated: dateFilterStart(filter, new Date()) });
      await expect(summary(page)).toHaveText(pageSummary(1, 10, expected.totalCount));
    }
  });

  test('the role filter can be emptied: Select All toggles every role on and off; with none, no list is asked for', async ({
    page,
    expectNoAxeViolations,
  }) => {
    await openAssets(page);
    const listRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === PATHS.loans) listRequests.push(request.url());
    });
    const rolesButton = (count: number) => page.getByRole('button', { name: `${ASSET_TEXTS.roles} ${MULTI_SELECT_TEXTS.selected(count)}` });
    const selectAll = page.getByRole('checkbox', { name: MULTI_SELECT_TEXTS.selectAll, exact: true });
    await rolesButton(DEFAULT_ROLE_FILTER.length).click();
    await selectAll.click();
    await expect(rolesButton(FILTERABLE_ROLES.length)).toBeVisible();
    await expect(selectAll).toBeChecked();
    await loaded(page);
    await selectAll.click();
    await expect(rolesButton(0)).toBeVisible();
    await expect(selectAll).not.toBeChecked();
    for (const role of FILTERABLE_ROLES)
      await expect(page.getByRole('checkbox', { name: partyRoleLabel(role), exact: true })).not.toBeChecked();
    await page.keyboard.press('Escape');
    await expect(table(page).getByText(ASSET_TEXTS.chooseRole)).toBeVisible();
    await expect(page).toHaveURL(/roles=(&|$)/);
    await expect(summary(page)).toHaveText(pageSummary(1, 10, 0));
    await expect(page.getByRole('button', { name: ASSET_TEXTS.exportCsv })).toHaveCount(0);
    await expectNoAxeViolations();
    // The reload keeps none chosen, and still asks for no list.
    const requestsBefore = listRequests.length;
    await page.reload();
    await expect(table(page).getByText(ASSET_TEXTS.chooseRole)).toBeVisible();
    await expect(rolesButton(0)).toBeVisible();
    expect(listRequests).toHaveLength(requestsBefore);
    // Unchecking the last role one by one also leaves none (the defaults do not come back).
    await rolesButton(0).click();
    await page.getByRole('checkbox', { name: partyRoleLabel('OWNER'), exact: true }).check();
    await expect(rolesButton(1)).toBeVisible();
    await loaded(page);
    await page.getByRole('checkbox', { name: partyRoleLabel('OWNER'), exact: true }).uncheck();
    await expect(rolesButton(0)).toBeVisible();
    await expect(table(page).getByText(ASSET_TEXTS.chooseRole)).toBeVisible();
    expect(listRequests.every((url) => new URL(url).searchParams.get('participantRoles') !== '')).toBe(true);
    expect(listRequests.length).toBeGreaterThan(requestsBefore);
  });

  test('sorts a column ascending, descending, then none, told by aria-sort', async ({ page }) => {
    await openAssets(page);
    const header = page.getByRole('columnheader', { name: /ULI/ });
    await expect(header).toHaveAttribute('aria-sort', 'none');
    const ascending = await listLoans(page, { sortBy: 'uli', sortDirection: 'asc' });
    const descending = await listLoans(page, { sortBy: 'uli', sortDirection: 'desc' });
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/sortBy=uli&sortDirection=asc/);
    await expect(uliCells(page).first()).toHaveText(ascending.loans[0]?.uli ?? '');
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(uliCells(page).first()).toHaveText(descending.loans[0]?.uli ?? '');
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'none');
    await expect(page).not.toHaveURL(/sortBy/);
  });

  test('resizes a column by keyboard, announced, the announcement cleared', async ({ page }) => {
    await openAssets(page);
    const handle = page.getByRole('separator', { name: COLUMN_RESIZE_TEXTS.handle('ULI') });
    const header = page.getByRole('columnheader', { name: /ULI/ });
    const before = Number(await handle.getAttribute('aria-valuenow'));
    const widthBefore = (await header.boundingBox())?.width ?? 0;
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    const announcement = page.getByTestId('column-resize-announcement');
    await expect(announcement).toHaveText(COLUMN_RESIZE_TEXTS.announcement('ULI', before + 10));
    await expect(handle).toHaveAttribute('aria-valuenow', String(before + 10));
    expect(Math.round(((await header.boundingBox())?.width ?? 0) - widthBefore)).toBe(10);
    await expect(announcement).toHaveText('');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(announcement).toHaveText(COLUMN_RESIZE_TEXTS.announcement('ULI', before - 10));
  });

  test('row actions lead to the asset page, its documents and the deactivation form; the open menu is in the main landmark, axe clean', async ({
    page,
    expectNoAxeViolations,
  }) => {
    await openAssets(page);
    const uli = (await uliCells(page).first().textContent()) ?? '';
    const { loans } = await listLoans(page, {});
    const loan = loans.find((entry) => entry.uli === uli);
    await page.getByRole('button', { name: ASSET_TEXTS.rowActions(uli) }).click();
    // Opened in the page's portal container: landmark navigation (and axe's 'region') finds it in <main>.
    await expect(page.getByRole('main').getByRole('menu')).toBeVisible();
    await expectNoAxeViolations();
    await expect(page.getByRole('menuitem', { name: ASSET_TEXTS.viewDocuments })).toHaveAttribute(
      'href',
      `/registry${APP_PATHS.asset(loan?.loanId ?? '', 'documents')}`,
    );
    // Deactivate leads to the form where the deactivation rule allows it, else says why it cannot.
    const refusal = loan ? deactivationBlocker(deactivationSubjectOfItem(loan)) : null;
    if (refusal) {
      await expect(page.getByRole('menuitem', { name: ASSET_TEXTS.deactivate })).toHaveAccessibleDescription(refusal);
    } else {
      await expect(page.getByRole('menuitem', { name: ASSET_TEXTS.deactivate })).toHaveAttribute(
        'href',
        `/registry${APP_PATHS.deactivate(loan?.loanId ?? '')}`,
      );
    }
    await page.getByRole('menuitem', { name: ASSET_TEXTS.viewDetails }).click();
    await expect(page).toHaveURL(new RegExp(`${APP_PATHS.asset(loan?.loanId ?? '')}$`));
  });

  test('keyboard: paging to the end and clearing the selection keep the focus; the roles search starts over; actions stay in view', async ({
    page,
  }) => {
    await openAssets(page);
    // Enter on 'Last page': the button becomes unavailable (aria-disabled) but keeps the focus.
    const last = page.getByRole('button', { name: PAGINATION_TEXTS.last });
    await last.focus();
    await page.keyboard.press('Enter');
    await expect(last).toHaveAttribute('aria-disabled', 'true');
    await expect(last).toBeFocused();

    // 'Clear selection' goes away with the selection: the focus moves to the page's checkbox.
    const firstRow = page.getByRole('checkbox', { name: /^Select asset / }).first();
    await firstRow.focus();
    await page.keyboard.press('Space');
    await expect(firstRow).toBeChecked();
    await expect(firstRow).toBeFocused();
    await page.getByRole('button', { name: ASSET_TEXTS.clearSelection }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('checkbox', { name: ASSET_TEXTS.selectPage })).toBeFocused();

    // The roles list opened again from the keyboard shows every role, not the last search.
    const roles = page.getByRole('button', { name: `${ASSET_TEXTS.roles} ${MULTI_SELECT_TEXTS.selected(DEFAULT_ROLE_FILTER.length)}` });
    await roles.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.type('zzz');
    await expect(page.getByText(`${MULTI_SELECT_TEXTS.itemsShown}: 0`)).toBeVisible();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('searchbox', { name: MULTI_SELECT_TEXTS.search(ASSET_TEXTS.roles) })).toHaveValue('');
    await expect(page.getByText(`${MULTI_SELECT_TEXTS.itemsShown}: ${FILTERABLE_ROLES.length}`)).toBeVisible();
    await page.keyboard.press('Escape');

    // The row actions are pinned to the right edge of the table's scrolling region.
    const region = await page.getByRole('region', { name: ASSET_TEXTS.tableLabel }).boundingBox();
    const actions = await page
      .getByRole('button', { name: /^Actions for asset / })
      .first()
      .boundingBox();
    expect(region && actions && actions.x + actions.width <= region.x + region.width).toBe(true);
  });

  test('exports the selected rows, then the whole filtered set, as CSV', async ({ page }) => {
    await openAssets(page);
    const ulis = await uliCells(page).allTextContents();
    await page.getByRole('checkbox', { name: ASSET_TEXTS.selectRow(ulis[0] ?? '') }).check();
    await page.getByRole('checkbox', { name: ASSET_TEXTS.selectRow(ulis[2] ?? '') }).check();
    const [selectedFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ASSET_TEXTS.exportSelectedCsv(2) }).click(),
    ]);
    const selected = await downloadedRecords(selectedFile);
    expect(selected).toHaveLength(3);
    expect(
      selected
        .slice(1)
        .map((record) => record.find((cell) => cell === ulis[0] || cell === ulis[2]))
        .sort(),
    ).toEqual([ulis[0], ulis[2]].sort());

    await page.getByRole('button', { name: ASSET_TEXTS.clearSelection }).click();
    await page.getByRole('combobox', { name: ASSET_TEXTS.dateFilter }).selectOption({ label: DATE_FILTER_LABELS.last30Days });
    await loaded(page);
    const expected = await listLoans(page, { oldestDateLastUpdated: dateFilterStart('last30Days', new Date()) });
    const [wholeFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ASSET_TEXTS.exportCsv }).click(),
    ]);
    expect(await downloadedRecords(wholeFile)).toHaveLength(expected.totalCount + 1);
  });
});

test.describe('pool assets', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn('admin@registry.test');
  });

  test("shows the pool's name and assets, pages them and exports the pool CSV; an unknown pool is not found", async ({
    page,
    expectNoAxeViolations,
  }) => {
    const pools = await productGet<Pool[]>(page, `${PATHS.pools}?state=COMPLETE`);
    const pool = [...pools].sort((a, b) => b.count - a.count)[0];
    if (!pool) throw new Error('the admin organization has no completed pool');
    const detail = await productGet<PoolDetail>(page, `${PATHS.pool(pool.id)}?limit=10&offset=0`);
    await page.goto(`.${APP_PATHS.poolAssets(pool.id)}`);
    await expect(page.getByRole('heading', { level: 1, name: pool.name })).toBeVisible();
    await loaded(page);
    await expect(page).toHaveURL(/page=1&limit=10/);
    await expect(summary(page)).toHaveText(pageSummary(1, 10, detail.totalCount));
    await expect(bodyRows(page)).toHaveCount(Math.min(10, detail.totalCount));
    await expectNoAxeViolations();

    const [poolFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ASSET_TEXTS.exportCsv }).click(),
    ]);
    expect(await downloadedRecords(poolFile)).toHaveLength(detail.totalCount + 1);
    const firstUli = (await uliCells(page).first().textContent()) ?? '';
    await page.getByRole('checkbox', { name: ASSET_TEXTS.selectRow(firstUli) }).check();
    const [oneFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: ASSET_TEXTS.exportSelectedCsv(1) }).click(),
    ]);
    const one = await downloadedRecords(oneFile);
    expect(one).toHaveLength(2);
    expect(one[1]).toContain(firstUli);

    if (detail.totalCount > 10) {
      await page.getByRole('button', { name: PAGINATION_TEXTS.next }).click();
      await expect(summary(page)).toHaveText(pageSummary(2, 10, detail.totalCount));
      await page.goBack();
      await expect(summary(page)).toHaveText(pageSummary(1, 10, detail.totalCount));
    }

    await page.goto(`.${APP_PATHS.poolAssets('00000000-0000-4000-8000-00000000dead')}`);
    await expect(page.getByRole('heading', { level: 1, name: ASSET_TEXTS.poolNotFoundTitle })).toBeVisible();
    await page.goto(`.${APP_PATHS.poolAssets('not-a-uuid')}`);
    await expect(page.getByRole('heading', { level: 1, name: ASSET_TEXTS.poolNotFoundTitle })).toBeVisible();
  });
});
