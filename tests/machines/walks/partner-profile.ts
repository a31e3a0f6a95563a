// The walk of the partner-profile machine: what its model-based test
// (tests/web/partner-profile-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { partnerProfileMachine } from '../../../machines/partner-profile';
import { HttpError } from '../../../src/contract/http-error';
import { PROFILE_TEXTS as T } from '../../../src/domain/administration-texts';
import { samplePartner, sampleRelationship } from '../../support/profile-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const notFound = new HttpError(404, JSON.stringify({ statusCode: 404, error: 'Not Found', message: T.relationshipNotFound }));

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const walk: WalkerOptions<typeof partnerProfileMachine> = {
  input: { relationshipId: sampleRelationship.id },
  events: {
    'done: loadPartner': { output: { relationship: sampleRelationship, partner: samplePartner } },
    'error: loadPartner': [{ error: notFound }, { error: serverError }],
  },
};
