// The deactivation request against the real server, its job runner and the seeded database: from
// the asset table's row actions to the form, a PDF submitted, the success toast and the redirect,
// then, once the server's job has processed it, 'Deactivated' in the table and on the asset page;
// an oversize file refused in the form before anything is sent; axe clean on the form, errors shown.
import type { Page } from '@playwright/test';
import type { LoanDetails, LoanEvent, LoanList } from '../src/contract/loans';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { ASSET_PAGE_TEXTS, ASSET_TEXTS } from '../src/domain/asset-texts';
import { DEACTIVATION_TEXTS as T } from '../src/domain/deactivation-texts';
import { deactivationSubjectOfItem } from '../src/contract/deactivation';
import { deactivationBlocker } from '../src/domain/deactivation';
import { expect, test } from './support/fixtures';

/** A product call as the app makes it (the current organization in the header). */
async function productGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(
    async ({ path, header, key }) => {
      const response = await fetch(path, {
        headers: { [header]: window.localStorage.getItem(key) ?? '', accept: 'application/json' },
        credentials: 'include',
      });
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      return response.json();
    },
    { path, header: PARTICIPANT_HEADER, key: STORAGE_KEYS.participantId },
  );
}

/**
 * An active loan the current organization owns or services, with no deactivation in its history;
 * taken from the end of the list, away from the first rows other specs read.
 */
async function deactivatableLoan(page: Page): Promise<{ loanId: string; uli: string }> {
  const { loans } = await productGet<LoanList>(page, `${PATHS.loans}?limit=100&offset=0&participantRoles=OWNER,SERVICER&sortBy=uli`);
  for (const loan of [...loans].reverse()) {
    if (loan.status !== 'Active') continue;
    const events = await productGet<LoanEvent[]>(page, PATHS.loanEvents(loan.loanId));
    if (events.some((event) => event.eventType.startsWith('DEACTIVATION'))) continue;
    return { loanId: loan.loanId, uli: loan.uli };
  }
  throw new Error('the seed holds no active loan this organization owns or services');
}

/** A small real-looking PDF (the server reads its first bytes: '%PDF-'). */
const pdf = (name = 'security-instrument.pdf', size = 4096) => {
  const head = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');
  const tail = Buffer.from('\n%%EOF\n');
  return { name, mimeType: 'application/pdf', buffer: Buffer.concat([head, Buffer.alloc(size - head.length - tail.length, 0x20), tail]) };
};

const field = (page: Page, role: 'combobox' | 'textbox', name: string) => page.getByRole(role, { name, exact: true });
const fileInput = (page: Page) => page.getByLabel(T.file);

async function openForm(page: Page, loanId: string) {
  await page.goto(`.${APP_PATHS.deactivate(loanId)}`);
  await expect(page.getByRole('heading', { level: 1, name: T.title })).toBeVisible();
  // The loan is read first; the form or the reason it is not offered follows.
  await expect(page.getByRole('status').filter({ hasText: ASSET_PAGE_TEXTS.loading })).toHaveCount(0);
}

test.describe('deactivation request', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn('admin@registry.test');
  });

  test('refuses an oversize file in the form, shows every error tied to its field, axe clean', async ({ page, expectNoAxeViolations }) => {
    const { loanId } = await deactivatableLoan(page);
    await openForm(page, loanId);
    await expectNoAxeViolations();

    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/deactivate')) posts.push(request.url());
    });
    await fileInput(page).setInputFiles(pdf('too-big.pdf', 10 * 1024 * 1024 + 1));
    await expect(page.getByText(T.fileTooLarge)).toBeVisible();
    await expect(fileInput(page)).toHaveAttribute('aria-invalid', 'true');

    await page.getByRole('button', { name: T.submit }).click();
    // Refused in the browser: the first invalid field has the focus, its error is its description.
    await expect(field(page, 'combobox', T.reason)).toBeFocused();
    await expect(field(page, 'combobox', T.reason)).toHaveAccessibleDescription(T.reasonRequired);
    await expect(field(page, 'textbox', T.city)).toHaveAccessibleDescription(T.cityRequired);
    await expect(fileInput(page)).toHaveAccessibleDescription(`${T.fileHint} ${T.fileTooLarge}`);
    await field(page, 'combobox', T.state).fill('Cal');
    await expect(field(page, 'combobox', T.state)).toHaveAccessibleDescription(T.invalidState);
    await expectNoAxeViolations();
    expect(posts).toEqual([]);
    await expect(page).toHaveURL(new RegExp(`${APP_PATHS.deactivate(loanId)}$`));
  });

  test('submits a deactivation with a PDF: toast, redirect, and Deactivated once processed', async ({ page }) => {
    const { loanId, uli } = await deactivatableLoan(page);

    // From the asset table: the asset's row actions lead to the form.
    await page.goto(`.${APP_PATHS.assets}?page=1&limit=10&query=${encodeURIComponent(uli)}&roles=OWNER,SERVICER`);
    await page.getByRole('button', { name: ASSET_TEXTS.rowActions(uli) }).click();
    const listView = page.url();
    await page.getByRole('menuitem', { name: ASSET_TEXTS.deactivate }).click();
    await expect(page.getByRole('heading', { level: 1, name: T.title })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${APP_PATHS.deactivate(loanId)}$`));
    // To the asset page and back: the list view travels along.
    await page.getByRole('link', { name: T.backToAsset }).click();
    await page.getByRole('link', { name: T.deactivateAsset }).click();
    await expect(page.getByRole('heading', { level: 1, name: T.title })).toBeVisible();

    await field(page, 'combobox', T.reason).selectOption({ label: 'Foreclosure/Enforcement' });
    await page.getByLabel(T.effectiveDate).fill('2026-02-01');
    await field(page, 'textbox', T.assignee).fill('Harbor Capital Trust');
    await field(page, 'combobox', T.entityType).selectOption('Statutory Trust');
    await field(page, 'combobox', T.statePostalCode).selectOption('DE');
    await field(page, 'textbox', T.street1).fill('500 Harbor Blvd');
    await field(page, 'textbox', T.city).fill('Oakland');
    await field(page, 'combobox', T.state).fill('CA');
    await field(page, 'textbox', T.zip).fill('94607-1234');
    await field(page, 'textbox', T.instrumentNumber).fill('2026-0001234');
    await fileInput(page).setInputFiles(pdf());
    await page.getByRole('button', { name: T.submit }).click();

    await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: T.submitted })).toBeVisible();
    // Back to the list view the asset was opened from, not the default list.
    await expect(page).toHaveURL(listView);

    // Processed by the server's job runner (asynchronous): the loan becomes Inactive.
    await expect
      .poll(async () => (await productGet<LoanDetails>(page, PATHS.loanDetails(loanId))).loan.deactivated, { timeout: 20_000 })
      .toBe(true);

    await page.goto(`.${APP_PATHS.assets}?page=1&limit=10&query=${encodeURIComponent(uli)}&roles=OWNER,SERVICER`);
    const row = page.getByRole('table').locator('tbody tr').filter({ hasText: uli });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Deactivated');
    // Its row action is no longer a way to the form: disabled, saying why.
    await page.getByRole('button', { name: ASSET_TEXTS.rowActions(uli) }).click();
    const deactivate = page.getByRole('menuitem', { name: ASSET_TEXTS.deactivate });
    await expect(deactivate).toHaveAttribute('aria-disabled', 'true');
    await expect(deactivate).toHaveAccessibleDescription(T.alreadyInactive);
    await page.keyboard.press('Escape');

    await page.goto(`.${APP_PATHS.asset(loanId)}`);
    const panel = page.getByRole('region', { name: ASSET_PAGE_TEXTS.details });
    await expect(panel.locator('dt', { hasText: /^Status$/ }).locator('+ dd')).toHaveText('Deactivated');
    await expect(page.getByRole('link', { name: T.deactivateAsset, exact: true })).toHaveCount(0);
    await page.goto(`.${APP_PATHS.asset(loanId, 'history')}`);
    const history = page.getByRole('region', { name: ASSET_PAGE_TEXTS.history });
    await expect(history.getByRole('row', { name: /Asset deactivated at the request of/ })).toContainText('02-01-2026');
    await expect(history.getByRole('row', { name: /Deactivation requested by .*: Foreclosure\/Enforcement/ })).toBeVisible();

    // The form is not offered again for the deactivated asset: the page says why instead.
    await openForm(page, loanId);
    await expect(page.getByRole('alert').filter({ hasText: T.alreadyInactive })).toBeVisible();
    await expect(page.getByRole('button', { name: T.submit })).toHaveCount(0);
  });

  test("disables a row's Deactivate where the rule refuses it, says why to eyes and screen readers, and goes nowhere", async ({
    page,
    expectNoAxeViolations,
  }) => {
    // A loan on which the organization holds a role, but neither owner nor servicer.
    const { loans } = await productGet<LoanList>(
      page,
      `${PATHS.loans}?limit=100&offset=0&participantRoles=CONTROLLER,SECURED_PARTY&sortBy=uli`,
    );
    const loan = loans.find((item) => !item.heldRoles.includes('OWNER') && !item.heldRoles.includes('SERVICER'));
    if (!loan) throw new Error('the seed holds no loan this organization controls without owning or servicing it');
    expect(deactivationBlocker(deactivationSubjectOfItem(loan))).toBe(T.notOwnerOrServicer);

    await page.goto(`.${APP_PATHS.assets}?page=1&limit=10&query=${encodeURIComponent(loan.uli)}&roles=CONTROLLER,SECURED_PARTY`);
    // By keyboard: the menu opens on its first action and the arrows reach the disabled one.
    await page.getByRole('button', { name: ASSET_TEXTS.rowActions(loan.uli) }).focus();
    const listView = page.url();
    await page.keyboard.press('Enter');
    const deactivate = page.getByRole('menuitem', { name: ASSET_TEXTS.deactivate });
    await expect(page.getByRole('menuitem', { name: ASSET_TEXTS.viewDetails })).toBeVisible();
    await page.keyboard.press('End');
    // The menu keeps the focus and names its active item (aria-activedescendant), as Headless UI does.
    await expect(page.getByRole('menu')).toHaveAttribute('aria-activedescendant', (await deactivate.getAttribute('id')) ?? 'none');
    await expect(deactivate).toHaveAttribute('data-focus', '');
    await expect(deactivate).toHaveAttribute('aria-disabled', 'true');
    await expect(deactivate).toHaveAccessibleDescription(T.notOwnerOrServicer);
    await expect(deactivate.getByText(T.notOwnerOrServicer)).toBeVisible();
    await expect(deactivate).not.toHaveAttribute('href');
    await expectNoAxeViolations();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: ASSET_TEXTS.rowActions(loan.uli) }).click();
    // A pointer on it too (forced: Playwright waits for aria-disabled items to become enabled).
    await page.getByRole('menuitem', { name: ASSET_TEXTS.deactivate }).click({ force: true });
    await expect(page).toHaveURL(listView);
    await expect(page.getByRole('heading', { level: 1, name: T.title })).toHaveCount(0);
  });
});
