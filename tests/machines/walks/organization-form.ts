// The walk of the organization-form machine: what its model-based test
// (tests/web/organization-form-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { organizationFormMachine, OrganizationFormSnapshot } from '../../../machines/organization-form';
import { HttpError } from '../../../src/contract/http-error';
import { organizationErrors, type OrganizationTextField } from '../../../src/contract/organizations';
import type { Participant } from '../../../src/contract/participants';
import { ORGANIZATION_TEXTS as T } from '../../../src/domain/administration-texts';
import { sampleOrganization } from '../../support/session-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const NEW_ID = 'b7f1c2d3-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

export const stored: Participant = { ...sampleOrganization(7).participant, name: 'Harbor Lending', code: 'HBL' };

export const inactive: Participant = { ...stored, isActive: false };

export const VALID: Partial<Record<OrganizationTextField, string>> = {
  code: 'QSL',
  participantName: 'Quayside Lending',
  organizationName: 'Quayside Lending LLC',
  email: 'ops@quayside.test',
  phoneNumber: '(415) 555-0142',
  'address.street': '9 Harbor Road',
  'address.city': 'Oakland',
  'address.state': 'CA',
  'address.zip': '94607',
};

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const codeRefused = new HttpError(
  400,
  JSON.stringify({ statusCode: 400, error: 'Bad Request', message: `body.code: ${T.codeLength}` }),
);

export const notFound = new HttpError(404, JSON.stringify({ statusCode: 404, error: 'Not Found', message: T.notFound }));

export function serializeState(snapshot: OrganizationFormSnapshot): string {
  const { draft, organization, serverErrors } = snapshot.context;
  return JSON.stringify([
    snapshot.value,
    Object.keys(organizationErrors(draft)).length === 0,
    organization?.isActive ?? null,
    Object.keys(serverErrors).length > 0,
  ]);
}

export const commonEvents = {
  'form.change': [{ values: VALID }, { values: { code: 'X' } }],
  'form.powerOfAttorney': [{ granted: true }],
  'error: saveOrganization': [{ error: serverError }, { error: codeRefused }],
  'error: reactivateOrganization': [{ error: serverError }],
};

// The reactivate button shows only on an inactive organization.
export const reactivatable = (snapshot: OrganizationFormSnapshot, event: { type: string }) =>
  event.type !== 'organization.reactivate' || snapshot.context.organization?.isActive === false;

export const addWalk: WalkerOptions<typeof organizationFormMachine> = {
  input: { organizationId: null, newId: NEW_ID },
  serializeState,
  filterEvents: reactivatable,
  events: { ...commonEvents, 'done: saveOrganization': { output: { ...stored, id: NEW_ID } } },
};

export const walk: WalkerOptions<typeof organizationFormMachine> = {
  input: { organizationId: stored.id, newId: NEW_ID },
  serializeState,
  events: {
    ...commonEvents,
    'done: loadOrganization': [{ output: stored }, { output: inactive }],
    'error: loadOrganization': [{ error: notFound }, { error: serverError }],
    'done: saveOrganization': { output: stored },
    'done: reactivateOrganization': { output: stored },
  },
  filterEvents: reactivatable,
};
