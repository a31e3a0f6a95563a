// Role transfer requests against the real server and the seeded database: as the admin,
// one of its organizations asks another of them to take over a role it holds on a loan (the
// asset page's dialog, axe clean); the party shows Pending Update; the receiving organization
// confirms in /messages, the asset's party becomes it, and the requester is told; another request
// is rejected, and the requester's asset shows Rejected Update.
import type { Page } from '@playwright/test';
import type { LoanDetails, LoanList } from '../src/contract/loans';
import type { UserParticipant } from '../src/contract/participants';
import { PATHS } from '../src/contract/paths';
import type { UsersMe } from '../src/contract/users';
import { APP_PATHS } from '../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { partyRoleLabel } from '../src/domain/loan';
import { MESSAGES_TEXTS } from '../src/domain/messages';
import { ROLE_TRANSFER_TEXTS as T, TRANSFER_MESSAGES, transferableRoles, type TransferableRole } from '../src/domain/role-transfer';
import { NAVIGATION_LABELS } from '../src/domain/texts';
import { ASSET_PAGE_TEXTS } from '../src/domain/asset-texts';
import { expect, test } from './support/fixtures';

interface Organization {
  readonly id: string;
  readonly name: string;
}

interface Transfer {
  readonly requester: Organization;
  readonly receiver: Organization;
  readonly loanId: string;
  readonly uli: string;
  readonly role: TransferableRole;
}

/** A product call from the signed-in page, as the given organization. */
async function productGet<T>(page: Page, path: string, participantId: string): Promise<T> {
  return page.evaluate(
    async ({ path, participantId, header }) => {
      const response = await fetch(path, { headers: { [header]: participantId, accept: 'application/json' }, credentials: 'include' });
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      return response.json();
    },
    { path, participantId, header: PARTICIPANT_HEADER },
  );
}

/** The admin's organizations other than the one it signed in with (which the other specs use). */
async function otherOrganizations(page: Page): Promise<Organization[]> {
  const current = (await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId)) as string;
  const me = await productGet<UsersMe>(page, PATHS.usersMe, current);
  const memberships = await productGet<UserParticipant[]>(page, PATHS.userParticipants(me.user.id), current);
  return memberships.map(({ participant }) => ({ id: participant.id, name: participant.name })).filter(({ id }) => id !== current);
}

/**
 * A role one of `organizations` may transfer on an active loan, not pending, and another of them
 * that does not hold it to receive it; loans in `taken` left out. Loans from the end of the list.
 */
async function findTransfer(page: Page, organizations: Organization[], taken: readonly string[] = []): Promise<Transfer> {
  for (const requester of organizations) {
    const { loans } = await productGet<LoanList>(page, `${PATHS.loans}?limit=50&offset=0`, requester.id);
    for (const loan of [...loans].reverse()) {
      if (loan.status !== 'Active' || taken.includes(loan.loanId)) continue;
      const details = await productGet<LoanDetails>(page, PATHS.loanDetails(loan.loanId), requester.id);
      if (details.loan.deactivated) continue;
      for (const role of transferableRoles(details.parties, requester.id)) {
        const party = details.parties.find((entry) => entry.role === role);
        if (!party || party.state === 'PENDING') continue;
        const receiver = organizations.find(({ id }) => id !== requester.id && id !== party.participantId);
        if (receiver) return { requester, receiver, loanId: loan.loanId, uli: details.loan.loanData.loan.uli, role };
      }
    }
  }
  throw new Error('no role of the admin’s organizations can be transferred to another of them');
}

/** Switches through the navigation's organization search; the app goes to the dashboard. */
async function switchTo(page: Page, organization: Organization) {
  const search = page.getByRole('combobox', { name: NAVIGATION_LABELS.switchOrganization, exact: true });
  await search.click();
  await search.fill(organization.name);
  await page.getByRole('option', { name: organization.name, exact: true }).click();
  await expect(page).toHaveURL(/\/registry\/dashboard$/);
  await expect(page.getByTestId('current-organization')).toHaveText(organization.name);
}

const partyRow = (page: Page, role: string) =>
  page
    .getByRole('table', { name: ASSET_PAGE_TEXTS.parties })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: partyRoleLabel(role), exact: true }) });

async function openAsset(page: Page, loanId: string) {
  await page.goto(`.${APP_PATHS.asset(loanId)}`);
  await expect(page.getByRole('table', { name: ASSET_PAGE_TEXTS.parties })).toBeVisible();
}

/** As the requester on its asset page: the dialog, the role and the receiver, the review, the request. */
async function requestTransfer(page: Page, transfer: Transfer, checkAxe?: () => Promise<void>) {
  await openAsset(page, transfer.loanId);
  const open = page.getByRole('button', { name: T.open });
  await open.click();
  const dialog = page.getByRole('dialog', { name: T.title });
  const role = dialog.getByRole('combobox', { name: T.role });
  await expect(role).toBeFocused();
  await role.selectOption(transfer.role);
  const receiver = dialog.getByRole('combobox', { name: T.receiver });
  await receiver.fill(transfer.receiver.name);
  await expect(dialog.getByRole('option', { name: transfer.receiver.name, exact: true })).toBeVisible();
  await checkAxe?.();
  await dialog.getByRole('option', { name: transfer.receiver.name, exact: true }).click();
  await expect(receiver).toHaveValue(transfer.receiver.name);
  await dialog.getByRole('button', { name: T.review }).click();

  const value = (label: string) => dialog.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd');
  await expect(value(T.role)).toHaveText(partyRoleLabel(transfer.role));
  await expect(value(T.receiver)).toHaveText(transfer.receiver.name);
  await expect(value(T.asset)).toHaveText(transfer.uli);
  await expect(dialog.getByRole('button', { name: T.submit })).toBeFocused();
  await checkAxe?.();
  await dialog.getByRole('button', { name: T.submit }).click();

  await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: T.sent })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(open).toBeFocused();
  // The asset loaded again: the role waits on the receiver.
  await expect(partyRow(page, transfer.role).getByRole('cell').nth(1)).toHaveText(T.pending);
  await expect(page.locator('dt', { hasText: /^Status$/ }).locator('+ dd')).toHaveText(T.pending);
}

/** The receiver's actionable message of this request (the newest first) in /messages. */
async function requestMessage(page: Page, transfer: Transfer) {
  await page.goto(`.${APP_PATHS.messages}`);
  await expect(page.getByRole('heading', { level: 1, name: MESSAGES_TEXTS.title })).toBeVisible();
  return page
    .getByRole('listitem')
    .filter({ hasText: `Asset ${transfer.uli}: ${transfer.requester.name} requests that` })
    .first();
}

test.describe('role transfer requests', () => {
  test.beforeEach(async ({ signIn }) => {
    test.setTimeout(120_000);
    await signIn('admin@registry.test');
  });

  test('requested as one organization, confirmed by the other: the party changes and the requester is told; axe clean', async ({
    page,
    expectNoAxeViolations,
  }) => {
    const transfer = await findTransfer(page, await otherOrganizations(page));
    await switchTo(page, transfer.requester);
    await requestTransfer(page, transfer, () => expectNoAxeViolations());

    await switchTo(page, transfer.receiver);
    const message = await requestMessage(page, transfer);
    await message.getByRole('button', { name: MESSAGES_TEXTS.confirm }).click();
    await expect(
      page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: MESSAGES_TEXTS.confirmed }),
    ).toBeVisible();
    await expect(message.getByText(MESSAGES_TEXTS.answeredConfirmed, { exact: true })).toBeVisible();
    await expect(message.getByRole('button', { name: MESSAGES_TEXTS.confirm })).toHaveCount(0);

    await openAsset(page, transfer.loanId);
    const party = partyRow(page, transfer.role).getByRole('cell');
    await expect(party.nth(0)).toHaveText(transfer.receiver.name);
    await expect(party.nth(1)).toHaveText('Confirmed');

    await switchTo(page, transfer.requester);
    await page.goto(`.${APP_PATHS.messages}`);
    await expect(page.getByText(TRANSFER_MESSAGES.confirmed(transfer.receiver.name, transfer.role, transfer.uli)).first()).toBeVisible();
  });

  test('requested, then rejected by the receiver: the requester keeps the role and sees Rejected Update', async ({ page }) => {
    const organizations = await otherOrganizations(page);
    const transfer = await findTransfer(page, organizations);
    await switchTo(page, transfer.requester);
    await requestTransfer(page, transfer);

    await switchTo(page, transfer.receiver);
    const message = await requestMessage(page, transfer);
    await message.getByRole('button', { name: MESSAGES_TEXTS.reject }).click();
    await expect(
      page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: MESSAGES_TEXTS.rejected }),
    ).toBeVisible();
    await expect(message.getByText(MESSAGES_TEXTS.answeredRejected, { exact: true })).toBeVisible();

    await switchTo(page, transfer.requester);
    await openAsset(page, transfer.loanId);
    const party = partyRow(page, transfer.role).getByRole('cell');
    await expect(party.nth(0)).not.toHaveText(transfer.receiver.name);
    await expect(party.nth(1)).toHaveText(T.rejected);
    await page.goto(`.${APP_PATHS.messages}`);
    await expect(page.getByText(TRANSFER_MESSAGES.rejected(transfer.receiver.name, transfer.role, transfer.uli)).first()).toBeVisible();
  });
});
