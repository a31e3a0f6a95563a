import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { figureInfoSchema } from '../../src/contract/identity';
import { PATHS } from '../../src/contract/paths';
import { TEXTS } from '../../src/domain/texts';
import * as schema from '../../src/server/db/schema';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, hashSessionToken } from '../../src/server/identity/sessions';
import { insertIdentity, insertParticipant, insertUser, sessionCookieOf, signIn } from './support/server-fixtures';
import { useRouteTest } from './support/route-test';

const server = useRouteTest();
const EMAIL = 'signer@registry.test';
// The sign-in route's own tests read its answers, so they post the form through server-fixtures'
// signIn or as the anonymous caller with this content type.
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

beforeAll(async () => {
  const participant = await insertParticipant(server.db, { name: 'Signer Bank' });
  await insertUser(server.db, {
    email: EMAIL,
    roles: { 'service-dart': ['ROLE_DART_OPS'] },
    memberships: [{ participantId: participant.id, isDefault: true }],
  });
});

describe('sign-in page', () => {
  it('renders an accessible form with labelled fields and the returnTo', async () => {
    const response = await server.anonymous.get(`${PATHS.signIn}?returnTo=${encodeURIComponent('/registry/assets/assets')}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    const html = response.body;
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain('<main>');
    expect(html).toContain(`<h1>${TEXTS.signIn}</h1>`);
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(html).toContain('name="returnTo" value="/registry/assets/assets"');
    expect(html).not.toContain('<script');
    // Typing starts in the email; no favicon request (a 404 on every sign-in).
    expect(html).toMatch(/<input id="email"[^>]* autofocus>/);
    expect(html).not.toMatch(/<input id="password"[^>]* autofocus>/);
    expect(html).toContain('<link rel="icon" href="data:,">');
  });

  it('escapes what the caller sent and drops an off-site returnTo', async () => {
    const nasty = '/x"><script>alert(1)</script>';
    const page = await server.anonymous.get(`${PATHS.signIn}?returnTo=${encodeURIComponent(nasty)}`);
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain('&#34;&#62;&#60;script&#62;');
    const offSite = await server.anonymous.get(`${PATHS.signIn}?returnTo=${encodeURIComponent('https://evil.test')}`);
    expect(offSite.body).not.toContain('evil.test');
  });

  it('POST login redirects to the sign-in page with the returnTo', async () => {
    const response = await server.anonymous.post(`${PATHS.login}?returnTo=${encodeURIComponent('/registry/messages')}`);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${PATHS.signIn}?returnTo=${encodeURIComponent('/registry/messages')}`);
    const plain = await server.anonymous.post(PATHS.login);
    expect(plain.headers.location).toBe(PATHS.signIn);
  });
});

describe('sign-in', () => {
  it('answers 401 with the page and the error for a wrong password, without a cookie', async () => {
    const { response, cookie } = await signIn(server.app, EMAIL, { password: 'wrong password', returnTo: '/registry/messages' });
    expect(response.statusCode).toBe(401);
    expect(cookie).toBeUndefined();
    expect(response.body).toContain(`role="alert">${TEXTS.invalidCredentials}</p>`);
    expect(response.body).toContain(`value="${EMAIL}"`);
    expect(response.body).toContain('name="returnTo" value="/registry/messages"');
    // The email is kept, so the focus starts in the password.
    expect(response.body).toMatch(/<input id="password"[^>]* autofocus>/);
    expect(response.body).not.toMatch(/<input id="email"[^>]* autofocus>/);
  });

  it('answers the same for an unknown email', async () => {
    const { response } = await signIn(server.app, 'nobody@registry.test');
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain(TEXTS.invalidCredentials);
  });

  it('re-renders the page with 400 when a field is missing', async () => {
    const response = await server.anonymous.post(PATHS.signIn, 'email=&password=x', { headers: FORM });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('role="alert">Email is required</p>');
  });

  it.each([
    ['a form without an email', 'password=x', 'Email is required'],
    ['a form without a password', 'email=member%40registry.test', 'Password is required'],
    ['an email holding a NUL character', 'email=member%00%40registry.test&password=x', 'Email must not contain a NUL character (U+0000)'],
  ])('re-renders the page with 400 and a plain message for %s', async (_case, payload, message) => {
    const response = await server.anonymous.post(PATHS.signIn, payload, { headers: FORM });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain(`role="alert">${message}</p>`);
  });

  it('sets an HttpOnly SameSite=Lax session cookie and redirects to the returnTo', async () => {
    const { response, cookie } = await signIn(server.app, EMAIL.toUpperCase(), { returnTo: '/registry/assets/assets?page=2' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/registry/assets/assets?page=2');
    const setCookie = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
    expect(setCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(setCookie?.secure).toBeFalsy();
    expect(setCookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie).toBeDefined();
  });

  it.each([
    '//evil.test',
    'https://evil.test',
    '/\\evil.test',
    'javascript:alert(1)',
    '',
    '/registry/../healthz',
    '/registry/%2e%2e/healthz',
  ])('sends off-origin or dot-segment returnTo %j to the dashboard', async (returnTo) => {
    const { response } = await signIn(server.app, EMAIL, { returnTo });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/registry/dashboard');
  });

  it('issues a new session at every sign-in and ends the one it replaces', async () => {
    const first = await signIn(server.app, EMAIL);
    const second = await signIn(server.app, EMAIL, { cookie: first.cookie });
    expect(second.cookie).toBeDefined();
    expect(second.cookie).not.toBe(first.cookie);
    const withOld = await server.caller(first.cookie).get(PATHS.figureInfo);
    expect(withOld.statusCode).toBe(401);
    const withNew = await server.caller(second.cookie).get(PATHS.figureInfo);
    expect(withNew.statusCode).toBe(200);
  });

  it('marks the cookie Secure when configured', async () => {
    const secureApp = await server.otherApp({
      app: { config: { nodeEnv: 'production', cookieSecure: true, trustProxy: false, logLevel: 'silent', staticDir: '/nonexistent' } },
    });
    const { response } = await signIn(secureApp.app, EMAIL);
    expect(response.cookies.find((candidate) => candidate.name === SECURE_SESSION_COOKIE)?.secure).toBe(true);
    expect(response.headers['strict-transport-security']).toBeDefined();
  });

  it('refuses a cross-site form post', async () => {
    const response = await server.anonymous.post(PATHS.signIn, new URLSearchParams({ email: EMAIL, password: 'x' }).toString(), {
      headers: { ...FORM, origin: 'https://evil.test', host: 'localhost:80' },
    });
    expect(response.statusCode).toBe(403);
    expect(sessionCookieOf(response)).toBeUndefined();
  });

  it('rate-limits sign-in attempts and answers with the page', async () => {
    const { app: limited } = await server.otherApp({ app: { signInRateLimit: 2 } });
    await signIn(limited, EMAIL, { password: 'nope' });
    await signIn(limited, EMAIL, { password: 'nope' });
    const { response } = await signIn(limited, EMAIL);
    expect(response.statusCode).toBe(429);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).toContain(`role="alert">${TEXTS.tooManySignInAttempts}`);
    // @fastify/rate-limit's window is one minute, as the text says.
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(sessionCookieOf(response)).toBeUndefined();
  });
});

describe('figureinfo and logout', () => {
  it('answers 401 without a session, and with a forged cookie', async () => {
    for (const cookie of [undefined, `${SESSION_COOKIE}=${'A'.repeat(43)}`, `${SESSION_COOKIE}=garbage`]) {
      const response = await server.caller(cookie).get(PATHS.figureInfo);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Authentication required' });
    }
  });

  it('answers 401 once the session has expired, also right after a cached answer', async () => {
    const signer = await server.signIn(EMAIL);
    const tokenHash = hashSessionToken(decodeURIComponent(signer.cookie.split('=')[1] ?? ''));
    const endsAt = new Date(Date.now() + 1500);
    await server.db.update(schema.sessions).set({ expiresAt: endsAt }).where(eq(schema.sessions.tokenHash, tokenHash));
    // The change reaches the server's caller cache by notification within moments; the next
    // answer is cached again, with the new end of the session.
    await sleep(300);
    expect((await signer.get(PATHS.figureInfo)).statusCode).toBe(200);
    await sleep(Math.max(0, endsAt.getTime() - Date.now() + 50));
    const response = await signer.get(PATHS.figureInfo);
    expect(response.statusCode).toBe(401);
  });

  it('describes the signed-in identity', async () => {
    const response = await (await server.signIn(EMAIL)).get(PATHS.figureInfo);
    expect(response.statusCode).toBe(200);
    const info = figureInfoSchema.parse(response.json());
    expect(info).toMatchObject({ email: EMAIL, roles: { 'service-dart': ['ROLE_DART_OPS'] } });
  });

  it('works for an identity without a registry user', async () => {
    await insertIdentity(server.db, { email: 'loner@registry.test', name: 'Lone Identity' });
    const response = await (await server.signIn('loner@registry.test')).get(PATHS.figureInfo);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ email: 'loner@registry.test', name: 'Lone Identity', roles: {} });
  });

  it('logout ends the session, clears the cookie and redirects to the login screen', async () => {
    const signer = await server.signIn(EMAIL);
    // Used once before, so the server holds its caller: signing out must end that too, at once.
    expect((await signer.get(PATHS.figureInfo)).statusCode).toBe(200);
    const response = await signer.post(PATHS.logout);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/registry/login');
    const cleared = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
    expect(cleared?.value).toBe('');
    const after = await signer.get(PATHS.figureInfo);
    expect(after.statusCode).toBe(401);
    const again = await server.anonymous.post(PATHS.logout);
    expect(again.statusCode).toBe(303);
  });
});
