// The one place that gives the product's refusals their status (plugins/error-handler.ts): a
// domain error thrown by a service, repository or route answers 404, 409 or 400 with its text,
// never 403 (SPEC section 8 reads any 403 as an invalid participant).
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, RuleViolationError } from '../../src/server/domain-errors';
import { useRouteTest } from './support/route-test';

const REFUSALS = {
  'not-found': () => new NotFoundError('Nothing by that id.'),
  conflict: () => new ConflictError('Answered already.'),
  rule: () => new RuleViolationError('Not yours to move.'),
};

const server = useRouteTest({
  // Probe routes that throw each refusal, as a service or repository would.
  beforeReady: (app) => {
    for (const [name, refusal] of Object.entries(REFUSALS)) {
      app.get(`/domain-error/${name}`, { config: { access: 'public' } }, async () => {
        throw refusal();
      });
    }
  },
});

describe('domain errors', () => {
  it.each([
    ['not-found', 404, 'Not Found', 'Nothing by that id.'],
    ['conflict', 409, 'Conflict', 'Answered already.'],
    ['rule', 400, 'Bad Request', 'Not yours to move.'],
  ])('%s answers %i with its text', async (name, statusCode, error, message) => {
    const response = await server.anonymous.get(`/domain-error/${name}`);
    expect(response.statusCode).toBe(statusCode);
    expect(response.json()).toEqual({ statusCode, error, message });
  });
});
