// Sign-in, organizations, 401 and invalid participant, sign-out: in Chromium against the real
// server and a freshly seeded database.
import type { Page } from '@playwright/test';
import { APP_PATHS } from '../src/domain/app-paths';
import { BASE_PATH, DEMO_PASSWORD, STORAGE_KEYS } from '../src/domain/constants';
import { MULTI_SELECT_TEXTS, NAVIGATION_LABELS, TEXTS } from '../src/domain/texts';
import { expect, submitSignIn, test } from './support/fixtures';

const organizationSearch = (page: Page) => page.getByRole('combobox', { name: NAVIGATION_LABELS.switchOrganization, exact: true });

test.describe('sign-in', () => {
  for (const email of ['admin@registry.test', 'ops@registry.test', 'user@registry.test']) {
    test(`${email} signs in through the hosted page and lands on the dashboard`, async ({ page, signIn }) => {
      await signIn(email);
      await expect(page.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      for (const tile of [NAVIGATION_LABELS.assets, NAVIGATION_LABELS.messages, NAVIGATION_LABELS.administration]) {
        await expect(page.getByRole('main').getByRole('heading', { level: 2, name: tile })).toBeVisible();
      }
    });
  }

  test('a wrong password is refused on the hosted page', async ({ page }) => {
    await submitSignIn(page, 'admin@registry.test', 'not-the-password');
    await expect(page.getByRole('alert')).toContainText(TEXTS.invalidCredentials);
    await expect(page.getByLabel('Email')).toHaveValue('admin@registry.test');
  });

  test('an unregistered identity sees the not-registered notice and can log out', async ({ page }) => {
    await submitSignIn(page, 'unregistered@registry.test');
    await page.waitForURL(/\/registry\/login/);
    await expect(page.getByRole('heading', { name: TEXTS.notRegisteredTitle })).toBeVisible();
    await expect(page.getByRole('link', { name: 'support@registry.test' })).toBeVisible();
    await page.getByRole('button', { name: TEXTS.logOut }).click();
    await expect(page.getByRole('button', { name: TEXTS.logIn })).toBeEnabled();
  });
});

test.describe('organizations', () => {
  test('admin searches 12 organizations, switches, and keeps the choice after reload', async ({ page, signIn }) => {
    await signIn('admin@registry.test');
    await organizationSearch(page).click();
    await expect(page.getByRole('option')).toHaveCount(12);
    const first = (await page.getByRole('option').first().textContent()) ?? '';
    const target = (await page.getByRole('option').nth(5).textContent()) ?? '';
    await organizationSearch(page).fill('no such organization');
    await expect(page.getByRole('status').filter({ hasText: MULTI_SELECT_TEXTS.noResults })).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(0);
    await organizationSearch(page).fill(target.slice(0, 6));
    await expect(page.getByText(MULTI_SELECT_TEXTS.noResults)).toHaveCount(0);
    const filtered = await page.getByRole('option').allTextContents();
    expect(filtered.length).toBeLessThan(12);
    expect(filtered).toContain(target);
    await page.getByRole('option', { name: target }).click();
    await expect(page).toHaveURL(/\/registry\/dashboard$/);
    await expect(page.getByTestId('current-organization')).toHaveText(target);
    expect(target).not.toBe(first);
    await page.reload();
    await expect(page.getByTestId('current-organization')).toHaveText(target);
    await expect(organizationSearch(page)).toHaveValue(target);
  });

  test('user@ with two organizations gets a list without a search box', async ({ page, signIn }) => {
    await signIn('user@registry.test');
    await expect(organizationSearch(page)).toHaveCount(0);
    await page.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }).click();
    await expect(page.getByRole('option')).toHaveCount(2);
  });

  test('the two-organization list works from the keyboard', async ({ page, signIn }) => {
    await signIn('user@registry.test');
    const listButton = page.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization });
    const before = (await page.getByTestId('current-organization').textContent()) ?? '';
    await listButton.focus();
    // Like a native select, the list opens with the arrow keys or Space.
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('listbox')).toBeVisible();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('current-organization')).not.toHaveText(before);
  });

  test('the searchable switcher works from the keyboard', async ({ page, signIn }) => {
    await signIn('admin@registry.test');
    await organizationSearch(page).focus();
    const options = await page.getByRole('option').allTextContents();
    const target = options.at(-1) ?? '';
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(target);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('current-organization')).toHaveText(target);
  });

  test('a stored organization the user no longer belongs to gives the toast and the dashboard', async ({ page, signIn }) => {
    await signIn('user@registry.test');
    await page.evaluate((key) => window.localStorage.setItem(key, '0b7c4c2e-9d1a-4e55-8f00-000000000000'), STORAGE_KEYS.participantId);
    await page.goto(`${BASE_PATH}${APP_PATHS.messages}`);
    await expect(page.getByRole('alert').filter({ hasText: TEXTS.invalidParticipantToast })).toBeVisible();
    await expect(page).toHaveURL(/\/registry\/dashboard$/);
    await expect(page.getByTestId('current-organization')).not.toBeEmpty();
  });
});

test.describe('session end', () => {
  test('a deleted session cookie leads to login with the notice', async ({ page, context, signIn }) => {
    await signIn('user@registry.test');
    await context.clearCookies();
    await page.reload();
    await page.waitForURL(/\/registry\/login\?unauthorized=true/);
    await expect(page.getByRole('heading', { name: TEXTS.notRegisteredTitle })).toBeVisible();
    await expect(page.getByRole('button', { name: TEXTS.logIn })).toBeEnabled();
  });

  test('a signed-out deep link comes back after signing in: the same screen, page and filters', async ({ page, context, signIn }) => {
    await signIn('user@registry.test');
    await context.clearCookies();
    const deepLink = `${APP_PATHS.assets}?page=2&limit=20`;
    await page.goto(`${BASE_PATH}${deepLink}`);
    await page.waitForURL(/\/registry\/login\?unauthorized=true&returnTo=/);
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe(deepLink);
    await expect(page.getByRole('heading', { name: TEXTS.notRegisteredTitle })).toBeVisible();
    await page.getByRole('button', { name: TEXTS.logIn }).click();
    await page.getByLabel('Email').fill('user@registry.test');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === `${BASE_PATH}${APP_PATHS.assets}` && url.search === '?page=2&limit=20');
    await expect(page.getByText(/^Page 2 of \d+\. Items 21 through 40$/)).toBeVisible();
  });

  test('sign-out returns to login and forgets the organization', async ({ page, signIn }) => {
    await signIn('admin@registry.test');
    await page.getByRole('button', { name: TEXTS.signOut }).click();
    await page.waitForURL(/\/registry\/login$/);
    await expect(page.getByRole('button', { name: TEXTS.logIn })).toBeEnabled();
    await expect(page.getByRole('heading', { name: TEXTS.notRegisteredTitle })).toHaveCount(0);
    expect(await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId)).toBeNull();
    await page.goto(`${BASE_PATH}${APP_PATHS.dashboard}`);
    await page.waitForURL(/\/registry\/login/);
  });
});
