// The signed-in shell: navigation memory, the collapsed rail, mobile drawer and toasts, footer,
// routes of later screens.
import type { Page } from '@playwright/test';
import { FACTOR_TEXTS, FACTOR_TYPE_LABELS } from '../src/domain/security-factors';
import { BATCH_DOWNLOAD_TEXTS, SUPPORT_CONTACT, NAVIGATION_LABELS, TEXTS } from '../src/domain/texts';
import { expect, test } from './support/fixtures';

/** The area two boxes share. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return Math.max(0, width) * Math.max(0, height);
}

/** The focused element's box, and whether anything in the main navigation was scrolled sideways. */
const focusedInNavigation = (page: Page) =>
  page.evaluate(() => {
    const navigation = document.querySelector('nav[aria-label="Main"]') as HTMLElement;
    const focused = document.activeElement as HTMLElement;
    const box = focused.getBoundingClientRect();
    const scrolledSideways = [navigation, ...navigation.querySelectorAll<HTMLElement>('*')].some((element) => element.scrollLeft !== 0);
    return {
      inside: navigation.contains(focused),
      name: focused.getAttribute('aria-label') ?? focused.textContent?.trim() ?? '',
      left: box.left,
      right: box.right,
      navigationRight: navigation.getBoundingClientRect().right,
      scrolledSideways,
    };
  });

test('collapsed navigation survives a reload', async ({ page, signIn }) => {
  await signIn('user@registry.test');
  const navigation = page.getByRole('navigation', { name: 'Main' });
  await page.getByRole('button', { name: 'Collapse navigation' }).click();
  await expect(navigation.getByText(NAVIGATION_LABELS.assets)).toHaveClass(/sr-only/);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Expand navigation' })).toBeVisible();
  await expect(navigation.getByText(NAVIGATION_LABELS.assets)).toHaveClass(/sr-only/);
  await page.getByRole('button', { name: 'Expand navigation' }).click();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Collapse navigation' })).toBeVisible();
});

test('the collapsed rail shows icons only: panels open beside it, the badge keeps to the corner, nothing clipped takes focus', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  await signIn('admin@registry.test');
  const navigation = page.getByRole('navigation', { name: 'Main' });
  await page.getByRole('button', { name: 'Collapse navigation' }).click();
  const expand = page.getByRole('button', { name: 'Expand navigation' });
  await expect(expand).toBeVisible();

  // The unread badge sits on the Messages icon's corner: most of the icon stays in view.
  const messages = navigation.getByRole('link', { name: /^Messages, \d+ unread$/ });
  const icon = (await messages.locator('svg').boundingBox())!;
  const badge = (await messages.getByTestId('unread-badge').boundingBox())!;
  expect(overlap(icon, badge)).toBeLessThanOrEqual(0.25 * icon.width * icon.height);
  const rail = (await navigation.boundingBox())!;
  expect(badge.x + badge.width).toBeLessThanOrEqual(rail.x + rail.width);

  // Every stop of the tab order in the rail is a whole icon inside it; nothing scrolls sideways.
  await expand.focus();
  const stops: string[] = [];
  for (;;) {
    await page.keyboard.press('Tab');
    const focused = await focusedInNavigation(page);
    if (!focused.inside) break;
    stops.push(focused.name);
    expect(focused.left, focused.name).toBeGreaterThanOrEqual(0);
    expect(focused.right, focused.name).toBeLessThanOrEqual(focused.navigationRight);
    expect(focused.scrolledSideways, focused.name).toBe(false);
  }
  expect(stops).toEqual([
    NAVIGATION_LABELS.organizations,
    NAVIGATION_LABELS.dashboard,
    NAVIGATION_LABELS.assets,
    NAVIGATION_LABELS.administration,
    expect.stringMatching(/^Messages, \d+ unread$/),
    NAVIGATION_LABELS.downloads,
    NAVIGATION_LABELS.applications,
    TEXTS.editProfile,
    TEXTS.signOut,
  ]);
  await expect(navigation.getByText(BATCH_DOWNLOAD_TEXTS.noDownloads)).toHaveCount(0);

  // Applications and Downloads open beside the rail, in full, and close with Escape.
  const applications = navigation.getByRole('button', { name: NAVIGATION_LABELS.applications });
  await applications.click();
  const portfolio = navigation.getByRole('link', { name: 'Portfolio Manager' });
  await expect(portfolio).toBeVisible();
  expect((await portfolio.boundingBox())!.x).toBeGreaterThanOrEqual(rail.x + rail.width);
  await expectNoAxeViolations();
  await page.keyboard.press('Escape');
  await expect(portfolio).toHaveCount(0);
  await expect(applications).toBeFocused();

  const downloads = navigation.getByRole('button', { name: NAVIGATION_LABELS.downloads });
  await downloads.click();
  const status = navigation.getByText(BATCH_DOWNLOAD_TEXTS.noDownloads);
  await expect(status).toBeVisible();
  expect((await status.boundingBox())!.x).toBeGreaterThanOrEqual(rail.x + rail.width);
  await page.keyboard.press('Escape');
  await expect(status).toHaveCount(0);
  await expect(downloads).toBeFocused();
});

test('applications follow the roles; footer shows the support contact', async ({ page, signIn }) => {
  await signIn('admin@registry.test');
  await page.getByRole('button', { name: NAVIGATION_LABELS.applications }).click();
  for (const name of ['Lead Portal', 'Customer Service Portal', 'Portfolio Manager', 'Admin Pricing']) {
    await expect(page.getByRole('link', { name })).toBeVisible();
  }
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('link', { name: SUPPORT_CONTACT.email })).toBeVisible();
  await expect(footer.getByRole('link', { name: SUPPORT_CONTACT.phone })).toBeVisible();
  await expect(footer).toContainText(SUPPORT_CONTACT.postalAddress[1]);
});

test('Edit Profile opens the security factors page', async ({ page, signIn }) => {
  await signIn('user@registry.test');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: TEXTS.editProfile }).click();
  await expect(page).toHaveURL(/\/registry\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: FACTOR_TEXTS.title })).toBeFocused();
  // Every account holds its email address as a factor.
  await expect(page.getByRole('main').getByRole('listitem').filter({ hasText: FACTOR_TYPE_LABELS.Email })).toBeVisible();
});

test.describe('mobile', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the top bar opens a drawer with the navigation', async ({ page, signIn }) => {
    await signIn('user@registry.test');
    await expect(page.getByRole('button', { name: 'Collapse navigation' })).toBeHidden();
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog');
    await expect(drawer.getByRole('link', { name: NAVIGATION_LABELS.messages })).toBeVisible();
    await drawer.getByRole('link', { name: NAVIGATION_LABELS.messages }).click();
    await expect(page).toHaveURL(/\/registry\/messages$/);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // As on desktop, the new page's heading takes focus, and keeps it once the drawer is gone.
    const heading = page.getByRole('heading', { level: 1, name: 'Messages' });
    await expect(heading).toBeFocused();
    await page.waitForTimeout(200);
    await expect(heading).toBeFocused();
    // Closed without choosing a page, the drawer gives focus back to its button.
    const open = page.getByRole('button', { name: 'Open navigation' });
    await open.click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(open).toBeFocused();
  });

  test('toasts fit the phone screen with a margin', async ({ page, signIn }) => {
    await signIn('user@registry.test');
    // One product call refused as for a participant the user no longer belongs to: the session's error toast.
    await page.route('**/service-dart/**', (route) => route.fulfill({ status: 403, body: 'Invalid participant' }), { times: 1 });
    await page.reload();
    const toast = page.getByRole('region', { name: 'Notifications' }).getByRole('alert').first();
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(8);
    expect(box.x + box.width).toBeLessThanOrEqual(390 - 8);
    expect(box.y + box.height).toBeLessThanOrEqual(844);
  });
});
