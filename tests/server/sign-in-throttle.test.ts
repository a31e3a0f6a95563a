// Defect 6: a per-account sign-in throttle beside the per-address one, kept in
// PostgreSQL so every server shares it, and blind to whether the email exists.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { TEXTS, tooManyAccountSignInAttempts } from '../../src/domain/texts';
import * as schema from '../../src/server/db/schema';
import { insertIdentity, PASSWORD, sessionCookieOf } from './support/server-fixtures';
import { type AppCallers, useRouteTest } from './support/route-test';

const server = useRouteTest();
/** A second server on the same database: the throttle is shared. */
let otherServer: AppCallers;

/** A sign-in from a given client address (raw: the address is the inject's remoteAddress). */
async function signInFrom(target: AppCallers, address: string, email: string, password: string) {
  return target.anonymous.inject({
    method: 'POST',
    url: PATHS.signIn,
    remoteAddress: address,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ email, password }).toString(),
  });
}

async function throttleRow(email: string) {
  const [row] = await server.db.select().from(schema.signInThrottle).where(eq(schema.signInThrottle.emailKey, email.toLowerCase()));
  return row;
}

beforeAll(async () => {
  otherServer = await server.otherApp();
  for (const email of [
    'guessed@registry.test',
    'window@registry.test',
    'resets@registry.test',
    'racy@registry.test',
    'kim@registry.test',
  ]) {
    await insertIdentity(server.db, { email });
  }
});

describe('per-account sign-in throttle', () => {
  it('after 5 failures refuses even the right password with the 429 page, from any address and server', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await signInFrom(server, `10.0.0.${attempt + 1}`, 'guessed@registry.test', 'wrong password');
      expect(response.statusCode).toBe(401);
      expect(response.body).toContain(TEXTS.invalidCredentials);
    }
    for (const target of [server, otherServer]) {
      const response = await signInFrom(target, '192.0.2.77', 'GUESSED@registry.test', PASSWORD);
      expect(response.statusCode).toBe(429);
      expect(response.headers['content-type']).toContain('text/html');
      // The wait is the rest of the account's 15-minute window, in the text and in Retry-After.
      const retryAfter = Number(response.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(response.body).toContain(`role="alert">${tooManyAccountSignInAttempts(retryAfter)}`);
      expect(tooManyAccountSignInAttempts(retryAfter)).toBe('Too many sign-in attempts for this account. Try again in 15 minutes.');
      expect(sessionCookieOf(response)).toBeUndefined();
    }
    const [identity] = await server.db.select().from(schema.identities).where(eq(schema.identities.email, 'guessed@registry.test'));
    const failures = await server.db
      .select()
      .from(schema.securityEvents)
      .where(sql`${schema.securityEvents.kind} = 'sign-in.failure' AND lower(${schema.securityEvents.email}) = 'guessed@registry.test'`)
      .orderBy(schema.securityEvents.id);
    expect(failures.map((event) => event.detail.reason)).toEqual([...Array(5).fill('bad-password'), 'throttled', 'throttled']);
    // A throttled attempt is not tied to the identity: the password was not checked.
    expect(failures.at(-1)?.identityId).toBeNull();
    expect(failures[0]?.identityId).toBe(identity?.id);
    expect(failures.at(-1)?.address).toBe('192.0.2.77');
  });

  it('lets the account in again once its window has passed, and a success starts the count again', async () => {
    for (let attempt = 0; attempt < 6; attempt++) await signInFrom(server, '10.0.1.1', 'window@registry.test', 'wrong password');
    expect((await signInFrom(server, '10.0.1.1', 'window@registry.test', PASSWORD)).statusCode).toBe(429);
    // Late in the window, the page asks for the minutes that are left.
    await server.db
      .update(schema.signInThrottle)
      .set({ windowStartedAt: sql`now() - interval '14 minutes 10 seconds'` })
      .where(eq(schema.signInThrottle.emailKey, 'window@registry.test'));
    const late = await signInFrom(server, '10.0.1.1', 'window@registry.test', PASSWORD);
    expect(late.statusCode).toBe(429);
    expect(Number(late.headers['retry-after'])).toBeGreaterThan(45);
    expect(Number(late.headers['retry-after'])).toBeLessThanOrEqual(50);
    expect(late.body).toContain('Too many sign-in attempts for this account. Try again in 1 minute.');
    await server.db
      .update(schema.signInThrottle)
      .set({ windowStartedAt: sql`now() - interval '16 minutes'` })
      .where(eq(schema.signInThrottle.emailKey, 'window@registry.test'));
    expect((await signInFrom(server, '10.0.1.1', 'window@registry.test', PASSWORD)).statusCode).toBe(303);
    expect(await throttleRow('window@registry.test')).toBeUndefined();
  });

  it('counts failures between successes only', async () => {
    for (let round = 0; round < 3; round++) {
      for (let attempt = 0; attempt < 4; attempt++) {
        expect((await signInFrom(server, '10.0.2.1', 'resets@registry.test', 'wrong password')).statusCode).toBe(401);
      }
      expect((await signInFrom(server, '10.0.2.1', 'resets@registry.test', PASSWORD)).statusCode).toBe(303);
    }
  });

  it('throttles an unknown email exactly like a known one', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      statuses.push((await signInFrom(server, '10.0.3.1', 'nobody-here@registry.test', PASSWORD)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect((await throttleRow('nobody-here@registry.test'))?.attempts).toBe(7);
  });

  it('checks no more than 5 passwords of an account under concurrent guesses', async () => {
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        signInFrom(index % 2 ? server : otherServer, `10.0.4.${index}`, 'racy@registry.test', 'wrong'),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
  });

  it('throttles every spelling of the address that reaches the account, however it is lower-cased', async () => {
    // 'İ' (U+0130): JavaScript lower-cases it to 'i' and a combining dot, PostgreSQL (this
    // database's collation) to 'i', as the account lookup does. The throttle once keyed by the
    // former, so this spelling signed in and had its guesses checked after the account was throttled.
    const variant = 'k\u0130m@registry.test';
    const [folded] = (await server.db.execute<{ email: string }>(sql`SELECT lower(${variant}) AS email`)).rows;
    expect(folded?.email).toBe('kim@registry.test');
    for (let attempt = 0; attempt < 5; attempt++) await signInFrom(server, `10.0.5.${attempt}`, 'kim@registry.test', 'wrong password');
    const guess = await signInFrom(server, '10.0.5.9', variant, 'another wrong password');
    expect(guess.statusCode).toBe(429);
    const right = await signInFrom(server, '10.0.5.9', variant, PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(sessionCookieOf(right)).toBeUndefined();
    expect((await throttleRow('kim@registry.test'))?.attempts).toBe(7);
  });
});
