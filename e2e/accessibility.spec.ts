// axe on every screen of this release: login, dashboard (desktop and mobile), Page Not Found (signed out and in),
// and the asset table at 1440 px (its default columns fit, a party's state shown whole, the Columns menu).
import type { LoanList } from '../src/contract/loans';
import { PATHS } from '../src/contract/paths';
import { ASSET_COLUMN_IDS, ASSET_COLUMN_LABELS, DEFAULT_HIDDEN_ASSET_COLUMNS } from '../src/domain/asset-columns';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { COLUMN_VISIBILITY_TEXTS, TEXTS } from '../src/domain/texts';
import { ASSET_TEXTS } from '../src/domain/asset-texts';
import { expect, test } from './support/fixtures';

test('login has no axe violations, with and without the notice', async ({ page, expectNoAxeViolations }) => {
  await page.goto('/registry/login');
  await expect(page.getByRole('button', { name: TEXTS.logIn })).toBeEnabled();
  await expectNoAxeViolations();
  await page.goto('/registry/login?unauthorized=true');
  await expect(page.getByRole('heading', { name: TEXTS.notRegisteredTitle })).toBeVisible();
  await expectNoAxeViolations();
});

test('the hosted sign-in page has no axe violations', async ({ page, expectNoAxeViolations }) => {
  await page.goto('/registry/login');
  await page.getByRole('button', { name: TEXTS.logIn }).click();
  await expect(page.getByLabel('Email')).toBeVisible();
  await expectNoAxeViolations();
});

test('dashboard has no axe violations, expanded, collapsed and with the switcher open', async ({ page, signIn, expectNoAxeViolations }) => {
  await signIn('admin@registry.test');
  await expectNoAxeViolations();
  await page.getByRole('combobox').click();
  await expect(page.getByRole('option').first()).toBeVisible();
  await expectNoAxeViolations();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Collapse navigation' }).click();
  await expectNoAxeViolations();
});

test.describe('mobile', () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test('dashboard and drawer have no axe violations', async ({ page, signIn, expectNoAxeViolations }) => {
    await signIn('user@registry.test');
    await expectNoAxeViolations();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(page.getByRole('dialog').getByRole('link', { name: 'Assets' })).toBeVisible();
    await expectNoAxeViolations();
  });
});

test('Page Not Found for any other path, without violations', async ({ page, expectNoAxeViolations }) => {
  await page.goto('/registry/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.pageNotFound })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expectNoAxeViolations();
});

test('signed in, Page Not Found keeps the navigation, without violations', async ({ page, signIn, expectNoAxeViolations }) => {
  await signIn('user@registry.test');
  await page.goto('/registry/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.pageNotFound })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expectNoAxeViolations();
  await page.getByRole('link', { name: 'Go to the dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();
});

test('keyboard: skip link reaches the main content', async ({ page, signIn }) => {
  await signIn('user@registry.test');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('main').getByRole('link').first()).toBeFocused();
});

test.describe('asset table at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("shows every default column without scrolling, a party's state apart from its name and whole; columns are chosen and remembered; axe clean", async ({
    page,
    signIn,
    expectNoAxeViolations,
  }) => {
    await signIn('admin@registry.test');
    // A loan whose owner's role is still Requested (the seed has every role state).
    const list = await page.evaluate(
      async ({ path, header, key }) => {
        const response = await fetch(path, { headers: { [header]: window.localStorage.getItem(key) ?? '' }, credentials: 'include' });
        return (await response.json()) as LoanList;
      },
      { path: `${PATHS.loans}?limit=100&offset=0`, header: PARTICIPANT_HEADER, key: STORAGE_KEYS.participantId },
    );
    const requested = list.loans.find((loan) => loan.owner?.state === 'REQUESTED' && typeof loan.owner.currentValue === 'object');
    if (!requested?.owner?.currentValue || typeof requested.owner.currentValue !== 'object')
      throw new Error('no Requested owner in the seed');
    const ownerName = requested.owner.currentValue.participantName;

    // A full page (the window scrolls down, its scroll bar taking width): every shown column fits,
    // the table does not scroll sideways.
    await page.goto('./assets/assets?page=1&limit=10');
    const table = page.getByRole('table');
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await expect(table.locator('tbody tr')).toHaveCount(10);
    const region = page.getByRole('region', { name: ASSET_TEXTS.tableLabel });
    expect(await region.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath('asset-table-1440-page.png'), fullPage: true });
    await page.goto(`./assets/assets?page=1&limit=10&query=${encodeURIComponent(requested.uli)}`);
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table).toHaveAttribute('aria-busy', 'false');
    const headers = (await table.getByRole('columnheader').allTextContents()).map((text) => text.trim()).filter(Boolean);
    const shownByDefault = ASSET_COLUMN_IDS.filter((id) => !DEFAULT_HIDDEN_ASSET_COLUMNS.includes(id)).map((id) => ASSET_COLUMN_LABELS[id]);
    expect(headers).toEqual([...shownByDefault, ASSET_TEXTS.actionsColumn]);

    // The owner's name and its state, apart and whole: the badge is inside its cell, not cut.
    const ownerCell = table
      .locator('tbody tr')
      .first()
      .locator('td')
      .nth(1 + shownByDefault.indexOf(ASSET_COLUMN_LABELS.owner));
    await expect(ownerCell).toContainText(ownerName);
    const badge = ownerCell.getByTestId('party-state');
    await expect(badge).toHaveText(/Requested/);
    const [cellBox, badgeBox] = [await ownerCell.boundingBox(), await badge.boundingBox()];
    expect(badgeBox && cellBox && badgeBox.x + badgeBox.width <= cellBox.x + cellBox.width).toBe(true);
    expect(await badge.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    expect(await ownerCell.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await page.screenshot({ path: test.info().outputPath('asset-table-1440.png') });
    await expectNoAxeViolations();

    // Keyboard: the Columns menu opens, Space shows Trade Date and hides Status.
    await page.getByRole('button', { name: COLUMN_VISIBILITY_TEXTS.button }).focus();
    await page.keyboard.press('Enter');
    const tradeDate = page.getByRole('checkbox', { name: ASSET_COLUMN_LABELS.tradeDate });
    await expect(tradeDate).not.toBeChecked();
    await tradeDate.focus();
    await page.keyboard.press('Space');
    await expect(tradeDate).toBeChecked();
    await page.getByRole('checkbox', { name: ASSET_COLUMN_LABELS.status }).uncheck();
    await expectNoAxeViolations();
    await page.keyboard.press('Escape');
    await expect(table.getByRole('columnheader', { name: ASSET_COLUMN_LABELS.tradeDate })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: ASSET_COLUMN_LABELS.status })).toHaveCount(0);

    // Remembered in the browser: a reload keeps the choice; 'Default columns' brings the defaults back.
    await page.reload();
    await expect(table).toHaveAttribute('aria-busy', 'false');
    await expect(table.getByRole('columnheader', { name: ASSET_COLUMN_LABELS.tradeDate })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: ASSET_COLUMN_LABELS.status })).toHaveCount(0);
    await page.getByRole('button', { name: COLUMN_VISIBILITY_TEXTS.button }).click();
    await page.getByRole('button', { name: COLUMN_VISIBILITY_TEXTS.reset }).click();
    await page.keyboard.press('Escape');
    const again = (await table.getByRole('columnheader').allTextContents()).map((text) => text.trim()).filter(Boolean);
    expect(again).toEqual([...shownByDefault, ASSET_TEXTS.actionsColumn]);
  });
});
