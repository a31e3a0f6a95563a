// The audit trail against the real server and the seeded database: as the admin, one of its
// organizations asks another to take over a role on a loan and the other confirms (through the
// API: the dialog and the messages are role-transfer.spec.ts's); the receiver, now holding the
// role, opens the asset's Activity tab and reads both changes in plain words, newest first; the
// registry staff's audit log finds them by the loan's id. Axe clean.
import type { Page } from '@playwright/test';
import type { LoanDetails, LoanList } from '../src/contract/loans';
import type { MessageList } from '../src/contract/messages';
import type { UserParticipant } from '../src/contract/participants';
import { PATHS } from '../src/contract/paths';
import type { UsersMe } from '../src/contract/users';
import { APP_PATHS } from '../src/domain/app-paths';
import { ASSET_PAGE_TEXTS } from '../src/domain/asset-texts';
import { AUDIT_TEXTS } from '../src/domain/audit-texts';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { partyRoleLabel } from '../src/domain/loan';
import { transferableRoles, type TransferableRole } from '../src/domain/role-transfer';
import { NAVIGATION_LABELS } from '../src/domain/texts';
import { expect, test } from './support/fixtures';

interface Organization {
  readonly id: string;
  readonly name: string;
}

/** A product call from the signed-in page, as the given organization; answers the JSON body. */
async function call<T>(page: Page, method: string, path: string, participantId: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, path, participantId, header, body }) => {
      const response = await fetch(path, {
        method,
        headers: { [header]: participantId, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        credentials: 'include',
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
      return response.json();
    },
    { method, path, participantId, header: PARTICIPANT_HEADER, body },
  );
}

async function otherOrganizations(page: Page): Promise<Organization[]> {
  const current = (await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId)) as string;
  const me = await call<UsersMe>(page, 'GET', PATHS.usersMe, current);
  const memberships = await call<UserParticipant[]>(page, 'GET', PATHS.userParticipants(me.user.id), current);
  return memberships.map(({ participant }) => ({ id: participant.id, name: participant.name })).filter(({ id }) => id !== current);
}

/** A role one organization may transfer to another on an active loan (loans from the start of the list). */
async function findTransfer(page: Page, organizations: Organization[]) {
  for (const requester of organizations) {
    const { loans } = await call<LoanList>(page, 'GET', `${PATHS.loans}?limit=50&offset=0`, requester.id);
    for (const loan of loans) {
      if (loan.status !== 'Active') continue;
      const details = await call<LoanDetails>(page, 'GET', PATHS.loanDetails(loan.loanId), requester.id);
      if (details.loan.deactivated) continue;
      for (const role of transferableRoles(details.parties, requester.id)) {
        const party = details.parties.find((entry) => entry.role === role);
        if (!party || party.state === 'PENDING') continue;
        const receiver = organizations.find(({ id }) => id !== requester.id && id !== party.participantId);
        if (receiver) return { requester, receiver, loanId: loan.loanId, role: role as TransferableRole, holder: party };
      }
    }
  }
  throw new Error('no role of the admin’s organizations can be transferred to another of them');
}

async function switchTo(page: Page, organization: Organization) {
  const search = page.getByRole('combobox', { name: NAVIGATION_LABELS.switchOrganization, exact: true });
  await search.click();
  await search.fill(organization.name);
  await page.getByRole('option', { name: organization.name, exact: true }).click();
  await expect(page.getByTestId('current-organization')).toHaveText(organization.name);
}

test('the Activity tab after a transfer, and the staff audit log; axe clean', async ({ page, signIn, expectNoAxeViolations }) => {
  test.setTimeout(120_000);
  await signIn('admin@registry.test');
  const transfer = await findTransfer(page, await otherOrganizations(page));
  await call(page, 'POST', PATHS.loanRoleRequests(transfer.loanId), transfer.requester.id, {
    role: transfer.role,
    participantId: transfer.receiver.id,
  });
  const { messages } = await call<MessageList>(page, 'GET', `${PATHS.messages}?limit=100&offset=0`, transfer.receiver.id);
  const message = messages.find((entry) => entry.targetId === transfer.loanId && entry.messageData.isActionable);
  if (!message) throw new Error('no request message');
  await call(page, 'PATCH', PATHS.messages, transfer.receiver.id, { uuid: message.uuid, response: true });

  // The receiver holds the role now: its asset page, the Activity tab.
  await switchTo(page, transfer.receiver);
  await page.goto(`.${APP_PATHS.asset(transfer.loanId)}`);
  await expect(page.getByRole('table', { name: ASSET_PAGE_TEXTS.parties })).toBeVisible();
  const tabs = page.getByRole('navigation', { name: ASSET_PAGE_TEXTS.tabsLabel });
  await tabs.getByRole('link', { name: ASSET_PAGE_TEXTS.activity }).click();
  await expect(page).toHaveURL(/\/details\/activity$/);
  await expect(tabs.getByRole('link', { name: ASSET_PAGE_TEXTS.activity })).toHaveAttribute('aria-current', 'page');
  const table = page.getByRole('table', { name: AUDIT_TEXTS.activityTableLabel });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(3);
  const role = partyRoleLabel(transfer.role).toLowerCase();
  await expect(rows.nth(1)).toContainText(`${transfer.receiver.name} accepted the ${role} role; it moved from `);
  await expect(rows.nth(1)).toContainText(` to ${transfer.receiver.name}.`);
  await expect(rows.nth(1)).toContainText('admin@registry.test');
  await expect(rows.nth(2)).toContainText(`Asked ${transfer.receiver.name} to take over the ${role} role`);
  // The request was made for another organization: its name, not its user.
  await expect(rows.nth(2)).toContainText(transfer.requester.name);
  await expect(rows.nth(2)).not.toContainText('admin@registry.test');
  await expectNoAxeViolations();

  // Registry staff: the whole log, searched by the loan's id.
  await page.goto(`.${APP_PATHS.auditLog}`);
  await expect(page.getByRole('heading', { level: 1, name: AUDIT_TEXTS.logTitle })).toBeVisible();
  await page.getByLabel(AUDIT_TEXTS.entityIdField).fill(transfer.loanId);
  await page.getByRole('button', { name: AUDIT_TEXTS.search }).click();
  await expect(page).toHaveURL(new RegExp(`entity=${transfer.loanId}`));
  const found = page.getByRole('table', { name: AUDIT_TEXTS.logTableLabel }).getByRole('row');
  await expect(found).toHaveCount(3);
  await expect(found.nth(1)).toContainText('role-request');
  await expectNoAxeViolations();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: AUDIT_TEXTS.exportCsv }).click();
  expect((await download).suggestedFilename()).toBe('audit-log.csv');
});
