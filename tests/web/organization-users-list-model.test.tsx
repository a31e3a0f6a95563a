// @vitest-environment jsdom
// Model-based test of the organization-users-list machine through the signed-in app: every
// transition of its statechart is walked on /administration/organizations/:id/users (the
// organization's name read or not, an invitation resent, its new link copied, an invitation
// revoked, each failing too) over a fake API whose calls the test settles. Paging and sorting are
// the shared list's, walked in paged-list-model.test.tsx; the columns follow below.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { organizationUsersListMachine } from '../../machines/organization-users-list';
import { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { ORGANIZATION_USERS_TEXTS as T } from '../../src/domain/organization-users';
import { rowLinkId } from '../../src/web/screens/organization-users/organization-users-actors';
import { lastSignInText } from '../../src/web/screens/organization-users/organization-users-screen';
import { createModelWalker } from '../machines/support/model-coverage';
import {
  accepted,
  admin,
  copyRefused,
  expired,
  organization,
  page,
  pending,
  resent,
  walk,
} from '../machines/walks/organization-users-list';
import { INVITATION_LINK, ORGANIZATION_ID, sampleMember } from '../support/organization-user-fixtures';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { toastTexts } from './support/messages-screen';
import { renderSignedIn } from './support/render-app';

const walker = createModelWalker(organizationUsersListMachine, walk);

const user = userEvent.setup();
const row = (name: string) => within(screen.getByRole('row', { name: new RegExp(name) }));

function deferClipboard() {
  const writes: { text: string; resolve: () => void; reject: (error: unknown) => void }[] = [];
  const writeText = vi.fn((text: string) => new Promise<void>((resolve, reject) => writes.push({ text, resolve, reject })));
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return {
    writes,
    async settle(error?: unknown) {
      await waitFor(() => expect(writes.length).toBeGreaterThan(0));
      const write = writes.shift();
      if (error) write?.reject(error);
      else write?.resolve();
    },
  };
}

async function openList() {
  const app = await renderSignedIn([sampleOrganization(1, true)]);
  const calls = deferProductCalls(app.fake.api, ['organizationUsers', 'organization', 'resendInvitation', 'revokeInvitation']);
  const clipboard = deferClipboard();
  await act(() => app.router.navigate(APP_PATHS.organizationUsers(ORGANIZATION_ID)));
  await screen.findByRole('heading', { level: 1, name: T.title });
  await calls.settle('organizationUsers', { value: page });
  await screen.findByText(pending.email);
  return { app, calls, clipboard };
}

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/organization-users/organization-users-screen'),
  ]);
});

describe('organization-users-list machine, driven through the users screen', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { calls, clipboard } = await openList();
      await path.test({
        states: {
          // The rows are on screen whatever the heading and the invitations do.
          organization: () => expect(screen.getByText(admin.email)).toBeInTheDocument(),
          invitations: () => expect(screen.getByRole('table', { name: T.tableLabel })).toBeInTheDocument(),
          'organization.loading': () => {
            expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Users$/);
          },
          'organization.named': async () => {
            await screen.findByRole('heading', { level: 1, name: T.titleOf('Acme Lending') });
          },
          'organization.unnamed': () => {
            expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Users$/);
          },
          'invitations.idle': async ({ context }) => {
            await waitFor(() =>
              expect(row(pending.fullName).getByRole('button', { name: `${T.resend}: ${pending.fullName}` })).toHaveAttribute(
                'aria-disabled',
                'false',
              ),
            );
            const link = document.getElementById(rowLinkId(pending.userId));
            if (context.links[pending.userId]) expect(link).toHaveValue(INVITATION_LINK);
            else expect(link).toBeNull();
          },
          'invitations.resending': () => {
            expect(row(pending.fullName).getByRole('button', { name: `${T.resend}: ${pending.fullName}` })).toHaveAttribute(
              'aria-busy',
              'true',
            );
            expect(calls.pendingCount('resendInvitation')).toBe(1);
          },
          'invitations.revoking': () => {
            expect(row(pending.fullName).getByRole('button', { name: `${T.revoke}: ${pending.fullName}` })).toHaveAttribute(
              'aria-disabled',
              'true',
            );
            expect(calls.pendingCount('revokeInvitation')).toBe(1);
          },
          'invitations.copying': () => {
            expect(clipboard.writes.map((write) => write.text)).toEqual([INVITATION_LINK]);
          },
        },
        events: {
          'done: loadOrganization': () => calls.settle('organization', { value: organization }),
          'error: loadOrganization': () => calls.settle('organization', { error: new HttpError(404, 'Not Found') }),
          'invitation.resend': () => user.click(row(pending.fullName).getByRole('button', { name: `${T.resend}: ${pending.fullName}` })),
          'invitation.revoke': () => user.click(row(pending.fullName).getByRole('button', { name: `${T.revoke}: ${pending.fullName}` })),
          'link.copy': () => user.click(row(pending.fullName).getByRole('button', { name: `${T.copyLink}: ${pending.fullName}` })),
          'done: resendInvitation': async () => {
            expect(calls.calls('resendInvitation').at(-1)?.slice(0, 2)).toEqual([ORGANIZATION_ID, pending.userId]);
            await calls.settle('resendInvitation', { value: resent });
            await waitFor(() => expect(toastTexts()).toContain(T.resent));
            // The new link has the focus, ready to copy; the page comes again.
            await waitFor(() => expect(document.activeElement).toHaveProperty('id', rowLinkId(pending.userId)));
            await calls.settle('organizationUsers', { value: page });
          },
          'error: resendInvitation': async () => {
            await calls.settle('resendInvitation', { error: accepted });
            await waitFor(() => expect(toastTexts()).toContain(`${T.resendFailed} This invitation has already been used.`));
          },
          'done: revokeInvitation': async () => {
            expect(calls.calls('revokeInvitation').at(-1)?.slice(0, 2)).toEqual([ORGANIZATION_ID, pending.userId]);
            await calls.settle('revokeInvitation', { value: undefined });
            await waitFor(() => expect(toastTexts()).toContain(T.revoked));
            await calls.settle('organizationUsers', { value: page });
          },
          'error: revokeInvitation': async () => {
            await calls.settle('revokeInvitation', { error: accepted });
            await waitFor(() => expect(toastTexts()).toContain(`${T.revokeFailed} This invitation has already been used.`));
          },
          'done: copyLink': async () => {
            await clipboard.settle();
            await waitFor(() => expect(toastTexts()).toContain(T.linkCopied));
          },
          'error: copyLink': async () => {
            await clipboard.settle(copyRefused);
            await waitFor(() => expect(toastTexts()).toContain(T.copyFailed));
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});

describe('organization users screen', () => {
  afterEach(cleanup);

  it('shows name, email, roles, last sign-in and the invitation of each member; edit and remove per row', async () => {
    const now = new Date();
    const recent = sampleMember(4, { lastSignInAt: new Date(now.getTime() - 3 * 60 * 60 * 1000).toISOString() });
    const app = await renderSignedIn([sampleOrganization(1, true)]);
    const calls = deferProductCalls(app.fake.api, ['organizationUsers', 'organization']);
    await act(() => app.router.navigate(APP_PATHS.organizationUsers(ORGANIZATION_ID)));
    expect(await screen.findByText(T.loading)).toBeInTheDocument();
    const [participantId, query] = calls.calls('organizationUsers')[0] ?? [];
    expect(participantId).toBe(ORGANIZATION_ID);
    expect(query).toEqual({ limit: 10, offset: 0, sort: 'name', direction: 'asc' });
    await calls.settle('organizationUsers', { value: { users: [admin, pending, expired, recent], totalCount: 4 } });
    await screen.findByText(admin.email);
    expect(row(admin.fullName).getByText('Organization Admin, Custodian')).toBeInTheDocument();
    expect(row(admin.fullName).getByText(lastSignInText(admin.lastSignInAt, new Date()))).toBeInTheDocument();
    expect(row(recent.fullName).getByText('3 hours ago')).toBeInTheDocument();
    expect(row(pending.fullName).getByText(T.invitationExpires('11-27-2026'))).toBeInTheDocument();
    expect(row(pending.fullName).getByText(T.never)).toBeInTheDocument();
    expect(row(expired.fullName).getByText(T.invitationExpired)).toBeInTheDocument();
    expect(row(admin.fullName).queryByRole('button', { name: new RegExp(T.resend) })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: T.addUser })).toHaveAttribute('href', APP_PATHS.newOrganizationUser(ORGANIZATION_ID));

    // The search goes to the server (and the URL) when submitted.
    await user.type(screen.getByRole('searchbox', { name: T.searchLabel }), 'ada1{Enter}');
    await waitFor(() => expect(app.location().search).toBe('?query=ada1'));
    expect(calls.calls('organizationUsers').at(-1)?.[1]).toEqual({ limit: 10, offset: 0, sort: 'name', direction: 'asc', query: 'ada1' });
    await calls.settle('organizationUsers', { value: { users: [admin], totalCount: 1 } });
    await waitFor(() => expect(screen.queryByText(pending.email)).not.toBeInTheDocument());

    await user.click(row(admin.fullName).getByRole('button', { name: T.actionsOf(admin.fullName) }));
    await user.click(await screen.findByRole('menuitem', { name: T.editRoles }));
    await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.organizationUser(ORGANIZATION_ID, admin.userId)));
    expect(app.location().state).toEqual({ user: admin });
  });

  it('says when there are no users, and when they cannot be loaded (with Try again)', async () => {
    const app = await renderSignedIn([sampleOrganization(1, true)]);
    const calls = deferProductCalls(app.fake.api, ['organizationUsers', 'organization']);
    await act(() => app.router.navigate(APP_PATHS.organizationUsers(ORGANIZATION_ID)));
    await calls.settle('organizationUsers', { error: new HttpError(503, 'Service Unavailable') });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(T.failed);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await calls.settle('organizationUsers', { value: { users: [], totalCount: 0 } });
    expect(await screen.findByText(T.empty)).toBeInTheDocument();
    await user.type(screen.getByRole('searchbox', { name: T.searchLabel }), 'nobody{Enter}');
    await calls.settle('organizationUsers', { value: { users: [], totalCount: 0 } });
    expect(await screen.findByText(T.noMatch)).toBeInTheDocument();
  });
});
