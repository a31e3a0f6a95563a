// The banners against the real server: registry staff write a banner under /administration/banners
// (the form's check with SPEC section 8's message, the review, the save), it shows above the page
// without shifting it, is dismissed (and stays dismissed after a reload), and comes back once it
// is edited; axe clean on the banners screen and with a banner shown. The banner is made inactive
// at the end, so the other specs see no banner.
import type { Page } from '@playwright/test';
import { APP_PATHS } from '../src/domain/app-paths';
import { BANNER_SCREEN_TEXTS as T } from '../src/domain/banner-screen-texts';
import { BANNER_DATA_INVALID } from '../src/domain/banners';
import { expect, test } from './support/fixtures';

const region = (page: Page) => page.getByRole('region', { name: T.region });

async function openBannersScreen(page: Page) {
  await page.goto(`.${APP_PATHS.administration}`);
  await page.getByRole('link', { name: new RegExp(`^${T.screenTitle}`) }).click();
  await expect(page.getByRole('heading', { level: 1, name: T.screenTitle })).toBeVisible();
  await expect(page.getByRole('button', { name: T.newBanner })).toBeVisible();
}

/** Review and save the form as it is; the list shows again. */
async function reviewAndSave(page: Page) {
  await page.getByRole('button', { name: T.review }).click();
  await expect(page.getByRole('heading', { level: 2, name: T.reviewTitle })).toBeVisible();
  await page.getByRole('button', { name: T.confirm }).click();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText(T.saved)).toBeVisible();
  await expect(page.getByRole('button', { name: T.newBanner })).toBeVisible();
}

/**
 * The layout shifts (PerformanceObserver, buffered from the navigation on) that moved the banners
 * or the page's content: the main column's, not the navigation's or the notifications' own.
 */
const contentShifts = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const moved: string[] = [];
        const main = document.getElementById('main');
        const banners = document.querySelector('section[aria-label="Announcements"]');
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { sources?: { node?: Node | null }[] }[])
            for (const source of entry.sources ?? []) {
              const node = source.node;
              if (node && (main?.contains(node) || banners?.contains(node))) moved.push(node.textContent?.slice(0, 60) ?? '');
            }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(moved), 500);
      }),
  );

test('a banner written by registry staff shows, is dismissed, and comes back once edited', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  test.setTimeout(90_000);
  const message = `Scheduled maintenance ${Date.now()}: the registry is read-only from 8 to 10 pm ET.`;
  const edited = `${message} Moved to Sunday.`;
  await signIn('admin@registry.test');
  await openBannersScreen(page);
  await expectNoAxeViolations();

  // The form: an empty message is what the banner file would leave out.
  await page.getByRole('button', { name: T.newBanner }).click();
  await expect(page.getByRole('heading', { level: 2, name: T.newBanner })).toBeFocused();
  await page.getByRole('button', { name: T.review }).click();
  await expect(page.getByRole('alert').filter({ hasText: BANNER_DATA_INVALID })).toBeVisible();
  await expect(page.getByText(T.required, { exact: true })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Loan Registry' }).uncheck();
  await expect(page.getByText(T.appsRequired)).toBeVisible();
  await expectNoAxeViolations();
  await page.getByRole('checkbox', { name: 'Loan Registry' }).check();
  await page.getByRole('textbox', { name: T.message }).fill(message);
  await page.getByRole('radio', { name: T.warn }).check();
  await reviewAndSave(page);
  await expect(page.getByRole('row').filter({ hasText: message })).toBeVisible();

  // It shows above the page at once (the app read the file again), in a polite live region.
  await expect(region(page).getByText(message)).toBeVisible();
  await expect(region(page).getByRole('list')).toHaveAttribute('aria-live', 'polite');

  // On a fresh load of the dashboard the banner is there with the page's first paint: nothing moves.
  await page.goto(`.${APP_PATHS.dashboard}`);
  const heading = page.getByRole('heading', { level: 1, name: /^Welcome, / });
  await expect(heading).toBeVisible();
  await expect(region(page).getByText(message)).toBeVisible();
  const before = await heading.boundingBox();
  await page.waitForTimeout(1000);
  expect(await heading.boundingBox()).toEqual(before);
  expect(await contentShifts(page)).toEqual([]);
  // SPEC section 9: one banner on the dashboard.
  await expect(region(page).getByRole('listitem')).toHaveCount(1);
  await expectNoAxeViolations();

  // Dismissed, and still dismissed after a reload.
  await region(page).getByRole('button', { name: T.dismiss }).click();
  await expect(region(page).getByText(message)).toHaveCount(0);
  await page.reload();
  await expect(heading).toBeVisible();
  await expect(region(page).getByText(message)).toHaveCount(0);

  // Edited: a later updatedAt brings it back.
  await openBannersScreen(page);
  await page.getByRole('button', { name: `${T.edit}: ${message}` }).click();
  await expect(page.getByRole('heading', { level: 2, name: T.editBanner })).toBeFocused();
  await page.getByRole('textbox', { name: T.message }).fill(edited);
  await reviewAndSave(page);
  await expect(region(page).getByText(edited)).toBeVisible();
  await expectNoAxeViolations();
  await page.goto(`.${APP_PATHS.dashboard}`);
  await expect(region(page).getByText(edited)).toBeVisible();

  // Made inactive: no page shows it.
  await openBannersScreen(page);
  await page.getByRole('button', { name: `${T.edit}: ${edited}` }).click();
  await page.getByRole('checkbox', { name: T.active, exact: true }).uncheck();
  await reviewAndSave(page);
  await expect(region(page).getByText(edited)).toHaveCount(0);
});
