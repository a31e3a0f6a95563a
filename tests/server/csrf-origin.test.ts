// Defect 7: a state-changing request must come from the server's own origin (scheme,
// host and port, from Origin or else Referer); one that carries neither is refused. The session
// cookie is `__Host-registry_session` when it is Secure, and `registry_session` over plain HTTP.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../src/server/identity/sessions';
import { CROSS_ORIGIN_REFUSED } from '../../src/server/plugins/security';
import { insertParticipant, insertUser, PASSWORD, sameOrigin, signIn } from './support/server-fixtures';
import { type AppCallers, useRouteTest } from './support/route-test';

const server = useRouteTest();
let participantId: string;
const EMAIL = 'csrf-origin@registry.test';
const refused = { statusCode: 403, error: 'Forbidden', message: CROSS_ORIGIN_REFUSED };

beforeAll(async () => {
  const participant = await insertParticipant(server.db, { name: 'Origin Bank' });
  participantId = participant.id;
  await insertUser(server.db, { email: EMAIL, memberships: [{ participantId, isDefault: true }] });
});

/**
 * POST login: a write that needs no session and answers 303 when it is let through. Raw: the
 * caller's same-origin Origin is dropped, so a test sends exactly the Origin and Referer it names.
 */
const postLogin = (target: AppCallers, headers: Record<string, string> = {}) =>
  target.anonymous.inject({ method: 'POST', url: PATHS.login, headers: { origin: null, ...headers } });

describe('the same-origin check of state-changing requests (app.inject: http, Host localhost:80)', () => {
  it.each([
    ["the fixtures' sameOrigin", sameOrigin.origin],
    ['the same origin', 'http://localhost:80'],
    ['the same origin with its default port left out', 'http://localhost'],
  ])('lets a write with an Origin of %s through', async (_name, origin) => {
    const response = await postLogin(server, { origin });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(PATHS.signIn);
  });

  it.each([
    ['another scheme', 'https://localhost'],
    ['another scheme on the same port', 'https://localhost:80'],
    ['another port', 'http://localhost:8080'],
    ['another host', 'http://evil.test'],
    ['another host sharing the prefix', 'http://localhost.evil.test'],
    ['a subdomain', 'http://app.localhost'],
    ['the literal null (sandboxed frame, privacy redirect)', 'null'],
    ['garbage', 'not a url'],
    ['an empty value', ''],
  ])('refuses a write with an Origin of %s (403)', async (_name, origin) => {
    const response = await postLogin(server, { origin });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(refused);
  });

  it('refuses a write with `Origin: null` even beside a same-origin Referer', async () => {
    const response = await postLogin(server, { origin: 'null', referer: 'http://localhost/registry/dashboard' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(refused);
  });

  it('refuses a foreign Origin even beside a same-origin Referer (Origin is what counts)', async () => {
    const response = await postLogin(server, { origin: 'http://evil.test', referer: 'http://localhost/registry/dashboard' });
    expect(response.statusCode).toBe(403);
  });

  it("without Origin, lets a write with a same-origin Referer through, judged by the Referer's origin", async () => {
    const response = await postLogin(server, { referer: 'http://localhost:80/registry/assets/assets?page=2' });
    expect(response.statusCode).toBe(303);
  });

  it.each([
    ['another host', 'http://evil.test/registry/dashboard'],
    ['another scheme', 'https://localhost/registry/dashboard'],
    ['another port', 'http://localhost:8080/registry/dashboard'],
    ['no origin (about:blank)', 'about:blank'],
    ['garbage', '/registry/dashboard'],
  ])('without Origin, refuses a write with a Referer of %s (403)', async (_name, referer) => {
    const response = await postLogin(server, { referer });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(refused);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('refuses a %s that carries neither Origin nor Referer (403)', async (method) => {
    const response = await server.anonymous.inject({ method, url: PATHS.messages, payload: {}, headers: { origin: null } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(refused);
  });

  it('refuses the sign-in form posted with neither header: no session is made', async () => {
    const response = await server.anonymous.post(PATHS.signIn, new URLSearchParams({ email: EMAIL, password: PASSWORD }).toString(), {
      headers: { origin: null, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.cookies).toEqual([]);
  });

  it('lets reads through without either header', async () => {
    const member = await server.signIn(EMAIL, { participantId });
    const noOrigin = { headers: { origin: null } };
    expect((await server.anonymous.get(PATHS.health, noOrigin)).statusCode).toBe(200);
    expect((await member.get(PATHS.usersMe, noOrigin)).statusCode).toBe(200);
    expect((await server.anonymous.head(PATHS.health, noOrigin)).statusCode).toBe(200);
  });

  it('lets a same-origin write reach its route (a product PATCH then answers on its own terms)', async () => {
    const withOrigin = await server.anonymous.patch(PATHS.messages, {});
    expect(withOrigin.statusCode).toBe(401);
  });

  it('takes the Host header as the server host: an Origin naming the Host sent passes', async () => {
    const response = await postLogin(server, { host: 'registry.example:8443', origin: 'http://registry.example:8443' });
    expect(response.statusCode).toBe(303);
    const other = await postLogin(server, { host: 'registry.example:8443', origin: 'http://localhost:80' });
    expect(other.statusCode).toBe(403);
  });
});

describe('a write refused before its body arrives', () => {
  let listening: FastifyInstance;
  beforeAll(async () => {
    ({ app: listening } = await server.otherApp());
    await listening.listen({ port: 0, host: '127.0.0.1' });
  });

  /** Sends the head and the start of a 1,000-byte body, never the rest; resolves when the server closes. */
  const sendPartial = (headers: string) =>
    new Promise<{ response: string; closedAfterMs: number }>((resolve, reject) => {
      const { port } = listening.server.address() as AddressInfo;
      const started = performance.now();
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(`POST ${PATHS.signIn} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Content-Length: 1000\r\n\r\nemail=slow`),
      );
      let response = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (response += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve({ response, closedAfterMs: performance.now() - started }));
    });

  it('is answered 403 at once and its connection closed, not held open for the rest of the body', async () => {
    const { response, closedAfterMs } = await sendPartial('Content-Type: application/x-www-form-urlencoded\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 403 /);
    expect(response.toLowerCase()).toContain('connection: close');
    expect(response).toContain(CROSS_ORIGIN_REFUSED);
    expect(closedAfterMs).toBeLessThan(2000);
  });
});

describe('behind a proxy', () => {
  let proxied: AppCallers;
  beforeAll(async () => {
    proxied = await server.otherApp({
      app: { config: { nodeEnv: 'test', cookieSecure: false, trustProxy: true, logLevel: 'silent', staticDir: '/nonexistent' } },
    });
  });

  it('with trustProxy, takes the scheme from X-Forwarded-Proto: an https Origin passes', async () => {
    const response = await postLogin(proxied, { 'x-forwarded-proto': 'https', host: 'localhost', origin: 'https://localhost' });
    expect(response.statusCode).toBe(303);
  });

  it('with trustProxy, refuses the http Origin of an https request (403)', async () => {
    const response = await postLogin(proxied, { 'x-forwarded-proto': 'https', host: 'localhost', origin: 'http://localhost' });
    expect(response.statusCode).toBe(403);
  });

  it('with trustProxy, takes the host from X-Forwarded-Host', async () => {
    const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'registry.example', host: '10.0.0.5:8080' };
    expect((await postLogin(proxied, { ...headers, origin: 'https://registry.example' })).statusCode).toBe(303);
    expect((await postLogin(proxied, { ...headers, origin: 'http://10.0.0.5:8080' })).statusCode).toBe(403);
  });

  it('without trustProxy, X-Forwarded-Proto is not believed: the https Origin is refused', async () => {
    const response = await postLogin(server, { 'x-forwarded-proto': 'https', host: 'localhost', origin: 'https://localhost' });
    expect(response.statusCode).toBe(403);
  });
});

describe('the session cookie name', () => {
  let secureApp: AppCallers;
  beforeAll(async () => {
    secureApp = await server.otherApp({
      app: { config: { nodeEnv: 'production', cookieSecure: true, trustProxy: false, logLevel: 'silent', staticDir: '/nonexistent' } },
    });
  });

  const setCookieLines = (headers: Record<string, unknown>) => [headers['set-cookie'] ?? []].flat().map(String);

  it('is __Host-registry_session when the cookie is Secure: Path=/, HttpOnly, Secure, SameSite=Lax, no Domain', async () => {
    const { response, cookie } = await signIn(secureApp.app, EMAIL);
    expect(response.statusCode).toBe(303);
    const [line, ...others] = setCookieLines(response.headers);
    expect(others).toEqual([]);
    expect(line).toMatch(new RegExp(`^${SECURE_SESSION_COOKIE}=[A-Za-z0-9_-]{43};`));
    expect(SECURE_SESSION_COOKIE).toBe('__Host-registry_session');
    const attributes = (line ?? '').split('; ').slice(1);
    expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    expect(attributes.filter((attribute) => /^domain=/i.test(attribute))).toEqual([]);
    expect(cookie?.startsWith(`${SECURE_SESSION_COOKIE}=`)).toBe(true);
  });

  it('is read back under that name (a product call works), and not under the plain name', async () => {
    const member = await secureApp.signIn(EMAIL, { participantId });
    const me = await member.get(PATHS.usersMe);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ participant: { id: participantId } });
    const token = member.cookie.split('=')[1] ?? '';
    const plain = await secureApp.caller(`${SESSION_COOKIE}=${token}`, participantId).get(PATHS.usersMe);
    expect(plain.statusCode).toBe(401);
  });

  it('is cleared under that name at sign-out, which ends the session', async () => {
    const member = await secureApp.signIn(EMAIL, { participantId });
    const response = await member.post(PATHS.logout);
    expect(response.statusCode).toBe(303);
    const [line, ...others] = setCookieLines(response.headers);
    expect(others).toEqual([]);
    expect(line).toMatch(new RegExp(`^${SECURE_SESSION_COOKIE}=;`));
    expect(line).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect((line ?? '').split('; ')).toEqual(expect.arrayContaining(['Path=/', 'Secure']));
    expect((await member.get(PATHS.usersMe)).statusCode).toBe(401);
  });

  it('stays registry_session over plain HTTP (cookieSecure false), without Secure, and only that name is read', async () => {
    const { response, cookie } = await signIn(server.app, EMAIL);
    const [line] = setCookieLines(response.headers);
    expect(line).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43};`));
    expect((line ?? '').split('; ')).not.toContain('Secure');
    expect((await server.caller(cookie, participantId).get(PATHS.usersMe)).statusCode).toBe(200);
    const token = cookie?.split('=')[1] ?? '';
    const prefixed = await server.caller(`${SECURE_SESSION_COOKIE}=${token}`, participantId).get(PATHS.usersMe);
    expect(prefixed.statusCode).toBe(401);
    const signedOut = await server.caller(cookie).post(PATHS.logout);
    expect(setCookieLines(signedOut.headers)[0]).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
  });
});
