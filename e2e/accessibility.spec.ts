// axe on every screen of this release: login, dashboard (desktop and mobile), Page Not Found (signed out and in).
import { TEXTS } from '../src/domain/texts';
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
