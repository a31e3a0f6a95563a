// The server over the real demo seed: what a person trying the demo accounts gets.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { figureInfoSchema } from '../../src/contract/identity';
import { userParticipantsSchema } from '../../src/contract/participants';
import { PATHS } from '../../src/contract/paths';
import { usersMeSchema } from '../../src/contract/users';
import { DEMO_PASSWORD, PARTICIPANT_HEADER } from '../../src/domain/constants';
import { seedDemoData } from '../../src/server/seed';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { createTestApp, signIn } from './support/server-fixtures';

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.owner.db, { loans: 20 });
  app = await createTestApp(database.db);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

async function session(email: string): Promise<string> {
  const { response, cookie } = await signIn(app, email, { password: DEMO_PASSWORD });
  expect(response.statusCode).toBe(303);
  if (!cookie) throw new Error(`no session for ${email}`);
  return cookie;
}

describe('demo accounts', () => {
  it('admin: registry administrator with 12 organizations, each one selectable', async () => {
    const cookie = await session('admin@registry.test');
    const info = figureInfoSchema.parse((await app.inject({ method: 'GET', url: PATHS.figureInfo, headers: { cookie } })).json());
    expect(info.roles['service-dart']).toContain('ROLE_DART_ADMIN');
    const me = usersMeSchema.parse((await app.inject({ method: 'GET', url: PATHS.usersMe, headers: { cookie } })).json());
    const list = userParticipantsSchema.parse(
      (await app.inject({ method: 'GET', url: PATHS.userParticipants(me.user.id), headers: { cookie } })).json(),
    );
    expect(list.length).toBeGreaterThanOrEqual(8);
    expect(list.filter((entry) => entry.isDefault)).toHaveLength(1);
    const last = list.at(-1);
    const switched = await app.inject({
      method: 'GET',
      url: PATHS.usersMe,
      headers: { cookie, [PARTICIPANT_HEADER]: last?.participant.id ?? '' },
    });
    expect(usersMeSchema.parse(switched.json()).participant?.id).toBe(last?.participant.id);
  });

  it('user: a registry user with a default organization and its profile', async () => {
    const cookie = await session('user@registry.test');
    const response = await app.inject({ method: 'GET', url: PATHS.usersMe, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const me = usersMeSchema.parse(response.json());
    expect(me.participant?.profileInfo.name).toBeTruthy();
    const list = userParticipantsSchema.parse(
      (await app.inject({ method: 'GET', url: PATHS.userParticipants(me.user.id), headers: { cookie } })).json(),
    );
    expect(list.length).toBeGreaterThanOrEqual(2);
  });

  it('unregistered: a valid identity without a registry user', async () => {
    const cookie = await session('unregistered@registry.test');
    expect((await app.inject({ method: 'GET', url: PATHS.figureInfo, headers: { cookie } })).statusCode).toBe(200);
    const me = await app.inject({ method: 'GET', url: PATHS.usersMe, headers: { cookie } });
    expect(me.statusCode).toBe(404);
    expect(me.json().message).toBe('User not found.');
  });
});
