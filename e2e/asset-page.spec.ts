// The asset page against the real server and seeded database: tabs Details, History and
// Documents (links with aria-current, URL-driven), every detail field in SPEC formats, SPEC's
// history rules, deep links and the back button, not found for unknown, foreign and malformed
// ids, axe on every tab; and the dashboard's Assets tile.
import type { Page } from '@playwright/test';
import type { LoanDetails, LoanEvent, LoanList } from '../src/contract/loans';
import type { UserParticipant } from '../src/contract/participants';
import type { UsersMe } from '../src/contract/users';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { formatCurrency, formatDate, formatPhone } from '../src/domain/format';
import { detailStatus, loanTypeLabel } from '../src/domain/loan';
import { historyDateLabel, historyEvents } from '../src/domain/loan-history';
import { ASSET_COUNT_TEXTS, NAVIGATION_LABELS } from '../src/domain/texts';
import { ASSET_PAGE_TEXTS, DOCUMENT_TEXTS } from '../src/domain/asset-texts';
import { expect, test } from './support/fixtures';

/** A product call from the signed-in page, as a given organization: status and JSON body. */
async function productGet<T>(page: Page, path: string, participantId: string): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ path, participantId, header }) => {
      const response = await fetch(path, { headers: { [header]: participantId, accept: 'application/json' }, credentials: 'include' });
      return { status: response.status, body: response.ok ? await response.json() : null };
    },
    { path, participantId, header: PARTICIPANT_HEADER },
  );
}

async function organizationsOf(page: Page): Promise<string[]> {
  const current = (await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId)) as string;
  const me = await productGet<UsersMe>(page, PATHS.usersMe, current);
  const memberships = await productGet<UserParticipant[]>(page, PATHS.userParticipants(me.body.user.id), current);
  return [current, ...memberships.body.map((entry) => entry.participant.id).filter((id) => id !== current)];
}

async function loanIdsOf(page: Page, participantId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const { body } = await productGet<LoanList>(page, `${PATHS.loans}?limit=100&offset=${offset}`, participantId);
    ids.push(...body.loans.map((loan) => loan.loanId));
    if (offset + 100 >= body.totalCount) return ids;
  }
}

interface FoundLoan {
  readonly participantId: string;
  readonly loanId: string;
  readonly details: LoanDetails;
  readonly events: LoanEvent[];
}

/** The first loan, over the admin's organizations, whose events satisfy the predicate. */
async function findLoan(page: Page, wanted: (events: LoanEvent[]) => boolean): Promise<FoundLoan> {
  for (const participantId of await organizationsOf(page)) {
    for (const loanId of await loanIdsOf(page, participantId)) {
      const events = (await productGet<LoanEvent[]>(page, PATHS.loanEvents(loanId), participantId)).body;
      if (!wanted(events)) continue;
      const details = (await productGet<LoanDetails>(page, PATHS.loanDetails(loanId), participantId)).body;
      return { participantId, loanId, details, events };
    }
  }
  throw new Error('the seed holds no such loan');
}

/** Acts as the organization from now on (the session reads the stored choice on load). */
async function useOrganization(page: Page, participantId: string) {
  await page.evaluate(({ key, id }) => window.localStorage.setItem(key, id), { key: STORAGE_KEYS.participantId, id: participantId });
}

const hiddenRequest = (event: LoanEvent) => event.state === 'Requested' && event.eventType !== 'DEACTIVATION_REQUESTED';
const waitingDeactivation = (event: LoanEvent) => event.state === 'Requested' && event.eventType === 'DEACTIVATION_REQUESTED';

const tabs = (page: Page) => page.getByRole('navigation', { name: ASSET_PAGE_TEXTS.tabsLabel });
const tab = (page: Page, name: string) => tabs(page).getByRole('link', { name });
const panel = (page: Page) => page.getByRole('region', { name: /^(Details|History|Documents)$/ });

async function expectCurrentTab(page: Page, name: string) {
  await expect(tab(page, name)).toHaveAttribute('aria-current', 'page');
  for (const other of ['Details', 'History', 'Documents'].filter((t) => t !== name)) {
    await expect(tab(page, other)).not.toHaveAttribute('aria-current', 'page');
  }
}

async function expectHistoryRows(page: Page, events: LoanEvent[]) {
  const shown = historyEvents(events);
  const rows = panel(page).getByRole('row');
  await expect(rows).toHaveCount(shown.length + 1);
  await expect(rows.locator('td:first-child')).toHaveText(shown.map(historyDateLabel));
}

test.describe('asset page', () => {
  test('Details: every field in SPEC formats, the status by the detail rule, parties with profiles; axe clean', async ({
    page,
    signIn,
    expectNoAxeViolations,
  }) => {
    await signIn('admin@registry.test');
    const loan = await findLoan(page, (events) => events.some(hiddenRequest));
    await useOrganization(page, loan.participantId);
    await page.goto(`.${APP_PATHS.asset(loan.loanId)}`);
    await expect(page.getByRole('heading', { level: 1, name: ASSET_PAGE_TEXTS.title })).toBeVisible();
    await expectCurrentTab(page, 'Details');

    const { loanData, propertyAddress } = loan.details.loan;
    const field = (label: string) =>
      panel(page)
        .locator('dt', { hasText: new RegExp(`^${label}$`) })
        .locator('+ dd');
    await expect(field('ULI')).toHaveText(loanData.loan.uli);
    await expect(field('Loan number')).toHaveText(loanData.loan.loanNumber);
    await expect(field('Loan type')).toHaveText(loanTypeLabel(loanData.loan.loanType));
    const status = detailStatus(
      { status: loanData.status, deactivated: loan.details.loan.deactivated },
      loan.details.parties.map((p) => p.state),
    );
    await expect(field('Status')).toHaveText(status);
    await expect(field('Note amount')).toHaveText(formatCurrency(loanData.note.amount));
    await expect(field('Note amount')).toHaveText(/^\$[\d,]+$/);
    await expect(field('Note date')).toHaveText(formatDate(loanData.note.noteDate));
    await expect(field('Note date')).toHaveText(/^\d{2}-\d{2}-\d{4}$/);
    await expect(field('Note location')).toHaveText(loanData.note.noteLocation ?? '—');
    await expect(field('Modification')).toHaveText(loanData.note.modification ? 'Yes' : 'No');
    await expect(field('Assumption')).toHaveText(loanData.note.assumption ? 'Yes' : 'No');
    await expect(field('Primary party')).toHaveText(`${loanData.primaryParty.firstName} ${loanData.primaryParty.lastName}`);
    await expect(field('DART as original mortgagee')).toHaveText(loanData.dartAsOriginalMortgagee ? 'Yes' : 'No');
    await expect(field('Deactivated')).toHaveText(loan.details.loan.deactivated ? 'Yes' : 'No');
    await expect(field('Address')).toContainText(`${propertyAddress.city}, ${propertyAddress.state} ${propertyAddress.zip}`);

    const parties = panel(page).getByRole('table', { name: ASSET_PAGE_TEXTS.parties });
    await expect(parties.getByRole('row')).toHaveCount(loan.details.parties.length + 1);
    const withProfile = loan.details.parties.find((party) => party.profileInfo);
    if (withProfile?.profileInfo) {
      await expect(parties.getByText(formatPhone(withProfile.profileInfo.phoneNumber)).first()).toBeVisible();
      await expect(parties.getByText(formatPhone(withProfile.profileInfo.phoneNumber)).first()).toHaveText(/^\(\d{3}\) \d{3}-\d{4}$/);
    }
    await expectNoAxeViolations();
  });

  test('History hides Requested events but a waiting deactivation; dates by rule; tabs, deep links and the back button', async ({
    page,
    signIn,
    expectNoAxeViolations,
  }) => {
    await signIn('admin@registry.test');
    const loan = await findLoan(page, (events) => events.some(waitingDeactivation));
    await useOrganization(page, loan.participantId);

    // Deep link straight to the History tab.
    await page.goto(`.${APP_PATHS.asset(loan.loanId, 'history')}`);
    await expectCurrentTab(page, 'History');
    await expectHistoryRows(page, loan.events);
    const deactivation = loan.events.find(waitingDeactivation) as LoanEvent;
    await expect(panel(page).getByRole('row', { name: new RegExp(deactivation.eventDescription) })).toContainText(
      formatDate(deactivation.requestedDate),
    );
    await expectNoAxeViolations();

    // Tabs by click; the URL follows, and the back button walks them back.
    await tab(page, 'Documents').click();
    await expect(page).toHaveURL(new RegExp(`${APP_PATHS.asset(loan.loanId, 'documents')}$`));
    await expectCurrentTab(page, 'Documents');
    // The loan's documents, or the note that it has none (e2e/documents.spec.ts opens them).
    await expect(
      panel(page).getByRole('navigation', { name: DOCUMENT_TEXTS.listLabel }).or(panel(page).getByText(DOCUMENT_TEXTS.noDocuments)),
    ).toBeVisible();
    await expectNoAxeViolations();
    await tab(page, 'Details').click();
    await expect(page).toHaveURL(new RegExp(`${APP_PATHS.asset(loan.loanId)}$`));
    await expectCurrentTab(page, 'Details');
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${APP_PATHS.asset(loan.loanId, 'documents')}$`));
    await expectCurrentTab(page, 'Documents');
    await page.goBack();
    await expectCurrentTab(page, 'History');
    await expectHistoryRows(page, loan.events);
  });

  test('a Requested transfer stays out of the history', async ({ page, signIn }) => {
    await signIn('admin@registry.test');
    const loan = await findLoan(page, (events) => events.some(hiddenRequest));
    await useOrganization(page, loan.participantId);
    await page.goto(`.${APP_PATHS.asset(loan.loanId, 'history')}`);
    await expectHistoryRows(page, loan.events);
    expect(historyEvents(loan.events).length).toBeLessThan(loan.events.length);
  });

  test('unknown, foreign and malformed ids show not found; axe clean', async ({ page, signIn, expectNoAxeViolations }) => {
    await signIn('admin@registry.test');
    const [current, ...others] = await organizationsOf(page);
    const notFound = page.getByRole('heading', { level: 1, name: ASSET_PAGE_TEXTS.notFoundTitle });

    await page.goto(`.${APP_PATHS.asset('00000000-0000-4000-8000-00000000abcd')}`);
    await expect(notFound).toBeVisible();
    await expect(page.getByText(ASSET_PAGE_TEXTS.notFoundBody)).toBeVisible();
    await expect(tabs(page)).toHaveCount(0);
    await expectNoAxeViolations();

    // A loan another of the admin's organizations holds, which the current one does not.
    let foreign: string | undefined;
    for (const other of others) {
      for (const loanId of await loanIdsOf(page, other)) {
        if ((await productGet(page, PATHS.loanDetails(loanId), current as string)).status === 404) {
          foreign = loanId;
          break;
        }
      }
      if (foreign) break;
    }
    expect(foreign).toBeDefined();
    await page.goto(`.${APP_PATHS.asset(foreign as string, 'history')}`);
    await expect(notFound).toBeVisible();

    await page.goto('./assets/asset/not-a-loan/details');
    await expect(notFound).toBeVisible();
    await page.getByRole('link', { name: ASSET_PAGE_TEXTS.backToAssets }).click();
    await expect(page).toHaveURL(new RegExp(`${APP_PATHS.assets}`));
  });
});

test('the dashboard counts the organization’s assets, and counts again after a switch', async ({ page, signIn }) => {
  await signIn('admin@registry.test');
  const [current, other] = await organizationsOf(page);
  const count = async (participantId: string) =>
    (await productGet<LoanList>(page, `${PATHS.loans}?limit=10`, participantId)).body.totalCount;
  const tile = page.getByRole('list', { name: 'Dashboard' }).getByTestId('asset-count');
  await expect(tile).toHaveText(ASSET_COUNT_TEXTS.assets(await count(current as string)));

  await page.getByRole('combobox').click();
  const otherName = (
    await productGet<UserParticipant[]>(
      page,
      PATHS.userParticipants((await productGet<UsersMe>(page, PATHS.usersMe, current as string)).body.user.id),
      current as string,
    )
  ).body.find((entry) => entry.participant.id === other)?.participant.name as string;
  await page.getByRole('option', { name: otherName, exact: true }).click();
  await expect(page.getByTestId('current-organization')).toHaveText(otherName);
  await expect(tile).toHaveText(ASSET_COUNT_TEXTS.assets(await count(other as string)));
  await expect(
    page.getByRole('list', { name: 'Dashboard' }).getByRole('heading', { level: 2, name: NAVIGATION_LABELS.assets }),
  ).toBeVisible();
});
