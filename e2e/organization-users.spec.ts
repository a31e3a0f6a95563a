// An organization's users against the real server and the seeded database, as registry staff: a
// new person invited through the form, its review and confirm (the invitation link shown, pending
// in the list); an existing registry user added through the suggestions, chosen by keyboard; that
// member's roles changed; the member removed. Axe clean on every screen. The people made here get
// last names that sort first, so they are on the list's first page.
import type { Page } from '@playwright/test';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { STORAGE_KEYS } from '../src/domain/constants';
import { ORGANIZATION_USERS_TEXTS as L, USER_FORM_TEXTS as F, USER_REMOVAL_TEXTS as R } from '../src/domain/organization-users';
import { USER_TEXTS } from '../src/domain/administration-texts';
import { expect, test } from './support/fixtures';

const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** The organization the signed-in admin acts for (the session stores it). */
const currentOrganization = async (page: Page): Promise<string> => {
  const id = await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId);
  expect(id).toBeTruthy();
  return id as string;
};

/** Another organization the admin belongs to: the switcher's list, through GET v1 /users/{userId}/participants. */
async function otherOrganization(page: Page, current: string): Promise<string> {
  return page.evaluate(
    async ({ usersMe, current }) => {
      const me = await (await fetch(usersMe, { credentials: 'include', headers: { 'x-participant-id': current } })).json();
      const response = await fetch(`/service-dart/secure/api/v1/users/${me.user.userId}/participants`, { credentials: 'include' });
      const organizations: { participant: { id: string; isActive: boolean } }[] = await response.json();
      const other = organizations.find((entry) => entry.participant.id !== current && entry.participant.isActive);
      if (!other) throw new Error('the admin has no second organization');
      return other.participant.id;
    },
    { usersMe: PATHS.usersMe, current },
  );
}

/** A registry user who is not a member of the current organization: invited to another one through the API. */
async function personElsewhere(page: Page, organizationId: string, lastName: string, email: string) {
  const status = await page.evaluate(
    async ({ path, lastName, email, organizationId }) => {
      const response = await fetch(path, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-participant-id': organizationId },
        body: JSON.stringify({ firstName: 'Esme', lastName, email, roles: ['CUSTODIAN'] }),
      });
      return response.status;
    },
    { path: PATHS.participantUsers(organizationId), lastName, email, organizationId },
  );
  expect(status).toBe(201);
}

async function openUsers(page: Page, organizationId: string) {
  await page.goto(`.${APP_PATHS.organizationUsers(organizationId)}`);
  await expect(page.getByRole('heading', { level: 1, name: /^Users/ })).toBeVisible();
  await expect(page.getByRole('table', { name: L.tableLabel })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: L.loading })).toHaveCount(0);
}

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

test.describe('organization users', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn('admin@registry.test');
  });

  test('invites a new person through review and confirm: the link is shown, then the invitation is pending in the list', async ({
    page,
    expectNoAxeViolations,
  }) => {
    const organizationId = await currentOrganization(page);
    const email = `invitee.${unique()}@registry.test`;
    await openUsers(page, organizationId);
    await expectNoAxeViolations();

    await page.getByRole('link', { name: L.addUser }).click();
    await expect(page.getByRole('heading', { level: 1, name: F.addTitle })).toBeVisible();
    await expectNoAxeViolations();
    // SPEC section 5's messages before anything is sent.
    await page.getByRole('button', { name: F.review }).click();
    await expect(page.getByText(USER_TEXTS.firstNameRequired)).toBeVisible();
    await expect(page.getByText(USER_TEXTS.rolesRequired)).toBeVisible();
    await expect(page.getByLabel(F.firstName)).toBeFocused();
    await expectNoAxeViolations();

    await page.getByLabel(F.firstName).fill('Ivy');
    await page.getByLabel(F.lastName).fill(`Aaa-Invitee-${unique()}`);
    await page.getByLabel(F.email).fill(email);
    // The picker offers the five assignable roles; TRADER and AUDITOR are hidden.
    await expect(page.getByRole('checkbox', { name: 'Trader' })).toHaveCount(0);
    await page.getByRole('checkbox', { name: 'Custodian' }).check();
    await page.getByRole('button', { name: F.review }).click();

    await expect(page.getByRole('heading', { level: 2, name: F.reviewTitle })).toBeFocused();
    await expect(page.getByText(email)).toBeVisible();
    await expectNoAxeViolations();
    await page.getByRole('button', { name: F.confirm }).click();

    const link = page.getByRole('textbox', { name: F.invitationLink });
    await expect(link).toBeFocused();
    await expect(link).toHaveValue(new RegExp(`${PATHS.invitationPage.replaceAll('/', '\\/')}\\?token=`));
    await expect(page.getByText(USER_TEXTS.newUserAdded)).toBeVisible();
    await expectNoAxeViolations();
    // By keyboard: Copy link, then Back to users.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: L.copyLink })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: F.done })).toBeFocused();
    await page.keyboard.press('Enter');

    await page.waitForURL(new RegExp(`${APP_PATHS.organizationUsers(organizationId)}$`));
    await expect(row(page, email)).toContainText(/Invitation pending, expires \d{2}-\d{2}-\d{4}/);
    await expect(row(page, email)).toContainText(L.never);
    // The search goes to the server: only the match is left, and the URL names it.
    await page.getByRole('searchbox', { name: L.searchLabel }).fill(email);
    await page.getByRole('searchbox', { name: L.searchLabel }).press('Enter');
    await expect(page).toHaveURL(/[?&]query=/);
    await expect(page.getByRole('table', { name: L.tableLabel }).getByRole('row')).toHaveCount(2);
    await expect(row(page, email)).toBeVisible();
    await expectNoAxeViolations();

    // A second invitation of the same email is refused: the review says so, and the body shows as a toast.
    await page.getByRole('link', { name: L.addUser }).click();
    await page.getByLabel(F.firstName).fill('Ivy');
    await page.getByLabel(F.lastName).fill('Again');
    await page.getByLabel(F.email).fill(email);
    await page.getByRole('checkbox', { name: 'Custodian' }).check();
    await page.getByRole('button', { name: F.review }).click();
    await page.getByRole('button', { name: F.confirm }).click();
    const failure = page.locator('#user-form-failure');
    await expect(failure).toContainText(F.somethingWentWrong);
    await expect(failure).toBeFocused();
    await expect(page.getByRole('region', { name: 'Notifications' })).toContainText(/already/);
    await expectNoAxeViolations();
  });

  test('adds an existing user through the suggestions, changes the roles, then removes the member', async ({
    page,
    expectNoAxeViolations,
  }) => {
    const organizationId = await currentOrganization(page);
    const token = unique();
    const lastName = `Aaa-Existing-${token}`;
    const email = `existing.${token}@registry.test`;
    await personElsewhere(page, await otherOrganization(page, organizationId), lastName, email);

    // Add: 'Add existing user', the start of the email typed, the suggestion chosen by keyboard.
    await page.goto(`.${APP_PATHS.newOrganizationUser(organizationId)}`);
    await expect(page.getByRole('heading', { level: 1, name: F.addTitle })).toBeVisible();
    await page.getByRole('checkbox', { name: F.addExisting }).check();
    await expect(page.getByLabel(F.firstName)).toHaveAttribute('readonly', '');
    const search = page.getByRole('combobox', { name: F.search });
    // The start of the email, as an admin types it (suggestions match the start of a name or email).
    await search.fill(`existing.${token}`);
    const suggestion = page.getByRole('option', { name: new RegExp(email.replaceAll('.', '\\.')) });
    await expect(suggestion).toBeVisible();
    await expectNoAxeViolations();
    await search.press('ArrowDown');
    await search.press('Enter');
    await expect(page.getByLabel(F.email)).toHaveValue(email);
    await expect(page.getByLabel(F.lastName)).toHaveValue(lastName);
    await page.getByRole('checkbox', { name: 'DART Agent' }).check();
    await page.getByRole('button', { name: F.review }).click();
    await page.getByRole('button', { name: F.confirm }).click();
    await page.waitForURL(new RegExp(`${APP_PATHS.organizationUsers(organizationId)}$`));
    await expect(page.getByText(USER_TEXTS.existingUserAdded)).toBeVisible();
    await expect(row(page, email)).toContainText('DART Agent');

    // Change the roles from the row's actions.
    await row(page, email)
      .getByRole('button', { name: L.actionsOf(`Esme ${lastName}`) })
      .click();
    await page.getByRole('menuitem', { name: L.editRoles }).click();
    await expect(page.getByRole('heading', { level: 1, name: F.editTitle })).toBeVisible();
    await expect(page.getByLabel(F.email)).toHaveValue(email);
    await expectNoAxeViolations();
    await page.getByRole('checkbox', { name: 'Figure Engineer' }).check();
    await page.getByRole('checkbox', { name: 'DART Agent' }).uncheck();
    await page.getByRole('button', { name: F.review }).click();
    await expectNoAxeViolations();
    await page.getByRole('button', { name: F.confirm }).click();
    await page.waitForURL(new RegExp(`${APP_PATHS.organizationUsers(organizationId)}$`));
    await expect(page.getByText(USER_TEXTS.rolesUpdated)).toBeVisible();
    await expect(row(page, email)).toContainText('Figure Engineer');
    await expect(row(page, email)).not.toContainText('DART Agent');

    // Remove the member, confirming first.
    await row(page, email)
      .getByRole('button', { name: L.actionsOf(`Esme ${lastName}`) })
      .click();
    await page.getByRole('menuitem', { name: L.remove }).click();
    await expect(page.getByRole('heading', { level: 1, name: R.title })).toBeVisible();
    await expect(page.getByText(R.question(`Esme ${lastName}`, null))).toBeVisible();
    await expectNoAxeViolations();
    await page.getByRole('button', { name: R.confirm }).click();
    await page.waitForURL(new RegExp(`${APP_PATHS.organizationUsers(organizationId)}$`));
    await expect(page.getByText(R.removed)).toBeVisible();
    await expect(row(page, email)).toHaveCount(0);
  });
});
