// The organizations of the administration against the real server and the seeded database: as
// registry staff, add an organization through the form, the review and its confirmation, choose
// 'Add users' (the users/new route); find it in the list, edit it, deactivate it after reading what
// it means, and see every write in its activity; axe clean on each screen.
import type { Page } from '@playwright/test';
import { APP_PATHS } from '../src/domain/app-paths';
import { ORGANIZATION_TEXTS as T } from '../src/domain/administration-texts';
import { expect, test } from './support/fixtures';

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test('registry staff add, edit, deactivate an organization and read its activity', async ({ page, signIn, expectNoAxeViolations }) => {
  test.setTimeout(90_000);
  await signIn('admin@registry.test');

  // The list, with its 'Add organization' link.
  await page.goto(`.${APP_PATHS.organizations}`);
  await expect(page.getByRole('heading', { level: 1, name: T.listTitle })).toBeVisible();
  await expect(page.getByRole('table', { name: T.tableLabel }).getByRole('row')).not.toHaveCount(1);
  await expectNoAxeViolations();
  await page.getByRole('link', { name: T.addOrganization }).click();

  // The form: the id is made here and shown read-only; the rules speak on review.
  await expect(page.getByRole('heading', { level: 1, name: T.addTitle })).toBeVisible();
  const idField = textbox(page, T.id);
  await expect(idField).toHaveValue(UUID);
  await expect(idField).toHaveAttribute('readonly', '');
  const id = await idField.inputValue();
  await page.getByRole('button', { name: T.review }).click();
  await expect(page.getByText(T.codeLength)).toBeVisible();
  await expect(textbox(page, T.code)).toBeFocused();
  await expectNoAxeViolations();

  const code = `Q${Math.floor(Math.random() * 36 * 36)
    .toString(36)
    .toUpperCase()
    .padStart(2, '0')}`;
  await textbox(page, T.code).fill(code);
  await textbox(page, T.name).fill('Quayside Lending');
  await textbox(page, T.organizationName).fill('Quayside Lending LLC');
  await textbox(page, T.email).fill('ops@quayside.test');
  await page.getByRole('textbox', { name: T.phoneNumber }).fill('4155550142');
  await textbox(page, T.street).fill('9 Harbor Road');
  await textbox(page, T.city).fill('Oakland');
  await page.getByRole('combobox', { name: T.state, exact: true }).selectOption('CA');
  await textbox(page, T.zip).fill('94607');
  await page.getByLabel(T.powerOfAttorney).check();
  await page.getByRole('button', { name: T.review }).click();

  // Review, then confirm.
  await expect(page.getByRole('heading', { level: 2, name: T.reviewTitle })).toBeVisible();
  await expect(page.getByText(id)).toBeVisible();
  await expect(page.getByText('(415) 555-0142')).toBeVisible();
  await expectNoAxeViolations();
  await page.getByRole('button', { name: T.confirm }).click();

  // SPEC section 4: the dialog after creation.
  await expect(page.getByRole('heading', { name: T.createdDialogTitle })).toBeVisible();
  await expect(page.getByRole('button', { name: T.later })).toBeVisible();
  await expectNoAxeViolations();
  await page.getByRole('button', { name: T.addUsers }).click();
  await expect(page).toHaveURL(new RegExp(`${APP_PATHS.newOrganizationUser(id)}$`));

  // Found by its code in the list; edited.
  await page.goto(`.${APP_PATHS.organizations}`);
  await page.getByRole('searchbox', { name: T.search }).fill(code.toLowerCase());
  const row = page.getByRole('row').filter({ hasText: code });
  await expect(row).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`query=${code.toLowerCase()}`));
  await row.getByRole('link', { name: 'Quayside Lending' }).click();
  await expect(page.getByRole('heading', { level: 1, name: T.editTitle })).toBeVisible();
  await expect(textbox(page, T.id)).toHaveValue(id);
  await expect(textbox(page, T.name)).toHaveValue('Quayside Lending');
  await expectNoAxeViolations();
  await textbox(page, T.name).fill('Quayside Lending Co');
  await page.getByRole('button', { name: T.review }).click();
  await page.getByRole('button', { name: T.confirm }).click();
  await expect(page.getByText(T.updated)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${APP_PATHS.organizations}$`));

  // Deactivated, after reading what it means.
  await page.goto(`.${APP_PATHS.deleteOrganization(id)}`);
  await expect(page.getByRole('heading', { level: 1, name: T.deactivateTitle })).toBeVisible();
  for (const line of T.deactivateExplanation) await expect(page.getByText(line)).toBeVisible();
  await expectNoAxeViolations();
  await page.getByRole('button', { name: T.deactivateConfirm }).click();
  await expect(page.getByText(T.deactivated)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${APP_PATHS.organizations}$`));

  // Listed as inactive; its edit page offers reactivation.
  await page.getByRole('combobox', { name: T.statusFilter, exact: true }).selectOption('inactive');
  await page.getByRole('searchbox', { name: T.search }).fill(code);
  await expect(page.getByRole('row').filter({ hasText: code })).toContainText(T.statusInactive);
  await page.goto(`.${APP_PATHS.organization(id)}`);
  await expect(page.getByText(T.inactiveNotice)).toBeVisible();
  await expect(page.getByRole('button', { name: T.reactivate })).toBeVisible();

  // The activity: every write, newest first.
  await page.goto(`.${APP_PATHS.organizationActivity(id)}`);
  await expect(page.getByRole('heading', { level: 1, name: T.activityTitle })).toBeVisible();
  const rows = page.getByRole('table', { name: T.activityTableLabel }).getByRole('row');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText('organization.deactivated');
  await expect(rows.nth(2)).toContainText('organization.updated');
  await expect(rows.nth(2)).toContainText('Quayside Lending Co');
  await expect(rows.nth(3)).toContainText('organization.created');
  await expect(rows.nth(3)).toContainText('admin@registry.test');
  await expectNoAxeViolations();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: T.exportCsv }).click();
  expect((await download).suggestedFilename()).toBe('organization-activity.csv');
});
