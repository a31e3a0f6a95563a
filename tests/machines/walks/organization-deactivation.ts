// The walk of the organization-deactivation machine: what its model-based test
// (tests/web/organization-deactivation-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { organizationDeactivationMachine } from '../../../machines/organization-deactivation';
import { HttpError } from '../../../src/contract/http-error';
import type { Participant } from '../../../src/contract/participants';
import { ORGANIZATION_TEXTS as T } from '../../../src/domain/administration-texts';
import { sampleOrganization } from '../../support/session-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const active: Participant = sampleOrganization(7).participant;

export const inactive: Participant = { ...active, isActive: false };

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const notFound = new HttpError(404, JSON.stringify({ statusCode: 404, error: 'Not Found', message: T.notFound }));

export const walk: WalkerOptions<typeof organizationDeactivationMachine> = {
  input: { organizationId: active.id },
  events: {
    'done: loadOrganization': [{ output: active }, { output: inactive }],
    'error: loadOrganization': [{ error: notFound }, { error: serverError }],
    'done: deactivateOrganization': { output: inactive },
    'error: deactivateOrganization': { error: serverError },
  },
};
