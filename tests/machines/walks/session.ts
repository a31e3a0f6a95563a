// The walk of the session machine: what its model-based test (tests/web/session-model.test.tsx)
// sends on every path, and the statechart explorer's input, service answers and tours.
import { HttpError } from '../../../src/contract/http-error';
import { PERMISSION_REFUSALS } from '../../../src/domain/access';
import type { Account, sessionMachine } from '../../../machines/session';
import { sampleIdentity, sampleOrganization, sampleUser } from '../../support/session-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const organizations = [sampleOrganization(1, true), sampleOrganization(2)];
export const account: Account = { user: sampleUser, organizations };
/** Every organization of the account deactivated: the account loads with none. */
export const accountWithoutOrganizations: Account = { user: sampleUser, organizations: [] };
/** Each path starts with an organization remembered from the last visit (browser storage). */
export const stored = organizations[0]?.participant.id ?? '';
export const unauthorized = new HttpError(401, '{"statusCode":401,"error":"Unauthorized","message":"Authentication required"}');
export const invalidParticipant = new HttpError(403, '{"statusCode":403,"error":"Forbidden","message":"Invalid participant"}');
/** A role the caller lacks (decision 0010): SPEC section 6's Invalid Permissions page, not Invalid participant. */
export const permissionRefusal = new HttpError(
  403,
  JSON.stringify({ statusCode: 403, error: 'Forbidden', message: PERMISSION_REFUSALS['registry-staff'] }),
);
export const notRegistered = new HttpError(404, '{"statusCode":404,"error":"Not Found","message":"User not found."}');
export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const walk: WalkerOptions<typeof sessionMachine> = {
  input: { storedParticipantId: stored },
  // Whether an organization is named matters: Invalid participant loads the account again only then.
  serializeState: (snapshot) => JSON.stringify([snapshot.value, snapshot.context.participantId !== null]),
  events: {
    'done: fetchIdentity': { output: sampleIdentity },
    'error: fetchIdentity': [{ error: unauthorized }, { error: serverError }],
    'done: fetchAccount': [{ output: account }, { output: accountWithoutOrganizations }],
    'error: fetchAccount': [{ error: invalidParticipant }, { error: unauthorized }, { error: notRegistered }, { error: serverError }],
    'done: logout': { output: undefined },
    'error: logout': [{ error: unauthorized }, { error: serverError }],
    'organization.switch': [{ participantId: organizations[1]?.participant.id }],
    'session.callFailed': [{ error: unauthorized }, { error: invalidParticipant }, { error: permissionRefusal }],
  },
};
