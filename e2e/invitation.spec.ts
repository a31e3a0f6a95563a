// An invitation against the real server: the registry administrator invites a new person to one of
// its organizations through the API (as the users screen does), the person opens the link in a
// browser of their own, sets a password on the hosted page (axe clean) and lands on the dashboard
// of that organization, signed in.
import { PATHS } from '../src/contract/paths';
import { STORAGE_KEYS } from '../src/domain/constants';
import { USER_TEXTS } from '../src/domain/administration-texts';
import { expect, expectNoAxeViolations, test } from './support/fixtures';

test('an invited person sets a password and lands on the dashboard of the organization', async ({ page, browser, signIn }) => {
  await signIn('admin@registry.test');
  const organizationId = await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId);
  expect(organizationId).toBeTruthy();
  const organizationName = (await page.getByTestId('current-organization').textContent()) ?? '';
  const email = `invited.${Date.now()}@registry.test`;
  const invited = await page.evaluate(
    async ({ path, email }) => {
      const response = await fetch(path, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ firstName: 'Ines', lastName: 'Invited', email, roles: ['CUSTODIAN'] }),
      });
      return { status: response.status, body: await response.json() };
    },
    { path: PATHS.participantUsers(organizationId!), email },
  );
  expect(invited.status).toBe(201);
  const link: string = invited.body.invitationLink;
  expect(link).toContain(PATHS.invitationPage);

  // The invited person's own browser: no session.
  const context = await browser.newContext();
  const guest = await context.newPage();
  await guest.goto(link);
  await expect(guest.getByRole('heading', { level: 1, name: USER_TEXTS.invitationTitle })).toBeVisible();
  await expect(guest.getByText(email)).toBeVisible();
  await expectNoAxeViolations(guest);

  // A password the rules refuse: the page again, the problem announced and the field marked.
  await guest.getByLabel('New password', { exact: true }).fill('short');
  await guest.getByLabel('Confirm new password').fill('short');
  // The browser's own minlength check would stop the form: submit past it as a server check.
  await guest.evaluate(() => document.querySelector('form')?.setAttribute('novalidate', ''));
  await guest.getByRole('button', { name: USER_TEXTS.invitationTitle }).click();
  await expect(guest.getByRole('alert')).toContainText('at least 12 characters');
  await expectNoAxeViolations(guest);

  await guest.getByLabel('New password', { exact: true }).fill('a long enough password 1');
  await guest.getByLabel('Confirm new password').fill('a long enough password 1');
  await guest.getByRole('button', { name: USER_TEXTS.invitationTitle }).click();
  await guest.waitForURL(/\/registry\/dashboard/);
  await expect(guest.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();
  await expect(guest.getByTestId('current-organization')).toHaveText(organizationName);

  // The link works once.
  const again = await guest.goto(link);
  expect(again?.status()).toBe(410);
  await expect(guest.getByRole('alert')).toHaveText(USER_TEXTS.invitationUsed);
  await context.close();
});
