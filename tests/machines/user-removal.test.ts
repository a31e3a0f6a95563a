import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  selectIsRemovalLoading,
  selectRemovalFailure,
  selectRemovalLoadFailed,
  selectRemovalUser,
  userRemovalMachine,
} from '../../machines/user-removal';
import { HttpError } from '../../src/contract/http-error';
import type { OrganizationUser } from '../../src/contract/organization-users';
import { USER_TEXTS } from '../../src/domain/administration-texts';
import { ORGANIZATION_ID, sampleMember } from '../support/organization-user-fixtures';

const member = sampleMember(3);

function start(user: OrganizationUser | null, remove: () => Promise<void>, load: () => Promise<OrganizationUser> = async () => member) {
  const notifyRemoved = vi.fn();
  const goToList = vi.fn();
  const focusFailure = vi.fn();
  const removals: unknown[] = [];
  const logic = userRemovalMachine.provide({
    actors: {
      loadUser: fromPromise(load),
      removeUser: fromPromise(({ input }) => {
        removals.push(input);
        return remove();
      }),
    },
    actions: { notifyRemoved, goToList, focusFailure },
  });
  const actor = createActor(logic, { input: { participantId: ORGANIZATION_ID, userId: member.userId, user } }).start();
  return { actor, notifyRemoved, goToList, focusFailure, removals };
}

describe('user removal machine', () => {
  it('asks first, removes on confirm, then says so and goes back to the list', async () => {
    const { actor, notifyRemoved, goToList, removals } = start(member, async () => undefined);
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(removals).toEqual([]);
    actor.send({ type: 'removal.confirm' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(removals).toEqual([{ participantId: ORGANIZATION_ID, userId: member.userId }]);
    expect(notifyRemoved).toHaveBeenCalledTimes(1);
    expect(goToList).toHaveBeenCalledTimes(1);
  });

  it('shows a 409 refusal with the focus on it, and can be confirmed again', async () => {
    let attempts = 0;
    const { actor, focusFailure, goToList } = start(member, async () => {
      attempts += 1;
      if (attempts === 1) throw new HttpError(409, JSON.stringify({ message: USER_TEXTS.ownMembership }));
    });
    actor.send({ type: 'removal.confirm' });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(selectRemovalFailure(actor.getSnapshot())).toBe(USER_TEXTS.ownMembership);
    expect(focusFailure).toHaveBeenCalled();
    actor.send({ type: 'removal.confirm' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(goToList).toHaveBeenCalled();
  });

  it('reads the member when opened directly; a failed read can be retried', async () => {
    let reads = 0;
    const { actor } = start(
      null,
      async () => undefined,
      async () => {
        reads += 1;
        if (reads === 1) throw new HttpError(503, 'Service Unavailable');
        return member;
      },
    );
    expect(selectIsRemovalLoading(actor.getSnapshot())).toBe(true);
    await waitFor(actor, selectRemovalLoadFailed);
    expect(selectRemovalFailure(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'user.reload' });
    await waitFor(actor, (snapshot) => snapshot.matches('confirming'));
    expect(selectRemovalUser(actor.getSnapshot())).toEqual(member);
  });

  it('says a member not found is not a member', async () => {
    const { actor } = start(
      null,
      async () => undefined,
      async () => Promise.reject(new HttpError(404, '{"message":"Not Found"}')),
    );
    await waitFor(actor, selectRemovalLoadFailed);
    expect(selectRemovalFailure(actor.getSnapshot())).toBe(USER_TEXTS.notMember);
  });
});
