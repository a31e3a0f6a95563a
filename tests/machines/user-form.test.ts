import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  selectDraft,
  selectFailure,
  selectHiddenRoles,
  selectInvitationLink,
  selectStep,
  selectSuggestions,
  selectVisibleErrors,
  userFormMachine,
  type UserFormInput,
  type UserSave,
} from '../../machines/user-form';
import { HttpError } from '../../src/contract/http-error';
import type { AddedUser, OrganizationUser } from '../../src/contract/organization-users';
import type { User } from '../../src/contract/users';
import { SEARCH_DEBOUNCE_MS } from '../../src/domain/constants';
import { USER_FORM_TEXTS } from '../../src/domain/organization-users';
import { USER_TEXTS } from '../../src/domain/administration-texts';
import {
  addedExistingUser,
  addedNewUser,
  INVITATION_LINK,
  ORGANIZATION_ID,
  sampleMember,
  sampleRegistryUser,
} from '../support/organization-user-fixtures';

const conflict = (message: string) => new HttpError(409, JSON.stringify({ statusCode: 409, error: 'Conflict', message }));

function start(
  input: UserFormInput = { participantId: ORGANIZATION_ID, mode: 'new' },
  fakes: {
    save?: (save: UserSave) => Promise<AddedUser | null>;
    search?: (query: string) => Promise<readonly User[]>;
    load?: () => Promise<OrganizationUser>;
    copy?: (link: string) => Promise<void>;
  } = {},
) {
  const saves: UserSave[] = [];
  const searches: string[] = [];
  const focused: unknown[] = [];
  const toasts: string[] = [];
  const goToList = vi.fn();
  const logic = userFormMachine.provide({
    actors: {
      loadUser: fromPromise(fakes.load ?? (async () => sampleMember(1))),
      searchUsers: fromPromise(({ input: { query } }) => {
        searches.push(query);
        return (fakes.search ?? (async () => [sampleRegistryUser(7)]))(query);
      }),
      saveUser: fromPromise(({ input: save }) => {
        saves.push(save);
        return (fakes.save ?? (async () => addedNewUser(sampleMember(9, { pending: true }))))(save);
      }),
      copyLink: fromPromise(({ input: { link } }) => (fakes.copy ?? (async () => undefined))(link)),
    },
    actions: {
      focus: (_, { target }) => void focused.push(target),
      notifySaved: ({ context }) => void toasts.push(`saved:${context.mode}`),
      notifyAddFailed: ({ event }) => void toasts.push(`failed:${(event as unknown as { error: HttpError }).error.serverMessage}`),
      notifyCopied: () => void toasts.push('copied'),
      notifyCopyFailed: () => void toasts.push('copyFailed'),
      goToList,
    },
  });
  const actor = createActor(logic, { input }).start();
  return { actor, saves, searches, focused, toasts, goToList };
}

const fillNewPerson = (actor: ReturnType<typeof start>['actor']) => {
  actor.send({ type: 'form.change', values: { firstName: ' Grace ', lastName: 'Hopper', email: 'grace@example.test' } });
  actor.send({ type: 'role.toggle', role: 'CUSTODIAN' });
};

describe('user form machine', () => {
  afterEach(() => vi.useRealTimers());

  it('shows no error before the first submit, then every rule of SPEC section 5 with the focus on the first', () => {
    const { actor, focused } = start();
    actor.send({ type: 'form.change', values: { firstName: 'x'.repeat(129), email: 'not-an-email' } });
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({});
    actor.send({ type: 'form.submit' });
    expect(selectStep(actor.getSnapshot())).toBe('form');
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({
      firstName: 'First name cannot be greater than 128 characters.',
      lastName: USER_TEXTS.lastNameRequired,
      email: 'Please enter a valid email.',
      roles: USER_TEXTS.rolesRequired,
    });
    expect(focused).toEqual(['firstName']);
    actor.send({ type: 'form.change', values: { middleName: 'm'.repeat(129) } });
    expect(selectVisibleErrors(actor.getSnapshot()).middleName).toBe('Middle name cannot be greater than 128 characters.');
  });

  it('invites a new person through review and confirm, shows the link, copies it, then goes back to the list', async () => {
    const { actor, saves, toasts, goToList, focused } = start();
    fillNewPerson(actor);
    actor.send({ type: 'form.submit' });
    expect(selectStep(actor.getSnapshot())).toBe('review');
    expect(focused).toEqual(['review']);
    // Back to the form keeps the draft.
    actor.send({ type: 'review.back' });
    expect(selectDraft(actor.getSnapshot()).lastName).toBe('Hopper');
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'review.confirm' });
    await waitFor(actor, (snapshot) => selectStep(snapshot) === 'invited');
    expect(saves).toEqual([
      {
        mode: 'new',
        participantId: ORGANIZATION_ID,
        userId: null,
        draft: { firstName: ' Grace ', middleName: '', lastName: 'Hopper', email: 'grace@example.test', roles: ['CUSTODIAN'] },
        roles: ['CUSTODIAN'],
      },
    ]);
    expect(selectInvitationLink(actor.getSnapshot())).toBe(INVITATION_LINK);
    expect(toasts).toEqual(['saved:new']);
    expect(focused.at(-1)).toBe('invitation');
    actor.send({ type: 'link.copy' });
    await waitFor(actor, (snapshot) => snapshot.matches({ invited: 'shown' }) && toasts.length === 2);
    expect(toasts.at(-1)).toBe('copied');
    expect(goToList).not.toHaveBeenCalled();
    actor.send({ type: 'invitation.done' });
    expect(goToList).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('says a copy failed (no clipboard off a secure context)', async () => {
    const { actor, toasts } = start(undefined, { copy: async () => Promise.reject(new Error('no clipboard')) });
    fillNewPerson(actor);
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'review.confirm' });
    await waitFor(actor, (snapshot) => selectStep(snapshot) === 'invited');
    actor.send({ type: 'link.copy' });
    await waitFor(actor, () => toasts.length === 2);
    expect(toasts.at(-1)).toBe('copyFailed');
  });

  it('a refused add: Something went wrong on the review, the response body as a toast, and Confirm tries again', async () => {
    let attempt = 0;
    const { actor, toasts, focused } = start(undefined, {
      save: async () => {
        attempt += 1;
        if (attempt === 1) throw conflict(USER_TEXTS.emailTaken);
        return addedNewUser(sampleMember(9, { pending: true }));
      },
    });
    fillNewPerson(actor);
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'review.confirm' });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(selectStep(actor.getSnapshot())).toBe('review');
    expect(selectFailure(actor.getSnapshot())).toBe(USER_TEXTS.emailTaken);
    expect(toasts).toEqual([`failed:${USER_TEXTS.emailTaken}`]);
    expect(focused.at(-1)).toBe('failure');
    actor.send({ type: 'review.confirm' });
    await waitFor(actor, (snapshot) => snapshot.matches('invited'));
  });

  it('a server error says nothing more than Something went wrong', async () => {
    const { actor } = start(undefined, { save: async () => Promise.reject(new HttpError(500, 'Internal Server Error')) });
    fillNewPerson(actor);
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'review.confirm' });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(selectFailure(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'review.back' });
    expect(selectStep(actor.getSnapshot())).toBe('form');
  });

  describe("'Add existing user'", () => {
    it('searches after more than 2 characters, 500 ms after the last one, and fills the read-only fields from the choice', async () => {
      vi.useFakeTimers();
      const found = sampleRegistryUser(7, { middleName: 'M' });
      const { actor, searches, saves, toasts, goToList } = start(undefined, {
        search: async () => [found],
        save: async () => addedExistingUser(sampleMember(7)),
      });
      actor.send({ type: 'role.toggle', role: 'ORG_ADMIN' });
      actor.send({ type: 'mode.toggle' });
      actor.send({ type: 'search.change', query: 'ad' });
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
      expect(searches).toEqual([]);
      actor.send({ type: 'search.change', query: 'ada' });
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1);
      actor.send({ type: 'search.change', query: 'ada7' });
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1);
      expect(searches).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(searches).toEqual(['ada7']);
      await vi.waitFor(() => expect(selectSuggestions(actor.getSnapshot())).toEqual([found]));
      // The name fields cannot be typed in this mode.
      actor.send({ type: 'form.change', values: { firstName: 'Typed' } });
      expect(selectDraft(actor.getSnapshot()).firstName).toBe('');
      actor.send({ type: 'form.submit' });
      expect(selectVisibleErrors(actor.getSnapshot())).toEqual({ search: USER_FORM_TEXTS.chooseUser });
      actor.send({ type: 'suggestion.choose', user: found });
      expect(selectDraft(actor.getSnapshot())).toEqual({
        firstName: found.firstName,
        middleName: 'M',
        lastName: found.lastName,
        email: found.email,
        roles: ['ORG_ADMIN'],
      });
      actor.send({ type: 'form.submit' });
      actor.send({ type: 'review.confirm' });
      await vi.waitFor(() => expect(goToList).toHaveBeenCalled());
      expect(saves[0]).toMatchObject({ mode: 'existing', userId: found.userId, roles: ['ORG_ADMIN'] });
      expect(toasts).toEqual(['saved:existing']);
    });

    it('typing again drops the user chosen; a failed search says so; going back to a new person starts over', async () => {
      vi.useFakeTimers();
      const { actor } = start(undefined, { search: async () => Promise.reject(new HttpError(500, 'down')) });
      actor.send({ type: 'mode.toggle' });
      actor.send({ type: 'suggestion.choose', user: sampleRegistryUser(3) });
      expect(selectDraft(actor.getSnapshot()).email).toBe('ada3@example.test');
      actor.send({ type: 'search.change', query: 'grace' });
      expect(selectDraft(actor.getSnapshot()).email).toBe('');
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
      await vi.waitFor(() => expect(actor.getSnapshot().context.searchFailed).toBe(true));
      actor.send({ type: 'mode.toggle' });
      expect(actor.getSnapshot().context).toMatchObject({ mode: 'new', query: '', chosen: null, searchFailed: false });
    });
  });

  describe('editing roles', () => {
    it('reads the member when the list did not hand it over, keeps the hidden roles and says Roles successfully updated', async () => {
      const member = sampleMember(4, { roles: ['ORG_ADMIN', 'TRADER'] });
      const { actor, saves, toasts, goToList } = start(
        { participantId: ORGANIZATION_ID, mode: 'edit', userId: member.userId },
        { load: async () => member, save: async () => null },
      );
      expect(selectStep(actor.getSnapshot())).toBe('loading');
      await waitFor(actor, (snapshot) => selectStep(snapshot) === 'form');
      expect(selectDraft(actor.getSnapshot()).roles).toEqual(['ORG_ADMIN']);
      expect(selectHiddenRoles(actor.getSnapshot())).toEqual(['TRADER']);
      // Only the roles change.
      actor.send({ type: 'form.change', values: { email: 'other@example.test' } });
      actor.send({ type: 'mode.toggle' });
      expect(actor.getSnapshot().context.mode).toBe('edit');
      actor.send({ type: 'role.toggle', role: 'CUSTODIAN' });
      actor.send({ type: 'role.toggle', role: 'AUDITOR' });
      actor.send({ type: 'form.submit' });
      actor.send({ type: 'review.confirm' });
      await vi.waitFor(() => expect(goToList).toHaveBeenCalled());
      expect(saves[0]).toMatchObject({ mode: 'edit', userId: member.userId, roles: ['ORG_ADMIN', 'CUSTODIAN', 'TRADER'] });
      expect(saves[0]?.draft.email).toBe(member.email);
      expect(toasts).toEqual(['saved:edit']);
    });

    it('shows the 409 guard on the review and no add toast; a failed read can be retried', async () => {
      const member = sampleMember(4);
      let reads = 0;
      const { actor, toasts } = start(
        { participantId: ORGANIZATION_ID, mode: 'edit', userId: member.userId },
        {
          load: async () => {
            reads += 1;
            if (reads === 1) throw new HttpError(404, JSON.stringify({ message: USER_TEXTS.notMember }));
            return member;
          },
          save: async () => Promise.reject(conflict(USER_TEXTS.lastAdmin)),
        },
      );
      await waitFor(actor, (snapshot) => selectStep(snapshot) === 'loadFailed');
      expect(selectFailure(actor.getSnapshot())).toBe(USER_TEXTS.notMember);
      actor.send({ type: 'user.reload' });
      await waitFor(actor, (snapshot) => selectStep(snapshot) === 'form');
      actor.send({ type: 'role.toggle', role: 'ORG_ADMIN' });
      actor.send({ type: 'role.toggle', role: 'CUSTODIAN' });
      actor.send({ type: 'form.submit' });
      actor.send({ type: 'review.confirm' });
      await waitFor(actor, (snapshot) => snapshot.matches('failed'));
      expect(selectFailure(actor.getSnapshot())).toBe(USER_TEXTS.lastAdmin);
      expect(toasts).toEqual([]);
    });

    it('starts on the form with the member the list handed over', () => {
      const { actor } = start({ participantId: ORGANIZATION_ID, mode: 'edit', userId: sampleMember(2).userId, user: sampleMember(2) });
      expect(selectStep(actor.getSnapshot())).toBe('form');
      actor.send({ type: 'form.submit' });
      expect(selectStep(actor.getSnapshot())).toBe('review');
    });
  });
});
