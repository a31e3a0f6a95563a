// The walk of the organization-users-list machine: what its model-based test
// (tests/web/organization-users-list-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { organizationUsersListMachine, OrganizationUsersSnapshot } from '../../../machines/organization-users-list';
import { HttpError } from '../../../src/contract/http-error';
import { INVITATION_LINK, ORGANIZATION_ID, sampleMember } from '../../support/organization-user-fixtures';
import { sampleOrganization } from '../../support/session-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const admin = sampleMember(1, { roles: ['ORG_ADMIN', 'CUSTODIAN'] });

export const pending = sampleMember(2, { pending: true, roles: ['DART_AGENT'] });

export const expired = sampleMember(3, { expired: true, lastSignInAt: null, roles: ['FIGURE_ENGINEER'] });

export const page = { users: [admin, pending, expired], totalCount: 3 };

export const organization = { ...sampleOrganization(5).participant, id: ORGANIZATION_ID, name: 'Acme Lending' };

export const resent = { invitation: pending.invitation, invitationLink: INVITATION_LINK };

export const accepted = new HttpError(
  409,
  JSON.stringify({ statusCode: 409, error: 'Conflict', message: 'This invitation has already been used.' }),
);

export const copyRefused = new Error('Write permission denied.');

export const serializeState = (snapshot: OrganizationUsersSnapshot) =>
  JSON.stringify([snapshot.value, Object.keys(snapshot.context.links).length]);

export const walk: WalkerOptions<typeof organizationUsersListMachine> = {
  input: { participantId: ORGANIZATION_ID, view: { page: 1, limit: 10, sort: null, query: '' } },
  serializeState,
  events: {
    'done: loadOrganization': { output: organization },
    'error: loadOrganization': { error: new HttpError(404, 'Not Found') },
    'invitation.resend': { user: pending },
    'invitation.revoke': { user: pending },
    'link.copy': { user: pending },
    'done: resendInvitation': { output: resent },
    'error: resendInvitation': { error: accepted },
    'done: revokeInvitation': {},
    'error: revokeInvitation': { error: accepted },
    'done: copyLink': {},
    'error: copyLink': { error: copyRefused },
  },
  // One link in hand at most: resent once, copied once it is there.
  filterEvents: (snapshot, event) => {
    if (event.type === 'invitation.resend') return Object.keys(snapshot.context.links).length === 0;
    if (event.type === 'link.copy') return Object.keys(snapshot.context.links).length === 1;
    return true;
  },
};
