// The statechart explorer at /registry/statecharts/ (built by `npm run visualize`), without a
// session: the real session and deactivation machines run in the page; services answer and tours
// step when the owner says so; the active state is highlighted in the list and the drawing, the
// context follows; back, reset and links to a state; every page axe clean.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

const currentState = (page: Page) => page.locator('#current-state');
const stateItem = (page: Page, id: string) => page.locator(`li[data-state="${id}"]`);
const drawnState = (page: Page, id: string) => page.locator(`svg g[data-state="${id}"]`);
const context = (page: Page) => page.locator('#context');
const services = (page: Page) => page.getByRole('region', { name: 'Services' });
const eventButton = (page: Page, name: string | RegExp) => page.getByRole('region', { name: 'Events' }).getByRole('button', { name });

async function expectActive(page: Page, id: string, label: string | RegExp): Promise<void> {
  await expect(currentState(page)).toHaveText(label);
  await expect(stateItem(page, id)).toHaveAttribute('aria-current', 'true');
  await expect(drawnState(page, id)).toHaveClass(/\bactive\b/);
  await expect(page.getByRole('status')).toContainText('Now in');
}

async function expectInactive(page: Page, id: string): Promise<void> {
  await expect(stateItem(page, id)).not.toHaveAttribute('aria-current', 'true');
  await expect(drawnState(page, id)).not.toHaveClass(/\bactive\b/);
}

const nextStep = (page: Page): Locator => page.getByRole('button', { name: /^Next step/ });

test.describe('statechart explorer', () => {
  test('lists every machine, and the index is axe clean', async ({ page, expectNoAxeViolations }) => {
    await page.goto('statecharts/');
    await expect(page.getByRole('heading', { level: 1, name: 'Statechart explorer' })).toBeVisible();
    const machines = page.getByRole('navigation', { name: 'Machines' });
    await expect(machines.getByRole('link', { name: 'Session', exact: true })).toHaveAttribute('href', 'session.html');
    await expect(machines.getByRole('link', { name: 'Deactivation', exact: true })).toHaveAttribute('href', 'deactivation.html');
    await expectNoAxeViolations();
    await machines.getByRole('link', { name: 'Deactivation', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Deactivation statechart explorer' })).toBeVisible();
  });

  test('deactivation: services answered by buttons, events sent by buttons, context and highlight follow', async ({
    page,
    expectNoAxeViolations,
  }) => {
    await page.goto('statecharts/deactivation.html');
    await expectActive(page, 'deactivation.checking', 'checking');
    // The drawing is a picture of the list: an image with a label, its text not read twice.
    await expect(page.getByRole('img', { name: /Drawing of the Deactivation statechart/ })).toBeVisible();
    // Nothing is accepted while the loan is read, and each button says why.
    await expect(eventButton(page, 'form.submit')).toBeDisabled();
    await expect(eventButton(page, 'form.submit')).toHaveAccessibleDescription('(not accepted in this state)');
    await expectNoAxeViolations();

    await expect(services(page).getByText('loadLoan is waiting for an answer')).toBeVisible();
    await services(page).getByRole('button', { name: 'Succeed (answer 1 of 2)' }).click();
    await expectActive(page, 'deactivation.editing', 'editing');
    await expectInactive(page, 'deactivation.checking');
    await expect(context(page)).toContainText('"reason": ""');

    await eventButton(page, /^form\.change \(\{"values":\{"reason":"foreclosure"/).click();
    await expect(context(page)).toContainText('"reason": "foreclosure"');
    await eventButton(page, 'form.file (a PDF)').click();
    await expect(context(page)).toContainText('File');
    await eventButton(page, 'form.submit').click();
    await expectActive(page, 'deactivation.submitting', 'submitting');

    // "What happens if a 401 arrives while the form is submitting?"
    await services(page).getByLabel('Status').fill('401');
    await services(page).getByRole('button', { name: 'Fail with this status' }).click();
    await expectActive(page, 'deactivation.failed', 'failed');
    await expect(page.locator('#history li')).toHaveText([
      'loadLoan: succeeded (answer 1 of 2)',
      /^form\.change/,
      'form.file (a PDF)',
      'form.submit',
      'submitDeactivation: failed with status 401',
    ]);

    // Back replays all but the last step: submitting again, the service waiting again.
    await page.getByRole('button', { name: 'Back' }).click();
    await expectActive(page, 'deactivation.submitting', 'submitting');
    await expect(services(page).getByText('submitDeactivation is waiting for an answer')).toBeVisible();
    await page.getByRole('button', { name: 'Reset' }).click();
    await expectActive(page, 'deactivation.checking', 'checking');
    await expect(page.locator('#history li')).toHaveCount(0);
    await expectNoAxeViolations();
  });

  test('deactivation: a tour of the model-based test, step by step, to the submitted request', async ({ page }) => {
    await page.goto('statecharts/deactivation.html');
    const tours = page.getByRole('region', { name: 'Tours' });
    const tour = tours.getByRole('listitem').filter({ hasText: /form\.submit → done: submitDeactivation ⇒ submitted$/ });
    await tour.getByRole('button').click();
    await expect(page.locator('#tour-status')).toHaveText(/^Tour \d+, step 0 of 5\.$/);
    await expect(nextStep(page)).toBeFocused();
    await expect(nextStep(page)).toHaveText('Next step: done: loadLoan (answer 1 of 2)');
    // The keyboard path: Enter on the focused button walks the tour.
    await page.keyboard.press('Enter');
    await expectActive(page, 'deactivation.editing', 'editing');
    for (let i = 0; i < 3; i++) await nextStep(page).click();
    await expectActive(page, 'deactivation.submitting', 'submitting');
    await expect(page.locator('#tour-status')).toHaveText(/step 4 of 5\.$/);
    await nextStep(page).click();
    await expectActive(page, 'deactivation.submitted', 'submitted (finished)');
    await expect(nextStep(page)).toBeDisabled();
    await expect(page).toHaveURL(/\?tour=\d+&step=5$/);
  });

  test('session: a link to a state opens the explorer there; a 401 while checking the identity signs out', async ({
    page,
    expectNoAxeViolations,
  }) => {
    await page.goto('statecharts/session.html');
    await expectActive(page, 'session.checkingIdentity', 'checkingIdentity');
    await services(page).getByLabel('Status').fill('401');
    await services(page).getByRole('button', { name: 'Fail with this status' }).click();
    await expectActive(page, 'session.signedOut.unauthorized', 'signedOut.unauthorized');
    await expect(stateItem(page, 'session.signedOut')).toHaveAttribute('aria-current', 'true');
    await expect(eventButton(page, 'session.logIn')).toBeEnabled();
    await expect(eventButton(page, 'session.signOut')).toBeDisabled();

    // The state list: each reachable state is a link that opens the explorer in it.
    await page.getByRole('region', { name: 'States' }).getByRole('link', { name: 'signedIn.permissionRefused' }).click();
    await expect(page).toHaveURL(/session\.html\?state=session\.signedIn\.permissionRefused$/);
    await expectActive(page, 'session.signedIn.permissionRefused', 'signedIn.permissionRefused');
    await expect(context(page)).toContainText('"participantId"');
    await expectNoAxeViolations();

    // The same address typed or shared opens there too.
    await page.goto('statecharts/session.html?state=session.signedIn.active');
    await expectActive(page, 'session.signedIn.active', 'signedIn.active');
  });
});
