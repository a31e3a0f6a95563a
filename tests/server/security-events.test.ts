// Defect 8: security events in PostgreSQL with time, identity and address; a write that
// fails never fails the request.
import { setTimeout as sleep } from 'node:timers/promises';
import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { DEFAULT_SECURITY_EVENT_RETENTION_DAYS, DEFAULT_SESSION_IDLE_TIMEOUT_MS, parseConfig } from '../../src/server/config';
import * as schema from '../../src/server/db/schema';
import { purgeRound } from '../../src/server/identity/session-purge';
import { insertParticipant, insertUser, PASSWORD, sessionCookieOf } from './support/server-fixtures';
import { useRouteTest } from './support/route-test';

const server = useRouteTest();
let identityId = '';
let homeId = '';
let foreignId = '';
const EMAIL = 'audited@registry.test';
const ADDRESS = '198.51.100.7';

/** The sign-in form posted from ADDRESS (raw: the events record the address). */
async function signInAs(email: string, password: string) {
  return server.anonymous.inject({
    method: 'POST',
    url: PATHS.signIn,
    remoteAddress: ADDRESS,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ email, password }).toString(),
  });
}

/** Signed in from ADDRESS; the caller acts for `participantId`. */
async function callerAs(participantId?: string) {
  return server.caller(sessionCookieOf(await signInAs(EMAIL, PASSWORD)), participantId);
}

const allEvents = () => server.db.select().from(schema.securityEvents).orderBy(schema.securityEvents.id);
const latest = async () => (await server.db.select().from(schema.securityEvents).orderBy(desc(schema.securityEvents.id)).limit(1))[0];

/** Events written after the answer (onResponse) arrive moments later. */
async function eventually<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
  for (let wait = 0; wait < 40; wait++) {
    const value = await read();
    if (value !== undefined) return value;
    await sleep(50);
  }
  return undefined;
}

beforeAll(async () => {
  const home = await insertParticipant(server.db, { name: 'Audit Bank' });
  const foreign = await insertParticipant(server.db, { name: 'Foreign Bank' });
  homeId = home.id;
  foreignId = foreign.id;
  const { identity } = await insertUser(server.db, { email: EMAIL, memberships: [{ participantId: home.id, isDefault: true }] });
  identityId = identity.id;
});

describe('security events', () => {
  it('records a sign-in with time, identity, the email as typed and the address', async () => {
    const before = Date.now();
    const response = await signInAs('  Audited@Registry.test ', PASSWORD);
    expect(response.statusCode).toBe(303);
    const event = await latest();
    expect(event).toMatchObject({ kind: 'sign-in.success', identityId, email: 'Audited@Registry.test', address: ADDRESS });
    expect(event?.occurredAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('records failures with their reason, an unknown email without identity', async () => {
    await signInAs(EMAIL, 'wrong password');
    expect(await latest()).toMatchObject({ kind: 'sign-in.failure', identityId, detail: { reason: 'bad-password' }, address: ADDRESS });
    await signInAs('ghost@registry.test', 'wrong password');
    expect(await latest()).toMatchObject({
      kind: 'sign-in.failure',
      identityId: null,
      email: 'ghost@registry.test',
      detail: { reason: 'unknown-email' },
    });
    const texts = JSON.stringify(await allEvents());
    expect(texts).not.toContain('wrong password');
    expect(texts).not.toContain(PASSWORD);
  });

  it('records a sign-out', async () => {
    const response = await (await callerAs()).inject({ method: 'POST', url: PATHS.logout, remoteAddress: ADDRESS });
    expect(response.statusCode).toBe(303);
    expect(await latest()).toMatchObject({ kind: 'sign-out', identityId, email: EMAIL, address: ADDRESS });
  });

  it('records every permission refusal: a foreign organization, and a cross-site post', async () => {
    const signedIn = await callerAs(foreignId);
    const refused = await signedIn.inject({ method: 'GET', url: PATHS.usersMe, remoteAddress: ADDRESS });
    expect(refused.statusCode).toBe(403);
    const event = await eventually(async () => {
      const found = await latest();
      return found?.kind === 'permission.refused' ? found : undefined;
    });
    expect(event).toMatchObject({ identityId, address: ADDRESS, detail: { method: 'GET', route: PATHS.usersMe } });

    const crossSite = await signedIn.as(undefined).post(PATHS.logout, undefined, { headers: { origin: 'https://evil.test' } });
    expect(crossSite.statusCode).toBe(403);
    const csrfEvent = await eventually(async () => {
      const found = await latest();
      return found?.kind === 'permission.refused' && found.detail.method === 'POST' ? found : undefined;
    });
    expect(csrfEvent).toMatchObject({ detail: { route: PATHS.logout } });
  });

  it('records nothing for a successful product call', async () => {
    const member = await callerAs(homeId);
    const count = (await allEvents()).length;
    for (let call = 0; call < 3; call++) {
      const response = await member.get(PATHS.usersMe);
      expect(response.statusCode).toBe(200);
    }
    await sleep(200);
    expect(await allEvents()).toHaveLength(count);
  });

  it('never fails the request when an event cannot be written', async () => {
    await server.database.owner.pool.query('ALTER TABLE security_events RENAME TO security_events_away');
    try {
      const signedIn = await signInAs(EMAIL, PASSWORD);
      expect(signedIn.statusCode).toBe(303);
      const member = server.caller(sessionCookieOf(signedIn));
      expect((await signInAs(EMAIL, 'wrong password')).statusCode).toBe(401);
      const refused = await member.as(foreignId).get(PATHS.usersMe);
      expect(refused.statusCode).toBe(403);
      const out = await member.post(PATHS.logout);
      expect(out.statusCode).toBe(303);
      await sleep(100);
    } finally {
      await server.database.owner.pool.query('ALTER TABLE security_events_away RENAME TO security_events');
    }
    // Written again once the table is back.
    expect((await signInAs(EMAIL, PASSWORD)).statusCode).toBe(303);
    expect(await latest()).toMatchObject({ kind: 'sign-in.success', identityId });
    const [stored] = await server.db.select().from(schema.identities).where(eq(schema.identities.id, identityId));
    expect(stored?.email).toBe(EMAIL);
  });

  it('keeps events SECURITY_EVENT_RETENTION_DAYS, then the purge round deletes them, oldest first and a batch at a time', async () => {
    const DAY_MS = 24 * 60 * 60 * 1000;
    const aged = (days: number) => ({
      kind: 'sign-in.failure',
      email: `aged-${days}@registry.test`,
      occurredAt: new Date(Date.now() - days * DAY_MS),
      detail: { days },
    });
    await server.db.insert(schema.securityEvents).values([aged(900), aged(700), aged(401), aged(399), aged(30)]);
    const agedLeft = async () =>
      (await allEvents()).filter((event) => event.email?.startsWith('aged-')).map((event) => (event.detail as { days: number }).days);

    // A batch of two takes the two oldest.
    expect(await server.app.repositories.securityEvents.deleteOlderThan(DEFAULT_SECURITY_EVENT_RETENTION_DAYS, 2)).toBe(2);
    expect(await agedLeft()).toEqual([401, 399, 30]);
    // The timer's round, with the default retention: what is past 400 days goes, the rest stays.
    await purgeRound(server.app, server.app.log, {
      idleTimeoutMs: DEFAULT_SESSION_IDLE_TIMEOUT_MS,
      securityEventRetentionDays: DEFAULT_SECURITY_EVENT_RETENTION_DAYS,
    });
    expect(await agedLeft()).toEqual([399, 30]);
    expect(parseConfig({}).securityEventRetentionDays).toBe(400);
    expect(() => parseConfig({ SECURITY_EVENT_RETENTION_DAYS: '7' })).toThrow();
  });
});
