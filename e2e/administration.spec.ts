// The administration menu (SPEC sections 2 and 6): Profile for everyone, Organizations for
// registry staff only, reached from the dashboard tile and by keyboard; and SPEC section 6's
// 'Invalid Permissions' page when the server refuses a call for a role the user lacks.
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { UserParticipant } from '../src/contract/participants';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { AUDIT_TEXTS } from '../src/domain/audit-texts';
import { BANNER_SCREEN_TEXTS } from '../src/domain/banner-screen-texts';
import { ADMINISTRATION_MENU, NAVIGATION_LABELS, SUPPORT_CONTACT, TEXTS } from '../src/domain/texts';
import { expect, test } from './support/fixtures';

const menu = (page: Page) => page.getByRole('navigation', { name: NAVIGATION_LABELS.administration });
const entry = (page: Page, name: string) => menu(page).getByRole('link', { name: new RegExp(`^${name}`) });

async function openFromDashboard(page: Page) {
  const tiles = page.getByRole('list', { name: 'Dashboard' });
  await tiles.getByRole('link', { name: new RegExp(NAVIGATION_LABELS.administration) }).click();
  await expect(page).toHaveURL(/\/registry\/administration$/);
  await expect(page.getByRole('heading', { level: 1, name: NAVIGATION_LABELS.administration })).toBeFocused();
}

test('registry staff see Profile, Organizations, Banners and the audit log, and reach them by keyboard', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  await signIn('admin@registry.test');
  await openFromDashboard(page);
  await expect(menu(page).getByRole('link')).toHaveCount(4);
  await expect(entry(page, BANNER_SCREEN_TEXTS.screenTitle)).toHaveAttribute('href', `/registry${APP_PATHS.banners}`);
  await expect(entry(page, AUDIT_TEXTS.logLink)).toHaveAttribute('href', `/registry${APP_PATHS.auditLog}`);
  await expect(entry(page, ADMINISTRATION_MENU.profile)).toHaveAttribute('href', `/registry${APP_PATHS.organizationProfile}`);
  await expect(entry(page, ADMINISTRATION_MENU.organizations)).toHaveAttribute('href', `/registry${APP_PATHS.organizations}`);
  await expectNoAxeViolations();

  // From the heading, the first Tab reaches Profile, the next Organizations, and Enter follows it.
  await page.keyboard.press('Tab');
  await expect(entry(page, ADMINISTRATION_MENU.profile)).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(entry(page, ADMINISTRATION_MENU.organizations)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/registry\/administration\/organizations$/);
});

test('operations staff (ROLE_DART_OPS) see Organizations too', async ({ page, signIn }) => {
  await signIn('ops@registry.test');
  await openFromDashboard(page);
  await expect(entry(page, ADMINISTRATION_MENU.organizations)).toBeVisible();
});

test('an organization administrator without a registry role sees Profile only', async ({ page, signIn, expectNoAxeViolations }) => {
  await signIn('user@registry.test');
  await openFromDashboard(page);
  await expect(menu(page).getByRole('link')).toHaveCount(1);
  await expect(entry(page, ADMINISTRATION_MENU.profile)).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(ADMINISTRATION_MENU.organizations) })).toHaveCount(0);
  await expectNoAxeViolations();
  await page.keyboard.press('Tab');
  await expect(entry(page, ADMINISTRATION_MENU.profile)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/registry\/administration\/profile$/);
});

test('a call refused for a missing role shows Invalid Permissions in place, with support and a way back', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  await signIn('user@registry.test');
  const organization = await page.getByTestId('current-organization').textContent();
  // The real server's refusal of a role (GET v1 /users/{someone else}/participants is for the user
  // themselves or registry staff), answered to the messages screen's list call: the product-call
  // path every administration screen's calls take.
  const refused = new URL(PATHS.userParticipants(randomUUID()), page.url()).toString();
  await page.route(
    (url) => url.pathname === PATHS.messages,
    async (route) => route.fulfill({ response: await route.fetch({ url: refused, method: 'GET' }) }),
  );
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: new RegExp(`^${NAVIGATION_LABELS.messages}`) })
    .click();

  const heading = page.getByRole('heading', { level: 1, name: TEXTS.invalidPermissions });
  await expect(heading).toBeVisible();
  await expect(heading).toBeFocused();
  // In place of the screen, at its address; not SPEC section 8's Invalid participant.
  await expect(page).toHaveURL(/\/registry\/messages$/);
  const main = page.getByRole('main');
  await expect(main.getByText(TEXTS.invalidPermissionsBody)).toBeVisible();
  await expect(main.getByRole('link', { name: SUPPORT_CONTACT.email })).toBeVisible();
  await expect(main.getByRole('link', { name: SUPPORT_CONTACT.phone })).toBeVisible();
  await expect(main.getByRole('link', { name: TEXTS.backToLogin })).toHaveAttribute('href', `/registry${APP_PATHS.login}`);
  await expect(page.getByText(TEXTS.invalidParticipantToast)).toHaveCount(0);
  await expectNoAxeViolations();

  // By keyboard, past the support contact, back to the dashboard: the organization is unchanged.
  const back = main.getByRole('link', { name: TEXTS.backToDashboard });
  for (let presses = 0; presses < 5 && !(await back.evaluate((element) => element === document.activeElement)); presses++) {
    await page.keyboard.press('Tab');
  }
  await expect(back).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/registry\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.invalidPermissions })).toHaveCount(0);
  await expect(page.getByTestId('current-organization')).toHaveText(organization ?? '');
});

test('a member without a registry role opening the organizations gets Invalid Permissions; a 401 still goes to login', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  await signIn('user@registry.test');
  await page.goto(`/registry${APP_PATHS.organizations}`);
  const heading = page.getByRole('heading', { level: 1, name: TEXTS.invalidPermissions });
  await expect(heading).toBeVisible();
  await expect(page).toHaveURL(/\/registry\/administration\/organizations$/);
  await expect(page.getByRole('main').getByRole('link', { name: SUPPORT_CONTACT.email })).toBeVisible();
  await expect(page.getByText(TEXTS.invalidParticipantToast)).toHaveCount(0);
  await expectNoAxeViolations();
  await page.getByRole('main').getByRole('link', { name: TEXTS.backToDashboard }).click();
  await expect(page).toHaveURL(/\/registry\/dashboard$/);

  // Signed out elsewhere (the session cookie gone): the same page sends to login with the notice.
  await page.context().clearCookies();
  await page.goto(`/registry${APP_PATHS.organizations}`);
  await expect(page).toHaveURL(/\/registry\/login\?unauthorized=true/);
  await expect(page.getByRole('heading', { name: TEXTS.notRegisteredTitle })).toBeVisible();
});

test("a plain member opening their organization's users gets Invalid Permissions; its administrator does not", async ({ page, signIn }) => {
  await signIn('user@registry.test');
  // user@registry.test administers its default organization and is a plain member of the other one.
  const organizations = await page.evaluate(
    async ({ usersMe, participantsOf }) => {
      const me = (await (await fetch(usersMe, { credentials: 'include' })).json()) as { user: { id: string } };
      return (await (await fetch(participantsOf.replace(':userId', me.user.id), { credentials: 'include' })).json()) as UserParticipant[];
    },
    { usersMe: PATHS.usersMe, participantsOf: PATHS.userParticipantsPattern },
  );
  const administered = organizations.find((entry) => entry.isDefault);
  const member = organizations.find((entry) => !entry.isDefault);
  expect(administered && member).toBeTruthy();

  await page.goto(`/registry${APP_PATHS.organizationUsers(member?.participant.id ?? '')}`);
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.invalidPermissions })).toBeVisible();
  await expect(page.getByText(TEXTS.invalidParticipantToast)).toHaveCount(0);

  await page.goto(`/registry${APP_PATHS.organizationUsers(administered?.participant.id ?? '')}`);
  await expect(page.getByRole('table')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.invalidPermissions })).toHaveCount(0);
});
