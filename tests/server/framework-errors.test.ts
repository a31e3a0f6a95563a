// Defect 4: errors raised before a route runs (bad URL encoding, a header too large) and a
// sign-in returnTo a Location header cannot carry answer in the app's shape, never a 500 or a code.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/common';
import { PATHS } from '../../src/contract/paths';
import { PARTICIPANT_HEADER } from '../../src/domain/constants';
import { afterSignInLocation, DEFAULT_AFTER_SIGN_IN } from '../../src/server/routes/identity';
import { participants } from '../../src/server/db/schema';
import { UNSUPPORTED_MEDIA_TYPE } from '../../src/server/plugins/error-handler';
import { CSV_IDS_PER_REQUEST } from '../../src/web/screens/assets/asset-csv';
import { insertParticipant, insertUser, signIn } from './support/server-fixtures';
import { type Caller, useRouteTest } from './support/route-test';

const server = useRouteTest();
const EMAIL = 'framework-errors@registry.test';
const INTERNAL_CODE = /\b(?:FST|ERR)_[A-Z_]+/;

beforeAll(async () => {
  const participant = await insertParticipant(server.db, { name: 'Framework Bank' });
  await insertUser(server.db, { email: EMAIL, memberships: [{ participantId: participant.id, isDefault: true }] });
});

describe('sign-in returnTo a Location header cannot carry as is', () => {
  it.each([
    ['/registry/loans?q=€', `/registry/loans?q=${encodeURIComponent('€')}`],
    ['/registry/中文', `/registry/${encodeURIComponent('中文')}`],
    ['/registry/loans?q=a b', '/registry/loans?q=a%20b'],
    // Escapes already there are kept, not encoded twice.
    ['/registry/loans?q=%E2%82%AC€', `/registry/loans?q=%E2%82%AC${encodeURIComponent('€')}`],
  ])('signs in with %s and redirects to it percent-encoded', async (returnTo, location) => {
    const { response, cookie } = await signIn(server.app, EMAIL, { returnTo });
    expect(response.statusCode).toBe(303);
    expect(cookie).toBeDefined();
    expect(response.headers.location).toBe(location);
    expect(response.body).not.toMatch(INTERNAL_CODE);
  });

  it('falls back to the default landing page for a returnTo with no UTF-8 form (a lone surrogate)', async () => {
    // A form body cannot carry a lone surrogate (it arrives as U+FFFD), so the step is checked on its own.
    expect(afterSignInLocation('/registry/\uD800')).toBe(DEFAULT_AFTER_SIGN_IN);
    expect(afterSignInLocation(undefined)).toBe(DEFAULT_AFTER_SIGN_IN);
    const { response } = await signIn(server.app, EMAIL, { returnTo: '/registry/\uD800' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/registry/${encodeURIComponent('\uFFFD')}`);
  });

  it('still refuses an off-site returnTo with characters above U+00FF', async () => {
    for (const returnTo of ['//evil.test/€', 'https://evil.test/中文', '/\\evil.test/€']) {
      const { response } = await signIn(server.app, EMAIL, { returnTo });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(DEFAULT_AFTER_SIGN_IN);
    }
  });

  it('POST login carries the same returnTo to the sign-in page', async () => {
    const response = await server.anonymous.post(`${PATHS.login}?returnTo=${encodeURIComponent('/registry/中文')}`);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${PATHS.signIn}?returnTo=${encodeURIComponent('/registry/中文')}`);
  });
});

describe('a URL with bad percent-encoding', () => {
  it.each(['/service-dart/secure/api/v1/users/me?x=%E0%A4%A', '/service-dart/secure/api/v1/loans/%E0%A4%A', '/registry/%ZZ/x'])(
    'answers %s with 400 in the server.app shape and the security headers',
    async (url) => {
      const response = await server.anonymous.get(url);
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/json');
      const body = errorBodySchema.strict().parse(response.json());
      expect(body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
      expect(response.body).not.toMatch(INTERNAL_CODE);
      expect(response.body).not.toContain('FST_');
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBeDefined();
    },
  );

  it('leaves a well-encoded URL alone', async () => {
    const response = await server.anonymous.get(`/service-dart/secure/api/v1/users/me?x=${encodeURIComponent('€')}`);
    expect(response.statusCode).toBe(401);
    expect(errorBodySchema.parse(response.json()).statusCode).toBe(401);
  });
});

describe('a request the HTTP parser refuses', () => {
  let listening: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    // Over a real socket: the HTTP parser refuses these before any inject could reach the app.
    ({ app: listening } = await server.otherApp());
    await listening.listen({ port: 0, host: '127.0.0.1' });
    port = (listening.server.address() as AddressInfo).port;
  });

  function rawGet(
    headers: Record<string, string>,
    path: string = PATHS.figureInfo,
  ): Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const request = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body }));
        response.on('error', reject);
      });
      request.on('error', reject);
    });
  }

  it('answers a 20 KB header with 431 in the app shape, without an internal code', async () => {
    const response = await rawGet({ 'x-padding': 'a'.repeat(20 * 1024) });
    expect(response.statusCode).toBe(431);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(errorBodySchema.strict().parse(JSON.parse(response.body))).toEqual({
      statusCode: 431,
      error: 'Request Header Fields Too Large',
      message: expect.any(String),
    });
    expect(response.body).not.toMatch(INTERNAL_CODE);
  });

  it("takes the web app's chosen-ids CSV request (CSV_IDS_PER_REQUEST ids in the query); three times as many are 431", async () => {
    const ids = (count: number) =>
      Array.from({ length: count }, (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`).join(',');
    const csvPath = (count: number) =>
      `${PATHS.loans}?${new URLSearchParams({ participantRoles: 'OWNER,SERVICER,CONTROLLER,SUB_SERVICER,SECURED_PARTY', loanIds: ids(count) })}`;
    // A browser's other headers: a session cookie, a user agent, the organization.
    const browser = {
      accept: 'text/csv',
      cookie: `registry_session=${'s'.repeat(64)}`,
      'user-agent': 'u'.repeat(160),
      [PARTICIPANT_HEADER]: 'p'.repeat(36),
    };
    // Past the parser: the session check answers (no such session).
    expect((await rawGet(browser, csvPath(CSV_IDS_PER_REQUEST))).statusCode).toBe(401);
    expect((await rawGet(browser, csvPath(CSV_IDS_PER_REQUEST * 3))).statusCode).toBe(431);
  });

  it('still serves a request with ordinary headers', async () => {
    const response = await rawGet({ 'x-padding': 'a'.repeat(100) });
    expect(response.statusCode).toBe(401);
    expect(errorBodySchema.parse(JSON.parse(response.body)).statusCode).toBe(401);
  });
});

describe('a body of a type the call does not take', () => {
  let member: Caller;
  beforeAll(async () => {
    const participantId = (await server.db.select().from(participants))[0]?.id ?? '';
    member = await server.signIn(EMAIL, { participantId });
  });

  // A form body too: only the hosted sign-in, sign-out and password pages take one.
  it.each(['text/plain', 'application/xml', 'text/csv', 'application/x-www-form-urlencoded'])(
    'answers %s with 415 naming the type to send',
    async (contentType) => {
      const response = await member.patch(PATHS.messages, '{"uuids":[],"read":true}', { headers: { 'content-type': contentType } });
      expect(response.statusCode).toBe(415);
      const body = errorBodySchema.parse(response.json());
      expect(body.message).toBe(`${UNSUPPORTED_MEDIA_TYPE}: send the body as application/json`);
      expect(body.message).not.toMatch(INTERNAL_CODE);
    },
  );

  it('names the multipart form for the deactivation call', async () => {
    const response = await member.post(PATHS.loanDeactivate('00000000-0000-4000-8000-000000000000'), '<form/>', {
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.statusCode).toBe(415);
    expect(errorBodySchema.parse(response.json()).message).toBe(`${UNSUPPORTED_MEDIA_TYPE}: send the body as multipart/form-data`);
  });
});
