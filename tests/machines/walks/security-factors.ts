// The walk of the security-factors machine: what its model-based test
// (tests/web/security-factors-model.test.tsx) sends on every path, and the statechart explorer's
// input, service answers and tours.
import type { securityFactorsMachine, SecurityFactorsSnapshot } from '../../../machines/security-factors';
import { HttpError } from '../../../src/contract/http-error';
import type { FactorList } from '../../../src/contract/security-factors';
import { FACTOR_TEXTS } from '../../../src/domain/security-factors';
import type { WalkerOptions } from '../support/model-coverage';

export const EMAIL_ID = '00000000-0000-4000-8000-0000000000e1';
export const PHONE_ID = '00000000-0000-4000-8000-0000000000b2';
export const list: FactorList = {
  factors: [
    { type: 'Email', value: 'u***@registry.test', editable: false, required: true, ids: [EMAIL_ID] },
    { type: 'Phone', value: '(***) ***-0123', editable: true, required: false, ids: [PHONE_ID] },
  ],
  requireAtLeastOneOf: ['Email', 'Phone'],
  passwordManageable: true,
};
export const HOSTED = 'http://localhost/identity-broker/agent/secure/factors?flow=abc';
export const PASSWORD_PAGE = 'http://localhost/identity-broker/agent/secure/password';
export const unavailable = new HttpError(503, 'Service Unavailable');
export const refused = new HttpError(409, JSON.stringify({ statusCode: 409, error: 'Conflict', message: FACTOR_TEXTS.nonceUsed }));

export const walk: WalkerOptions<typeof securityFactorsMachine> = {
  input: { returned: null },
  serializeState: (snapshot: SecurityFactorsSnapshot) =>
    JSON.stringify([snapshot.value, snapshot.context.list !== null, snapshot.context.removing !== null]),
  events: {
    'done: loadFactors': { output: list },
    'error: loadFactors': { error: unavailable },
    'factor.add': { type: 'factor.add', factorType: 'Email' },
    'factor.remove': { type: 'factor.remove', factorId: PHONE_ID },
    'done: startEnrolment': { output: { hostedUrl: HOSTED } },
    'error: startEnrolment': { error: refused },
    'done: removeFactor': [{ output: { hostedUrl: null } }, { output: { hostedUrl: HOSTED } }],
    'error: removeFactor': { error: refused },
    'done: startPasswordChange': { output: { hostedUrl: PASSWORD_PAGE } },
    'error: startPasswordChange': { error: unavailable },
  },
};
