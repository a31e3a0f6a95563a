// The walk of the user-removal machine: what its model-based test
// (tests/web/user-removal-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { userRemovalMachine, UserRemovalSnapshot } from '../../../machines/user-removal';
import { HttpError } from '../../../src/contract/http-error';
import { USER_TEXTS } from '../../../src/domain/administration-texts';
import { ORGANIZATION_ID, sampleMember } from '../../support/organization-user-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const member = sampleMember(5);

export const unavailable = new HttpError(503, 'Service Unavailable');

export const lastAdmin = new HttpError(409, JSON.stringify({ statusCode: 409, error: 'Conflict', message: USER_TEXTS.lastAdmin }));

export const walk: WalkerOptions<typeof userRemovalMachine> = {
  input: { participantId: ORGANIZATION_ID, userId: member.userId },
  serializeState: (snapshot: UserRemovalSnapshot) => JSON.stringify([snapshot.value, snapshot.context.user !== null]),
  events: {
    'done: loadUser': { output: member },
    'error: loadUser': { error: unavailable },
    'done: removeUser': {},
    'error: removeUser': { error: lastAdmin },
  },
};
