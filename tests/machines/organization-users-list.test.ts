import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  organizationUsersListMachine,
  organizationUsersQueryOf,
  parseOrganizationUsersView,
  selectBusyUserId,
  selectLinks,
  selectOrganizationName,
  selectUsersList,
  serializeOrganizationUsersView,
} from '../../machines/organization-users-list';
import { pagedListOf, selectHasFailed, selectListItems } from '../../machines/paged-list';
import { HttpError } from '../../src/contract/http-error';
import type { Participant } from '../../src/contract/participants';
import { INVITATION_LINK, ORGANIZATION_ID, sampleMember } from '../support/organization-user-fixtures';

const pending = sampleMember(2, { pending: true });
const members = [sampleMember(1), pending];

function start(options: { organization?: () => Promise<Participant>; resend?: () => Promise<{ invitationLink: string }> } = {}) {
  const loads: unknown[] = [];
  const toasts: string[] = [];
  const focused: string[] = [];
  const revoked: string[] = [];
  const copied: string[] = [];
  const logic = organizationUsersListMachine.provide({
    actors: {
      list: pagedListOf(async (view) => {
        loads.push(view);
        return { items: members, totalCount: 2 };
      }),
      loadOrganization: fromPromise(options.organization ?? (async () => ({ name: 'Acme Lending' }) as Participant)),
      resendInvitation: fromPromise(options.resend ?? (async () => ({ invitationLink: INVITATION_LINK }))),
      revokeInvitation: fromPromise(async ({ input }) => void revoked.push(input.userId)),
      copyLink: fromPromise(async ({ input }) => void copied.push(input.link)),
    },
    actions: {
      notifyResent: () => void toasts.push('resent'),
      notifyResendFailed: () => void toasts.push('resendFailed'),
      notifyRevoked: () => void toasts.push('revoked'),
      notifyRevokeFailed: () => void toasts.push('revokeFailed'),
      notifyCopied: () => void toasts.push('copied'),
      notifyCopyFailed: () => void toasts.push('copyFailed'),
      focusLink: (_, { userId }) => void focused.push(userId),
    },
  });
  const actor = createActor(logic, { input: { participantId: ORGANIZATION_ID, view: parseOrganizationUsersView('') } }).start();
  return { actor, loads, toasts, focused, revoked, copied };
}

describe('organization users list', () => {
  it('reads a view from the URL and writes only what differs from the default', () => {
    expect(parseOrganizationUsersView('?page=3&limit=20&sort=email&direction=desc&query=%20ada%20')).toEqual({
      page: 3,
      limit: 20,
      sort: { column: 'email', direction: 'desc' },
      query: 'ada',
    });
    expect(parseOrganizationUsersView('?page=-1&limit=7&sort=password')).toEqual({ page: 1, limit: 10, sort: null, query: '' });
    expect(serializeOrganizationUsersView({ page: 1, limit: 10, sort: null, query: '' })).toBe('');
    expect(
      serializeOrganizationUsersView({ page: 2, limit: 10, sort: { column: 'lastSignInAt', direction: 'asc' }, query: 'ada lovelace' }),
    ).toBe('?page=2&limit=10&sort=lastSignInAt&direction=asc&query=ada+lovelace');
    expect(organizationUsersQueryOf({ page: 3, limit: 20, sort: null, query: '' })).toEqual({
      limit: 20,
      offset: 40,
      sort: 'name',
      direction: 'asc',
    });
    expect(organizationUsersQueryOf({ page: 1, limit: 10, sort: null, query: 'ada' })).toMatchObject({ query: 'ada' });
  });

  it("loads the page and the organization's name; without the name the heading goes alone", async () => {
    const { actor } = start();
    await waitFor(actor, (snapshot) => selectOrganizationName(snapshot) === 'Acme Lending');
    const list = selectUsersList(actor.getSnapshot());
    await vi.waitFor(() => expect(selectListItems(list!.getSnapshot())).toEqual(members));

    const failing = start({ organization: async () => Promise.reject(new HttpError(404, 'Not Found')) });
    await vi.waitFor(() => expect(selectListItems(selectUsersList(failing.actor.getSnapshot())!.getSnapshot())).toHaveLength(2));
    expect(selectOrganizationName(failing.actor.getSnapshot())).toBeNull();
  });

  it('resends an invitation: the new link in hand (focused, copyable), the page loaded again', async () => {
    const { actor, loads, toasts, focused, copied } = start();
    await vi.waitFor(() => expect(loads).toHaveLength(1));
    // No link in hand yet: Copy link does nothing.
    actor.send({ type: 'link.copy', user: pending });
    expect(actor.getSnapshot().matches({ invitations: 'idle' })).toBe(true);
    actor.send({ type: 'invitation.resend', user: pending });
    expect(selectBusyUserId(actor.getSnapshot())).toBe(pending.userId);
    // One action at a time.
    actor.send({ type: 'invitation.revoke', user: pending });
    await waitFor(actor, (snapshot) => snapshot.matches({ invitations: 'idle' }));
    expect(selectLinks(actor.getSnapshot())).toEqual({ [pending.userId]: INVITATION_LINK });
    expect(toasts).toEqual(['resent']);
    expect(focused).toEqual([pending.userId]);
    await vi.waitFor(() => expect(loads).toHaveLength(2));
    actor.send({ type: 'link.copy', user: pending });
    await waitFor(actor, (snapshot) => snapshot.matches({ invitations: 'idle' }) && toasts.length === 2);
    expect(copied).toEqual([INVITATION_LINK]);
    expect(toasts.at(-1)).toBe('copied');
  });

  it('revokes an invitation (its link dropped) and says when an action fails', async () => {
    const { actor, loads, toasts, revoked } = start();
    actor.send({ type: 'invitation.resend', user: pending });
    await waitFor(actor, (snapshot) => snapshot.matches({ invitations: 'idle' }));
    actor.send({ type: 'invitation.revoke', user: pending });
    await waitFor(actor, (snapshot) => snapshot.matches({ invitations: 'idle' }));
    expect(revoked).toEqual([pending.userId]);
    expect(selectLinks(actor.getSnapshot())).toEqual({});
    expect(toasts).toEqual(['resent', 'revoked']);
    await vi.waitFor(() => expect(loads).toHaveLength(3));

    const failing = start({ resend: async () => Promise.reject(new HttpError(409, '{"message":"Already accepted."}')) });
    failing.actor.send({ type: 'invitation.resend', user: pending });
    await waitFor(failing.actor, (snapshot) => snapshot.matches({ invitations: 'idle' }));
    expect(failing.toasts).toEqual(['resendFailed']);
    expect(selectHasFailed(selectUsersList(failing.actor.getSnapshot())!.getSnapshot())).toBe(false);
  });
});
