// The walk of the user-form machine: what its model-based test
// (tests/web/user-form-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { userFormMachine } from '../../../machines/user-form';
import { userFormErrors, type UserFormSnapshot } from '../../../machines/user-form';
import { HttpError } from '../../../src/contract/http-error';
import type { AddedUser } from '../../../src/contract/organization-users';
import { USER_TEXTS } from '../../../src/domain/administration-texts';
import {
  addedExistingUser,
  addedNewUser,
  ORGANIZATION_ID,
  sampleMember,
  sampleRegistryUser,
} from '../../support/organization-user-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const found = sampleRegistryUser(7);

export const invited = addedNewUser(sampleMember(9, { pending: true }));

export const joined = addedExistingUser(sampleMember(7));

export const member = sampleMember(4, { roles: ['ORG_ADMIN', 'TRADER'] });

export const conflict = (message: string) => new HttpError(409, JSON.stringify({ statusCode: 409, error: 'Conflict', message }));

export const emailTaken = conflict(USER_TEXTS.emailTaken);

export const lastAdmin = conflict(USER_TEXTS.lastAdmin);

export const notMember = new HttpError(404, JSON.stringify({ statusCode: 404, error: 'Not Found', message: USER_TEXTS.notMember }));

export const copyRefused = new Error('Write permission denied.');

/** State identity: where the machine is, the mode, and what the screen offers from there. */
export function serializeState(snapshot: UserFormSnapshot): string {
  const { mode, draft, chosen, suggestions, searchFailed } = snapshot.context;
  const valid = Object.keys(userFormErrors(snapshot.context)).length === 0;
  return JSON.stringify([
    snapshot.value,
    mode,
    valid,
    draft.firstName !== '',
    draft.roles.length,
    chosen !== null,
    suggestions.length,
    searchFailed,
  ]);
}

export const settleEvents = {
  'done: loadUser': { output: member },
  'error: loadUser': { error: notMember },
  'done: searchUsers': { output: [found] },
  'error: searchUsers': { error: new HttpError(503, 'Service Unavailable') },
  'done: saveUser': [{ output: invited }, { output: joined }, { output: null }],
  'error: saveUser': [{ error: emailTaken }, { error: lastAdmin }],
  'done: copyLink': {},
  'error: copyLink': { error: copyRefused },
  'form.change': { values: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.test' } },
  'role.toggle': { role: 'CUSTODIAN' },
  'search.change': [{ query: 'ad' }, { query: 'ada' }],
  'suggestion.choose': { user: found },
};

export const outputOf = (event: unknown) => (event as { output?: AddedUser | null }).output;

export const errorOf = (event: unknown) => (event as { error?: unknown }).error;

export const isDone = (event: { type: string }) => event.type.startsWith('xstate.done.actor');

export const isError = (event: { type: string }) => event.type.startsWith('xstate.error.actor');

/** Adding: a new person (names typed, a role chosen) or, once toggled, an existing user through the suggestions. */
export const walk: WalkerOptions<typeof userFormMachine> = {
  input: { participantId: ORGANIZATION_ID, mode: 'new' },
  serializeState,
  events: settleEvents,
  filterEvents: (snapshot, event) => {
    const { mode, draft, chosen, suggestions, searchFailed } = snapshot.context;
    const idle = snapshot.matches({ editing: 'idle' });
    switch (event.type) {
      case 'form.change':
        return mode === 'new' && draft.firstName === '';
      case 'role.toggle':
        return mode === 'new' && draft.roles.length === 0;
      case 'mode.toggle':
        return (
          idle &&
          draft.roles.length > 0 &&
          (mode === 'new' ? draft.firstName === '' : chosen === null && suggestions.length === 0 && !searchFailed)
        );
      case 'search.change':
        if (mode !== 'existing' || chosen !== null || suggestions.length > 0 || searchFailed) return false;
        return snapshot.matches({ editing: 'debouncing' }) ? event.query === 'ada' : idle;
      case 'suggestion.choose':
        return mode === 'existing' && suggestions.length > 0;
      case 'form.submit':
        return idle && (mode === 'new' || chosen !== null || suggestions.length > 0);
      case 'user.reload':
        return false;
      default:
        break;
    }
    if (isDone(event) && 'output' in event && snapshot.matches('saving')) {
      const output = outputOf(event);
      return mode === 'new' ? output === invited : output === joined;
    }
    if (isError(event) && snapshot.matches('saving')) return errorOf(event) === emailTaken;
    return true;
  },
};

/** Editing a member's roles, opened directly: the member is read first. */
export const editWalk: WalkerOptions<typeof userFormMachine> = {
  input: { participantId: ORGANIZATION_ID, mode: 'edit', userId: member.userId },
  serializeState,
  events: settleEvents,
  filterEvents: (snapshot, event) => {
    switch (event.type) {
      case 'form.change':
      case 'mode.toggle':
      case 'search.change':
      case 'suggestion.choose':
        return false;
      case 'role.toggle':
        return snapshot.context.draft.roles.length === 1;
      default:
        break;
    }
    if (isDone(event) && 'output' in event && snapshot.matches('saving')) return outputOf(event) === null;
    if (isError(event) && snapshot.matches('saving')) return errorOf(event) === lastAdmin;
    return true;
  },
};
