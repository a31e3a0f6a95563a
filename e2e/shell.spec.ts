// The signed-in shell: navigation memory, mobile drawer, footer, routes of later screens.
import { SUPPORT_CONTACT, NAVIGATION_LABELS, TEXTS } from '../src/domain/texts';
import { expect, test } from './support/fixtures';

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

test('entries of later screens open routes that say so', async ({ page, signIn }) => {
  await signIn('user@registry.test');
  // Administration arrives with a later issue (Assets is a real screen now).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: NAVIGATION_LABELS.administration }).click();
  await expect(page).toHaveURL(/\/registry\/administration$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeFocused();
  await expect(page.getByText(TEXTS.screenNotAvailable)).toBeVisible();
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
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
