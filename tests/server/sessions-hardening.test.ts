// Defect 2: sessions die when idle (sliding, without emptying caller caches), expired
// ones are purged, an identity has a bounded number of them, and a password change ends them all.
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { TEXTS } from '../../src/domain/texts';
import type { BuildAppOptions } from '../../src/server/app';
import { CALLER_CHANGES_CHANNEL } from '../../src/server/db/caller-changes';
import * as schema from '../../src/server/db/schema';
import { hashPassword } from '../../src/server/identity/passwords';
import { escapeHtml } from '../../src/server/identity/sign-in-page';
import { hashSessionToken } from '../../src/server/identity/sessions';
import { NOT_MANAGEABLE } from '../../src/server/routes/identity';
import { insertIdentity, insertParticipant, insertUser, PASSWORD, sessionCookieOf, signIn, TEST_SCRYPT } from './support/server-fixtures';
import { type AppCallers, useRouteTest } from './support/route-test';

const server = useRouteTest();
const NEW_PASSWORD = 'a much longer new passphrase';

const baseConfig: BuildAppOptions['config'] = {
  nodeEnv: 'test',
  cookieSecure: false,
  trustProxy: false,
  logLevel: 'silent',
  staticDir: '/nonexistent-registry-dist',
};

/** An app with other session settings (idle timeout, cap, purge interval) over the test's database. */
const appWith = (config: Partial<BuildAppOptions['config']>) => server.otherApp({ app: { config: { ...baseConfig, ...config } } });

/** Signs in on that app; the session cookie pair. */
const sessionOn = async (target: AppCallers, email: string) => (await target.signIn(email)).cookie;
const figureInfo = (target: AppCallers, cookie: string) => target.caller(cookie).get(PATHS.figureInfo);
const tokenHashOf = (cookie: string) => hashSessionToken(decodeURIComponent(cookie.split('=')[1] ?? ''));

async function sessionRow(cookie: string) {
  const [row] = await server.db
    .select()
    .from(schema.sessions)
    .where(eq(schema.sessions.tokenHash, tokenHashOf(cookie)));
  return row;
}

async function eventsOf(identityId: string, kind: string) {
  return server.db
    .select()
    .from(schema.securityEvents)
    .where(and(eq(schema.securityEvents.identityId, identityId), eq(schema.securityEvents.kind, kind)));
}

beforeAll(async () => {
  const participant = await insertParticipant(server.db, { name: 'Session Bank' });
  for (const email of ['idle@registry.test', 'slide@registry.test', 'notify@registry.test', 'purge@registry.test', 'cap@registry.test']) {
    await insertUser(server.db, { email, memberships: [{ participantId: participant.id, isDefault: true }] });
  }
});

describe('idle timeout', () => {
  it('ends a session unused for the idle timeout, also when its caller was cached', async () => {
    const idleApp = await appWith({ sessionIdleTimeoutMs: 1000 });
    try {
      const cookie = await sessionOn(idleApp, 'idle@registry.test');
      expect((await figureInfo(idleApp, cookie)).statusCode).toBe(200);
      expect((await figureInfo(idleApp, cookie)).statusCode).toBe(200);
      await sleep(1200);
      expect((await figureInfo(idleApp, cookie)).statusCode).toBe(401);
      // Its row is still there until a purge; the absolute end has not come.
      expect((await sessionRow(cookie))?.expiresAt.getTime()).toBeGreaterThan(Date.now());
    } finally {
      await idleApp.close();
    }
  });

  it('slides with every authenticated request, inside the absolute lifetime', async () => {
    // 2 s: a request every 300 ms keeps it alive even when a loaded CI machine stalls this process
    // for well over a second (with 1 s, one stall of 0.6 s ended the session mid-test).
    const idleApp = await appWith({ sessionIdleTimeoutMs: 2000 });
    try {
      const cookie = await sessionOn(idleApp, 'slide@registry.test');
      const signedInAt = (await sessionRow(cookie))?.lastSeenAt.getTime() ?? 0;
      // 3.3 s of use, more than one and a half idle timeouts, a request every 300 ms.
      for (let round = 0; round < 12; round++) {
        expect((await figureInfo(idleApp, cookie)).statusCode).toBe(200);
        await sleep(300);
      }
      const row = await sessionRow(cookie);
      expect(row?.lastSeenAt.getTime()).toBeGreaterThan(signedInAt + 2500);
      await sleep(2400);
      expect((await figureInfo(idleApp, cookie)).statusCode).toBe(401);
    } finally {
      await idleApp.close();
    }
  });

  it('records use without announcing a caller change; other session changes are still announced', async () => {
    const listener = new pg.Client({ connectionString: server.database.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    await listener.query(`LISTEN ${CALLER_CHANGES_CHANNEL}`);
    try {
      const cookie = await sessionOn(server, 'notify@registry.test');
      const tokenHash = tokenHashOf(cookie);
      // Last used five minutes ago (a last_seen_at-only change: not announced either).
      await server.db
        .update(schema.sessions)
        .set({ lastSeenAt: sql`now() - interval '5 minutes'` })
        .where(eq(schema.sessions.tokenHash, tokenHash));
      const before = (await sessionRow(cookie))?.lastSeenAt.getTime() ?? 0;
      expect((await figureInfo(server, cookie)).statusCode).toBe(200);
      expect((await figureInfo(server, cookie)).statusCode).toBe(200);
      const after = (await sessionRow(cookie))?.lastSeenAt.getTime() ?? 0;
      expect(after - before).toBeGreaterThan(4 * 60 * 1000);
      await sleep(300);
      expect(heard).toEqual([]);

      await server.db
        .update(schema.sessions)
        .set({ expiresAt: sql`${schema.sessions.expiresAt} - interval '1 second'` })
        .where(eq(schema.sessions.tokenHash, tokenHash));
      for (let wait = 0; wait < 20 && heard.length === 0; wait++) await sleep(50);
      expect(heard).toEqual(['sessions']);
    } finally {
      await listener.end();
    }
  });
});

describe('purge of expired sessions', () => {
  it('deletes sessions past their absolute end or idle, on a timer, and records why', async () => {
    const purgeApp = await appWith({ sessionIdleTimeoutMs: 60_000, sessionPurgeIntervalMs: 200 });
    try {
      const [absolute, idle, live] = [
        await sessionOn(purgeApp, 'purge@registry.test'),
        await sessionOn(purgeApp, 'purge@registry.test'),
        await sessionOn(purgeApp, 'purge@registry.test'),
      ] as [string, string, string];
      await server.db
        .update(schema.sessions)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(schema.sessions.tokenHash, tokenHashOf(absolute)));
      await server.db
        .update(schema.sessions)
        .set({ lastSeenAt: sql`now() - interval '2 minutes'` })
        .where(eq(schema.sessions.tokenHash, tokenHashOf(idle)));
      for (let wait = 0; wait < 40 && ((await sessionRow(absolute)) || (await sessionRow(idle))); wait++) await sleep(100);
      expect(await sessionRow(absolute)).toBeUndefined();
      expect(await sessionRow(idle)).toBeUndefined();
      expect(await sessionRow(live)).toBeDefined();
      expect((await figureInfo(purgeApp, live)).statusCode).toBe(200);
      const identityId = (await sessionRow(live))?.identityId ?? '';
      const expired = await eventsOf(identityId, 'session.expired');
      expect(expired.map((event) => event.detail.reason).sort()).toEqual(['absolute', 'idle']);
    } finally {
      await purgeApp.close();
    }
  });

  it('also purges at sign-in', async () => {
    const cookie = await sessionOn(server, 'purge@registry.test');
    await server.db
      .update(schema.sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(schema.sessions.tokenHash, tokenHashOf(cookie)));
    await sessionOn(server, 'idle@registry.test');
    expect(await sessionRow(cookie)).toBeUndefined();
  });
});

describe('sessions per identity', () => {
  it('ends the oldest sessions beyond the cap at sign-in, also under concurrent sign-ins', async () => {
    // The account throttle counts attempts in flight (sign-in-throttle.test.ts): six at once would trip its default of 5.
    const capApp = await appWith({ maxSessionsPerIdentity: 3, signInAccountLimit: 50 });
    try {
      const first = await sessionOn(capApp, 'cap@registry.test');
      const identityId = (await sessionRow(first))?.identityId ?? '';
      const second = await sessionOn(capApp, 'cap@registry.test');
      const third = await sessionOn(capApp, 'cap@registry.test');
      expect((await figureInfo(capApp, first)).statusCode).toBe(200);
      const fourth = await sessionOn(capApp, 'cap@registry.test');
      expect((await figureInfo(capApp, first)).statusCode).toBe(401);
      for (const cookie of [second, third, fourth]) expect((await figureInfo(capApp, cookie)).statusCode).toBe(200);
      const revoked = await eventsOf(identityId, 'session.revoked');
      expect(revoked).toHaveLength(1);
      expect(revoked[0]?.detail).toMatchObject({ reason: 'session-cap' });

      const many = await Promise.all(Array.from({ length: 6 }, () => signIn(capApp.app, 'cap@registry.test')));
      expect(many.map(({ response }) => response.statusCode)).toEqual(Array(6).fill(303));
      const live = await server.db.select().from(schema.sessions).where(eq(schema.sessions.identityId, identityId));
      expect(live).toHaveLength(3);
    } finally {
      await capApp.close();
    }
  });
});

describe('password change', () => {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const postForm = (cookie: string | undefined, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    server
      .caller(cookie)
      .post(PATHS.passwordPage, form(fields), { headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } });

  it('POST self/password-reset redirects a signed-in caller to the hosted page; anonymous is 401', async () => {
    await insertIdentity(server.db, { email: 'starter@registry.test' });
    const cookie = await sessionOn(server, 'starter@registry.test');
    const response = await server.caller(cookie).post(PATHS.passwordReset);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(PATHS.passwordPage);
    const anonymous = await server.anonymous.post(PATHS.passwordReset);
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers a form over 16 KB with its HTML page and a 413, on sign-in and on the password page', async () => {
    const huge = 'x'.repeat(20 * 1024);
    const signIn = await server.anonymous.post(PATHS.signIn, form({ email: 'starter@registry.test', password: huge }), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const cookie = await sessionOn(server, 'starter@registry.test');
    const password = await postForm(cookie, { currentPassword: huge, newPassword: huge, confirmPassword: huge });
    for (const response of [signIn, password]) {
      expect(response.statusCode).toBe(413);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-security-policy']).toBeDefined();
      expect(response.body).toContain(escapeHtml(TEXTS.formTooLarge));
      expect(response.body).toContain('<form method="post"');
    }
  });

  it('shows an accessible, script-free form; anonymous callers go to sign-in first', async () => {
    const cookie = await sessionOn(server, 'starter@registry.test');
    const page = await server.caller(cookie).get(PATHS.passwordPage);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    for (const [id, label] of [
      ['currentPassword', 'Current password'],
      ['newPassword', 'New password'],
      ['confirmPassword', 'Confirm new password'],
    ]) {
      expect(page.body).toContain(`<label for="${id}">${label}</label>`);
      expect(page.body).toContain(`id="${id}" name="${id}" type="password"`);
    }
    expect(page.body).toContain(`<form method="post" action="${PATHS.passwordPage}">`);
    expect(page.body).not.toContain('<script');
    const anonymous = await server.anonymous.get(PATHS.passwordPage);
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toBe(`${PATHS.signIn}?returnTo=${encodeURIComponent(PATHS.passwordPage)}`);
    const anonymousPost = await postForm(undefined, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(anonymousPost.statusCode).toBe(303);
    expect(anonymousPost.headers.location).toContain(PATHS.signIn);
  });

  it('refuses a wrong current password, a short, unconfirmed or unchanged new one, and a cross-site post', async () => {
    const cookie = await sessionOn(server, 'starter@registry.test');
    const cases: [Record<string, string>, number, string][] = [
      [
        { currentPassword: 'not the password', newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
        400,
        'The current password is not correct',
      ],
      [{ currentPassword: PASSWORD, newPassword: 'too short', confirmPassword: 'too short' }, 400, 'at least 12 characters'],
      [{ currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!` }, 400, 'do not match'],
      [{ currentPassword: PASSWORD, newPassword: PASSWORD, confirmPassword: PASSWORD }, 400, 'must differ from the current one'],
    ];
    for (const [fields, status, message] of cases) {
      const response = await postForm(cookie, fields);
      expect(response.statusCode).toBe(status);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('role="alert"');
      expect(response.body).toContain(message);
      expect(response.body).toContain('aria-invalid="true"');
    }
    const crossSite = await postForm(
      cookie,
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      {
        origin: 'https://evil.test',
      },
    );
    expect(crossSite.statusCode).toBe(403);
    // Nothing changed: the session lives and the password still signs in.
    expect((await figureInfo(server, cookie)).statusCode).toBe(200);
    expect((await signIn(server.app, 'starter@registry.test')).response.statusCode).toBe(303);
  });

  it('stores the new password and ends every session of the identity, in every browser', async () => {
    const identity = await insertIdentity(server.db, { email: 'changer@registry.test' });
    const browserA = await sessionOn(server, 'changer@registry.test');
    const browserB = await sessionOn(server, 'changer@registry.test');
    expect((await figureInfo(server, browserB)).statusCode).toBe(200);
    const response = await postForm(browserA, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/registry/login');
    expect(sessionCookieOf(response)).toBeUndefined();
    expect(response.cookies.find((cookie) => cookie.name === browserA.split('=')[0])?.value).toBe('');

    expect((await figureInfo(server, browserA)).statusCode).toBe(401);
    expect((await figureInfo(server, browserB)).statusCode).toBe(401);
    expect(await server.db.select().from(schema.sessions).where(eq(schema.sessions.identityId, identity.id))).toHaveLength(0);
    expect((await signIn(server.app, 'changer@registry.test')).response.statusCode).toBe(401);
    const withNew = await signIn(server.app, 'changer@registry.test', { password: NEW_PASSWORD });
    expect(withNew.response.statusCode).toBe(303);
    expect((await figureInfo(server, withNew.cookie ?? '')).statusCode).toBe(200);

    expect(await eventsOf(identity.id, 'password.changed')).toHaveLength(1);
    const revoked = await eventsOf(identity.id, 'session.revoked');
    expect(revoked.map((event) => event.detail.reason)).toEqual(['password-changed', 'password-changed']);
  });

  it('counts wrong current passwords against the account, like sign-in guesses', async () => {
    await insertIdentity(server.db, { email: 'guesser@registry.test' });
    const cookie = await sessionOn(server, 'guesser@registry.test');
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await postForm(cookie, {
        currentPassword: `guess ${attempt}`,
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      });
      expect(wrong.statusCode).toBe(400);
    }
    const right = await postForm(cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(right.statusCode).toBe(429);
    expect(right.body).toContain('Too many sign-in attempts for this account. Try again in 15 minutes.');
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect((await signIn(server.app, 'guesser@registry.test')).response.statusCode).toBe(429);
    // The password did not change and the session lives.
    expect((await figureInfo(server, cookie)).statusCode).toBe(200);
    await server.db
      .update(schema.signInThrottle)
      .set({ windowStartedAt: sql`now() - interval '16 minutes'` })
      .where(eq(schema.signInThrottle.emailKey, 'guesser@registry.test'));
    expect((await signIn(server.app, 'guesser@registry.test')).response.statusCode).toBe(303);
  });

  it('refuses an account that is not manageable (SPEC section 6)', async () => {
    const [identity] = await server.db
      .insert(schema.identities)
      .values({
        email: 'managed@registry.test',
        name: 'Managed',
        passwordHash: await hashPassword(PASSWORD, TEST_SCRYPT),
        manageable: false,
      })
      .returning();
    const cookie = await sessionOn(server, 'managed@registry.test');
    const start = await server.caller(cookie).post(PATHS.passwordReset);
    expect(start.statusCode).toBe(403);
    expect(start.json()).toMatchObject({ message: NOT_MANAGEABLE });
    const page = await server.caller(cookie).get(PATHS.passwordPage);
    expect(page.statusCode).toBe(403);
    expect(page.body).not.toContain('<form');
    const post = await postForm(cookie, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(post.statusCode).toBe(403);
    expect((await figureInfo(server, cookie)).statusCode).toBe(200);
    expect((await signIn(server.app, 'managed@registry.test')).response.statusCode).toBe(303);
    expect(identity).toBeDefined();
  });
});
