// The administration end to end, as an operator onboards a new member organization: registry staff
// add the organization through review and confirm, choose 'Add users', invite its first person
// (the link shown to them); that person opens the link in a browser of their own, sets a password
// and lands signed in on the new organization. Staff then deactivate it: the member is refused on it.
import type { Page } from '@playwright/test';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { USER_FORM_TEXTS as F } from '../src/domain/organization-users';
import { TEXTS } from '../src/domain/texts';
import { ORGANIZATION_TEXTS as T, USER_TEXTS } from '../src/domain/administration-texts';
import { expect, expectNoAxeViolations, test } from './support/fixtures';

const textbox = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

test('staff onboard an organization and its first person, who signs in to it; deactivated, it refuses them', async ({
  page,
  browser,
  signIn,
}) => {
  test.setTimeout(120_000);
  await signIn('admin@registry.test');
  const stamp = `${Date.now()}`;
  const code = `J${Number(stamp.slice(-5)).toString(36).toUpperCase().slice(-2).padStart(2, '0')}`;
  const name = `Journey Lending ${stamp.slice(-6)}`;

  // The organization, through the form, its review and confirmation.
  await page.goto(`.${APP_PATHS.newOrganization}`);
  await expect(page.getByRole('heading', { level: 1, name: T.addTitle })).toBeVisible();
  const id = await textbox(page, T.id).inputValue();
  await textbox(page, T.code).fill(code);
  await textbox(page, T.name).fill(name);
  await textbox(page, T.organizationName).fill(`${name} LLC`);
  await textbox(page, T.email).fill(`ops.${stamp}@journey.test`);
  await page.getByRole('textbox', { name: T.phoneNumber }).fill('5035550199');
  await textbox(page, T.street).fill('1 Journey Way');
  await textbox(page, T.city).fill('Portland');
  await page.getByRole('combobox', { name: T.state, exact: true }).selectOption('OR');
  await textbox(page, T.zip).fill('97201');
  await page.getByRole('button', { name: T.review }).click();
  await page.getByRole('button', { name: T.confirm }).click();
  await page.getByRole('button', { name: T.addUsers }).click();
  await expect(page).toHaveURL(new RegExp(`${APP_PATHS.newOrganizationUser(id)}$`));

  // Its first person, invited: the link is shown to the admin.
  const email = `first.${stamp}@journey.test`;
  await expect(page.getByRole('heading', { level: 1, name: F.addTitle })).toBeVisible();
  await page.getByLabel(F.firstName).fill('Jo');
  await page.getByLabel(F.lastName).fill('Journey');
  await page.getByLabel(F.email).fill(email);
  await page.getByRole('checkbox', { name: 'Organization Admin' }).check();
  await page.getByRole('button', { name: F.review }).click();
  await page.getByRole('button', { name: F.confirm }).click();
  await expect(page.getByText(USER_TEXTS.newUserAdded)).toBeVisible();
  const link = await page.getByRole('textbox', { name: F.invitationLink }).inputValue();
  expect(link).toContain(`${PATHS.invitationPage}?token=`);

  // The person, in a browser of their own: sets a password and lands on the new organization.
  const context = await browser.newContext();
  const person = await context.newPage();
  await person.goto(link);
  await expect(person.getByRole('heading', { level: 1, name: USER_TEXTS.invitationTitle })).toBeVisible();
  await person.getByLabel('New password', { exact: true }).fill('journey password 2026');
  await person.getByLabel('Confirm new password').fill('journey password 2026');
  await person.getByRole('button', { name: USER_TEXTS.invitationTitle }).click();
  await person.waitForURL(/\/registry\/dashboard/);
  await expect(person.getByTestId('current-organization')).toHaveText(name);
  await expectNoAxeViolations(person);

  // Staff deactivate the organization; its member is refused on it (SPEC 8), with nowhere else to go.
  await page.goto(`.${APP_PATHS.deleteOrganization(id)}`);
  await page.getByRole('button', { name: T.deactivateConfirm }).click();
  await expect(page.getByText(T.deactivated)).toBeVisible();
  await person.reload();
  await expect(person.getByRole('heading', { name: TEXTS.noOrganizationTitle })).toBeVisible();
  await context.close();
});
