// The one place that gives the product's refusals their status (plugins/error-handler.ts): a
// domain error thrown by a service, repository or route answers 404, 409 or 400 with its text,
// never 403 (SPEC section 8 reads any 403 as an invalid participant).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, RuleViolationError } from '../../src/server/domain-errors';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { createTestApp } from './support/server-fixtures';

let database: TestDatabase;
let app: FastifyInstance;

const REFUSALS = {
  'not-found': () => new NotFoundError('Nothing by that id.'),
  conflict: () => new ConflictError('Answered already.'),
  rule: () => new RuleViolationError('Not yours to move.'),
};

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database.db);
  for (const [name, refusal] of Object.entries(REFUSALS)) {
    app.get(`/domain-error/${name}`, { config: { access: 'public' } }, async () => {
      throw refusal();
    });
  }
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('domain errors', () => {
  it.each([
    ['not-found', 404, 'Not Found', 'Nothing by that id.'],
    ['conflict', 409, 'Conflict', 'Answered already.'],
    ['rule', 400, 'Bad Request', 'Not yours to move.'],
  ])('%s answers %i with its text', async (name, statusCode, error, message) => {
    const response = await app.inject({ method: 'GET', url: `/domain-error/${name}` });
    expect(response.statusCode).toBe(statusCode);
    expect(response.json()).toEqual({ statusCode, error, message });
  });
});
