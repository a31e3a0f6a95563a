// The pools screen against the real server and seeded database: tabs Assets and Pools, the
// completed pools (name linking to the pool's assets, count, total amount, date completed in
// SPEC formats), the last-30-days filter (one month, local start of day) in the URL with the
// back button, axe clean.
import type { Page } from '@playwright/test';
import type { UserParticipant } from '../src/contract/participants';
import type { Pool } from '../src/contract/pools';
import type { UsersMe } from '../src/contract/users';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { dateFilterStart } from '../src/domain/date-filters';
import { formatCurrency, formatDate } from '../src/domain/format';
import { pageSummary } from '../src/domain/asset-table';
import { PAGINATION_TEXTS } from '../src/domain/texts';
import { ASSET_TEXTS, POOLS_TEXTS } from '../src/domain/asset-texts';
import { expect, test } from './support/fixtures';

async function productGet<T>(page: Page, path: string, participantId: string): Promise<T> {
  return page.evaluate(
    async ({ path, participantId, header }) => {
      const response = await fetch(path, { headers: { [header]: participantId, accept: 'application/json' }, credentials: 'include' });
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      return response.json();
    },
    { path, participantId, header: PARTICIPANT_HEADER },
  );
}

interface PoolsOf {
  readonly participantId: string;
  readonly all: Pool[];
  readonly lastMonth: Pool[];
}

/** The admin's organization with the most completed pools, some of them older than a month. */
async function organizationWithPools(page: Page): Promise<PoolsOf> {
  const current = (await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId)) as string;
  const me = await productGet<UsersMe>(page, PATHS.usersMe, current);
  const memberships = await productGet<UserParticipant[]>(page, PATHS.userParticipants(me.user.id), current);
  const since = encodeURIComponent(dateFilterStart('last30Days', new Date(), 'month'));
  const candidates: PoolsOf[] = [];
  for (const { participant } of memberships) {
    const all = await productGet<Pool[]>(page, `${PATHS.pools}?state=COMPLETE`, participant.id);
    const lastMonth = await productGet<Pool[]>(page, `${PATHS.pools}?state=COMPLETE&completedAfter=${since}`, participant.id);
    if (lastMonth.length > 0 && lastMonth.length < all.length) candidates.push({ participantId: participant.id, all, lastMonth });
  }
  const best = candidates.sort((a, b) => b.all.length - a.all.length)[0];
  if (!best) throw new Error('no organization of the admin has pools both within and before the last month');
  await page.evaluate(({ key, id }) => window.localStorage.setItem(key, id), { key: STORAGE_KEYS.participantId, id: best.participantId });
  return best;
}

const table = (page: Page) => page.getByRole('table', { name: POOLS_TEXTS.tableLabel });
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const summary = (page: Page) => page.getByRole('navigation', { name: PAGINATION_TEXTS.label }).getByRole('status');
const rangeLink = (page: Page, name: string) => page.getByRole('group', { name: POOLS_TEXTS.dateFilterLabel }).getByRole('link', { name });

/** The table shows page `at` of `pools`, ten a page (SPEC section 9's default), and says so. */
async function expectPools(page: Page, pools: Pool[], at = 1) {
  const shown = pools.slice((at - 1) * 10, at * 10);
  await expect(table(page)).toHaveAttribute('aria-busy', 'false');
  await expect(bodyRows(page)).toHaveCount(shown.length);
  await expect(bodyRows(page).locator('td:first-child')).toHaveText(shown.map((pool) => pool.name));
  await expect(bodyRows(page).locator('td:nth-child(4)')).toHaveText(shown.map((pool) => formatDate(pool.dateCompleted)));
  await expect(summary(page)).toHaveText(pageSummary(at, 10, pools.length));
}

test('pools: tabs, the completed pools in SPEC formats, a name leads to its assets; axe clean', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  await signIn('admin@registry.test');
  const { all } = await organizationWithPools(page);
  await page.goto(`.${APP_PATHS.pools}`);
  await expect(page.getByRole('heading', { level: 1, name: POOLS_TEXTS.title })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: ASSET_TEXTS.assetListsNavigation });
  await expect(tabs.getByRole('link', { name: ASSET_TEXTS.poolsTab })).toHaveAttribute('aria-current', 'page');
  await expect(tabs.getByRole('link', { name: ASSET_TEXTS.assetsTab })).not.toHaveAttribute('aria-current', 'page');
  await expect(rangeLink(page, POOLS_TEXTS.allDates)).toHaveAttribute('aria-current', 'true');
  await expectPools(page, all);

  const first = all[0] as Pool;
  const cells = bodyRows(page).first().locator('td');
  await expect(cells.nth(1)).toHaveText(first.count.toLocaleString('en-US'));
  await expect(cells.nth(2)).toHaveText(formatCurrency(first.totalAmount));
  await expect(cells.nth(2)).toHaveText(/^\$[\d,]+$/);
  await expect(cells.nth(3)).toHaveText(/^\d{2}-\d{2}-\d{4}$/);
  await expectNoAxeViolations();

  await table(page).getByRole('link', { name: first.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${APP_PATHS.poolAssets(first.id)}`));
  await expect(page.getByRole('heading', { level: 1, name: first.name })).toBeVisible();
  await page.goBack();
  await expectPools(page, all);
  await tabs.getByRole('link', { name: ASSET_TEXTS.assetsTab }).click();
  await expect(page).toHaveURL(new RegExp(`${APP_PATHS.assets}`));
});

test('pools: last 30 days shows the pools completed since the same day last month; the URL keeps it; back shows all', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  await signIn('admin@registry.test');
  const { all, lastMonth } = await organizationWithPools(page);
  await page.goto(`.${APP_PATHS.pools}`);
  await expectPools(page, all);

  await rangeLink(page, 'Last 30 days').click();
  await expect(page).toHaveURL(/\/assets\/pools\?completed=last30Days$/);
  await expect(rangeLink(page, 'Last 30 days')).toHaveAttribute('aria-current', 'true');
  await expectPools(page, lastMonth);
  const since = new Date(dateFilterStart('last30Days', new Date(), 'month'));
  for (const pool of lastMonth) expect(new Date(`${pool.dateCompleted}T23:59:59`).getTime()).toBeGreaterThanOrEqual(since.getTime());
  await expectNoAxeViolations();

  // A reload keeps the filter; the back button returns to every pool.
  await page.reload();
  await expectPools(page, lastMonth);
  await page.goBack();
  await expect(page).toHaveURL(/\/assets\/pools$/);
  await expect(rangeLink(page, POOLS_TEXTS.allDates)).toHaveAttribute('aria-current', 'true');
  await expectPools(page, all);
});

test("pools: 'Back to pools' on a pool's assets returns to the pools view it was opened from", async ({ page, signIn }) => {
  await signIn('admin@registry.test');
  const { lastMonth } = await organizationWithPools(page);
  await page.goto(`.${APP_PATHS.pools}?completed=last30Days`);
  await expectPools(page, lastMonth);
  const first = lastMonth[0] as Pool;
  await table(page).getByRole('link', { name: first.name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: first.name })).toBeVisible();
  await page.getByRole('link', { name: ASSET_TEXTS.backToPools }).click();
  await expect(page).toHaveURL(/\/assets\/pools\?completed=last30Days$/);
  await expect(rangeLink(page, 'Last 30 days')).toHaveAttribute('aria-current', 'true');
  await expectPools(page, lastMonth);
});

test('pools: a page at a time; the page is in the URL, kept by a reload, undone by the back button', async ({ page, signIn }) => {
  await signIn('admin@registry.test');
  const { all } = await organizationWithPools(page);
  // The demo seed gives the admin's largest organization more than a page of pools.
  expect(all.length).toBeGreaterThan(10);
  await page.goto(`.${APP_PATHS.pools}`);
  await expectPools(page, all);
  await page.getByRole('button', { name: PAGINATION_TEXTS.next }).click();
  await expect(page).toHaveURL(/\/assets\/pools\?page=2&limit=10$/);
  await expectPools(page, all, 2);
  await page.reload();
  await expectPools(page, all, 2);
  await page.goBack();
  await expect(page).toHaveURL(/\/assets\/pools$/);
  await expectPools(page, all);
  // A page past the last shows the last one.
  await page.goto(`.${APP_PATHS.pools}?page=99&limit=10`);
  const last = Math.ceil(all.length / 10);
  await expect(page).toHaveURL(new RegExp(`page=${last}&limit=10$`));
  await expectPools(page, all, last);
});
