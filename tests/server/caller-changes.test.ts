// The caller cache never outlives a change: a change made elsewhere (another server, a script,
// an administrator in psql) reaches this server by the database's notification within moments,
// and while that channel is lost nothing is cached.
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { CALLER_CHANGES_CHANNEL } from '../../src/server/db/caller-changes';
import * as schema from '../../src/server/db/schema';
import { insertParticipant, insertUser } from './support/server-fixtures';
import { useRouteTest } from './support/route-test';

const server = useRouteTest();
let userId = '';

beforeAll(async () => {
  const first = await insertParticipant(server.db, { name: 'First Lending' });
  const second = await insertParticipant(server.db, { name: 'Second Servicing' });
  const third = await insertParticipant(server.db, { name: 'Third Custody' });
  const member = await insertUser(server.db, {
    email: 'member@registry.test',
    memberships: [{ participantId: first.id, isDefault: true }, { participantId: second.id }, { participantId: third.id }],
  });
  userId = member.user.id;
  await server.app.ready();
});

const participantNamed = async (name: string) => {
  const [row] = await server.db.select().from(schema.participants).where(eq(schema.participants.name, name));
  if (!row) throw new Error(`no participant ${name}`);
  return row.id;
};

/** users/me for an organization, twice: the second answer is the cached one, if any. */
async function usersMeTwice(cookie: string, participantId: string): Promise<number> {
  await server.caller(cookie, participantId).get(PATHS.usersMe);
  return (await server.caller(cookie, participantId).get(PATHS.usersMe)).statusCode;
}

const listening = async () =>
  (
    await server.database.pool.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
      [`LISTEN ${CALLER_CHANGES_CHANNEL}`],
    )
  ).rows[0]?.count ?? 0;

describe('caller changes made elsewhere', () => {
  it('refuses an organization whose membership was removed, within moments', async () => {
    const cookie = (await server.signIn('member@registry.test')).cookie;
    const second = await participantNamed('Second Servicing');
    expect(await usersMeTwice(cookie, second)).toBe(200);
    await server.db
      .delete(schema.memberships)
      .where(and(eq(schema.memberships.userId, userId), eq(schema.memberships.participantId, second)));
    await expect.poll(async () => (await server.caller(cookie, second).get(PATHS.usersMe)).statusCode, { timeout: 3000 }).toBe(403);
  });

  it('refuses an organization deactivated elsewhere, and a session ended elsewhere', async () => {
    const cookie = (await server.signIn('member@registry.test')).cookie;
    const first = await participantNamed('First Lending');
    expect(await usersMeTwice(cookie, first)).toBe(200);
    await server.db.update(schema.participants).set({ isActive: false }).where(eq(schema.participants.id, first));
    await expect.poll(async () => (await server.caller(cookie, first).get(PATHS.usersMe)).statusCode, { timeout: 3000 }).toBe(403);
    await server.db.update(schema.participants).set({ isActive: true }).where(eq(schema.participants.id, first));

    const third = await participantNamed('Third Custody');
    expect(await usersMeTwice(cookie, third)).toBe(200);
    await server.db.delete(schema.sessions);
    await expect.poll(async () => (await server.caller(cookie, third).get(PATHS.usersMe)).statusCode, { timeout: 3000 }).toBe(401);
  });

  it('caches nothing while the notification channel is lost, and hears changes again once it is back', async () => {
    const cookie = (await server.signIn('member@registry.test')).cookie;
    const third = await participantNamed('Third Custody');
    await expect.poll(listening, { timeout: 3000 }).toBe(1);
    await server.database.pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
      [`LISTEN ${CALLER_CHANGES_CHANNEL}`],
    );
    await sleep(100);
    expect(await usersMeTwice(cookie, third)).toBe(200);
    await server.db
      .update(schema.memberships)
      .set({ roles: ['DART_AGENT'] })
      .where(eq(schema.memberships.participantId, third));
    // No notification can arrive now: the answer is right only because nothing was kept.
    const me = await server.caller(cookie, third).get(PATHS.usersMe);
    expect(me.json().user.roles).toEqual(['DART_AGENT']);

    await expect.poll(listening, { timeout: 5000 }).toBe(1);
    expect(await usersMeTwice(cookie, third)).toBe(200);
    await server.db
      .update(schema.memberships)
      .set({ roles: ['ORG_ADMIN'] })
      .where(eq(schema.memberships.participantId, third));
    await expect
      .poll(async () => (await server.caller(cookie, third).get(PATHS.usersMe)).json().user.roles, {
        timeout: 3000,
      })
      .toEqual(['ORG_ADMIN']);
  });
});
