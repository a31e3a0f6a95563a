// The public servicer lookup (SPEC sections 2, 5 and 8) in the browser: a seeded loan's borrower
// and address find its servicer (through the ALTCHA proof of work, solved by the widget), an
// unknown borrower gets 'No matches found' with the contact and the way back, every form message
// shows, and the form and results pages are axe clean.
import type { Browser } from '@playwright/test';
import type { LoanDetails, LoanList } from '../src/contract/loans';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { ADDRESS_AUTOCOMPLETE_TEXTS as A, SERVICER_LOOKUP_TEXTS as T } from '../src/domain/servicer-lookup';
import { SUPPORT_CONTACT } from '../src/domain/texts';
import { expect, test } from './support/fixtures';

interface SeededLoan {
  readonly lastName: string;
  readonly address: LoanDetails['loan']['propertyAddress'];
  readonly loanNumber: string;
}

/** A seeded active loan, read by registry staff through the API (the anonymous visitor knows it from the borrower). */
async function seededLoan(browser: Browser): Promise<SeededLoan> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { signIn } = await import('./support/fixtures');
  await signIn(page, 'admin@registry.test');
  const list = (await (
    await page.request.get(`${PATHS.loans}?limit=50&offset=0`, { headers: { accept: 'application/json' } })
  ).json()) as LoanList;
  for (const item of list.loans) {
    const details = (await (
      await page.request.get(PATHS.loanDetails(item.loanId), { headers: { accept: 'application/json' } })
    ).json()) as LoanDetails;
    const { loan } = details;
    if (loan.loanData.status === 'Active' && !loan.deactivated) {
      await context.close();
      return { lastName: loan.loanData.primaryParty.lastName, address: loan.propertyAddress, loanNumber: loan.loanData.loan.loanNumber };
    }
  }
  throw new Error('no active seeded loan');
}

test.describe('servicer lookup', () => {
  test('finds the servicer of a seeded loan by its borrower and address, shows nothing of the borrower', async ({
    page,
    browser,
    expectNoAxeViolations,
  }) => {
    const loan = await seededLoan(browser);
    await page.goto(`/registry${APP_PATHS.servicerLookup}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Servicer Lookup' })).toBeVisible();
    await expectNoAxeViolations();
    await page.getByLabel('Borrower last name').fill(loan.lastName.toUpperCase());
    await page.getByLabel('Street').fill(loan.address.street1);
    if (loan.address.street2) await page.getByLabel('Apt/Unit').fill(loan.address.street2);
    await page.getByLabel('City').fill(loan.address.city);
    await page.getByLabel('State').selectOption(loan.address.state);
    await page.getByLabel('Zip').fill(loan.address.zip);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/registry\/servicer-lookup\/results\?/);
    const found = page.getByRole('list', { name: 'Servicers found' });
    await expect(found).toBeVisible({ timeout: 20_000 });
    await expect(found.getByText(`${'*'.repeat(loan.loanNumber.length - 4)}${loan.loanNumber.slice(-4)}`)).toBeVisible();
    await expect(page.getByText(loan.lastName, { exact: false })).toHaveCount(0);
    expect(new URL(page.url()).searchParams.get('zip')).toBe(loan.address.zip);
    await expectNoAxeViolations();
  });

  test('types part of a seeded loan’s street, chooses its address by keyboard, and finds its servicer', async ({
    page,
    browser,
    expectNoAxeViolations,
  }) => {
    const loan = await seededLoan(browser);
    const { street1, street2, city, state, zip } = loan.address;
    const fullAddress = `${street1}${street2 ? ` ${street2}` : ''}, ${city}, ${state} ${zip}`;
    await page.goto(`/registry${APP_PATHS.servicerLookup}`);
    await page.getByLabel('Borrower last name').fill(loan.lastName);
    const street = page.getByRole('combobox', { name: 'Street' });
    await street.pressSequentially(street1.slice(0, Math.max(6, street1.length - 2)), { delay: 40 });
    const suggestions = page.getByRole('listbox', { name: A.listLabel });
    await expect(suggestions.getByRole('option', { name: fullAddress, exact: true })).toBeVisible({ timeout: 10_000 });
    await expect(street).toHaveAttribute('aria-expanded', 'true');
    await expectNoAxeViolations();
    // Down the list until the loan's address is the active option, then Enter.
    const active = async () => {
      const id = await street.getAttribute('aria-activedescendant');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };
    for (let presses = 0; presses < 12 && (await active()) !== fullAddress; presses++) await street.press('ArrowDown');
    expect(await active()).toBe(fullAddress);
    await street.press('Enter');
    await expect(suggestions).toBeHidden();
    await expect(street).toHaveValue(`${street1}${street2 ? ` ${street2}` : ''}`);
    await expect(page.getByLabel('City')).toHaveValue(city);
    await expect(page.getByLabel('State')).toHaveValue(state);
    await expect(page.getByLabel('Zip')).toHaveValue(zip);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/\/registry\/servicer-lookup\/results\?/);
    await expect(page.getByRole('list', { name: 'Servicers found' })).toBeVisible({ timeout: 20_000 });
  });

  test('Escape closes the suggestions and keeps what was typed; arrows and the pointer choose', async ({ page }) => {
    await page.goto(`/registry${APP_PATHS.servicerLookup}`);
    const street = page.getByRole('combobox', { name: 'Street' });
    await street.pressSequentially('4719 Oak', { delay: 40 });
    await expect(page.getByRole('listbox', { name: A.listLabel }).getByRole('option').first()).toBeVisible({ timeout: 10_000 });
    await street.press('Escape');
    await expect(page.getByRole('listbox', { name: A.listLabel })).toBeHidden();
    await expect(street).toHaveValue('4719 Oak');
    await expect(page.getByLabel('City')).toHaveValue('');
    // Typing again lists them again; Up goes back; the pointer chooses as well.
    await street.pressSequentially(' R', { delay: 40 });
    const options = page.getByRole('listbox', { name: A.listLabel }).getByRole('option');
    await expect(options.first()).toBeVisible({ timeout: 10_000 });
    await street.press('ArrowDown');
    await street.press('ArrowDown');
    await street.press('ArrowUp');
    await expect(street).toHaveAttribute('aria-activedescendant', (await options.first().getAttribute('id')) ?? '');
    const chosen = (await options.first().textContent()) ?? '';
    await options.first().click();
    await expect(page.getByLabel('City')).toHaveValue(chosen.split(', ')[1] ?? '');
    await expect(page.getByLabel('Zip')).toHaveValue(chosen.split(' ').at(-1) ?? '');
  });

  test('an unknown borrower gets No matches found with the contact and the way back', async ({ page, expectNoAxeViolations }) => {
    await page.goto(`/registry${APP_PATHS.servicerLookup}`);
    await page.getByLabel('Borrower last name').fill('Nobody-Such');
    await page.getByLabel('Street').fill('1 Nowhere Lane');
    await page.getByLabel('City').fill('Springfield');
    await page.getByLabel('State').selectOption('IL');
    await page.getByLabel('Zip').fill('62704-1234');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText(T.noMatches)).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('link', { name: SUPPORT_CONTACT.email })).toBeVisible();
    await expectNoAxeViolations();
    await page.getByRole('link', { name: T.returnLink }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Servicer Lookup' })).toBeVisible();
    await expect(page).toHaveURL(/\/registry\/servicer-lookup$/);
  });

  test('a results URL without every field asks nothing and says No matches found', async ({ page }) => {
    let asked = 0;
    page.on('request', (request) => {
      if (request.url().includes('/servicer_lookup?')) asked += 1;
    });
    await page.goto(`/registry${APP_PATHS.servicerLookupResults}?borrowerLastName=Smith&street1=1%20Main%20St&state=IL&zip=62704`);
    await expect(page.getByText(T.noMatches)).toBeVisible();
    await expect(page.getByRole('link', { name: T.returnLink })).toBeVisible();
    expect(asked).toBe(0);
  });

  test('shows every form message of SPEC section 5', async ({ page, expectNoAxeViolations }) => {
    await page.goto(`/registry${APP_PATHS.servicerLookup}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText(T.required, { exact: true })).toHaveCount(3);
    await expect(page.getByText(T.invalidState)).toBeVisible();
    await expect(page.getByText(T.invalidZip)).toBeVisible();
    await expect(page.getByLabel('Borrower last name')).toBeFocused();
    await expect(page.getByLabel('Zip')).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations();
    await page.getByLabel('Zip').fill('1234');
    await expect(page.getByText(T.invalidZip)).toBeVisible();
    await page.getByLabel('Zip').fill('12345-6789');
    await expect(page.getByText(T.invalidZip)).toHaveCount(0);
  });
});
