import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorBodySchema } from '../../src/contract/common';
import { PATHS } from '../../src/contract/paths';
import { useRouteTest } from './support/route-test';
import { parseConfig } from '../../src/server/config';
import { securityHeaders } from '../../src/server/plugins/security';

let staticDir: string;

const server = useRouteTest(() => {
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-dist-'));
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(
    path.join(staticDir, 'index.html'),
    '<!doctype html><html lang="en"><title>Registry SPA</title><div id="root"></div></html>',
  );
  fs.writeFileSync(path.join(staticDir, 'assets', 'app-1234.js'), 'console.log("app")');
  return {
    app: { config: { nodeEnv: 'test', cookieSecure: false, trustProxy: false, logLevel: 'silent', staticDir } },
    // Routes that fail on purpose, to see what the error handler makes of it.
    beforeReady: (app) => {
      app.get('/test/boom', { config: { access: 'public' } }, async () => {
        throw new Error('secret connection string postgres://user:pw@db/registry');
      });
      app.withTypeProvider<ZodTypeProvider>().post(
        '/test/validate',
        {
          config: { access: 'public' },
          schema: {
            body: z.object({ email: z.email(), count: z.number().int().max(10) }),
            response: { 200: z.object({ ok: z.boolean() }) },
          },
        },
        async () => ({ ok: true }),
      );
      app.withTypeProvider<ZodTypeProvider>().get(
        '/test/bad-response',
        {
          config: { access: 'public' },
          schema: { response: { 200: z.object({ ok: z.boolean() }) } },
        },
        async () => ({ ok: 'internal detail' }) as unknown as { ok: boolean },
      );
    },
  };
});

afterAll(() => {
  if (staticDir) fs.rmSync(staticDir, { recursive: true, force: true });
});

describe('health', () => {
  it('answers ok after a database round trip', async () => {
    const response = await server.anonymous.get(PATHS.health);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('errors', () => {
  it('answers 400 naming each invalid field', async () => {
    const response = await server.anonymous.post('/test/validate', { email: 'nope', count: 11 });
    expect(response.statusCode).toBe(400);
    const body = errorBodySchema.parse(response.json());
    expect(body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(body.message).toMatch(/body\.email: Invalid email/);
    expect(body.message).toMatch(/body\.count: /);
  });

  it('answers 400 for malformed JSON, also on identity routes', async () => {
    const response = await server.anonymous.post(PATHS.signIn, '{"email":', { headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(400);
    expect(errorBodySchema.parse(response.json()).statusCode).toBe(400);
  });

  it('answers 415 for an unsupported content type', async () => {
    const response = await server.anonymous.post('/test/validate', '<a/>', { headers: { 'content-type': 'application/xml' } });
    expect(response.statusCode).toBe(415);
    expect(errorBodySchema.parse(response.json()).statusCode).toBe(415);
  });

  it('answers 500 without leaking the cause', async () => {
    for (const url of ['/test/boom', '/test/bad-response']) {
      const response = await server.anonymous.get(url);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' });
      expect(response.body).not.toMatch(/postgres|internal detail|stack/);
    }
  });

  it('answers a JSON 404 for unknown API routes', async () => {
    const response = await server.anonymous.get('/service-dart/secure/api/v9/nothing');
    expect(response.statusCode).toBe(404);
    expect(errorBodySchema.parse(response.json())).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('answers 405 with Allow for a method a route does not take, with the usual headers', async () => {
    const loanId = '5f0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f';
    for (const [method, url, allow] of [
      ['DELETE', PATHS.usersMe, 'GET, HEAD'],
      ['PUT', `${PATHS.loans}?limit=10`, 'GET, HEAD'],
      ['POST', PATHS.loanDetails(loanId), 'GET, HEAD'],
      ['GET', PATHS.logout, 'POST'],
    ] as const) {
      // Same-origin (the caller's Origin), so that the CSRF check (before routing) lets the state-changing methods through.
      const response = await server.anonymous.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(405);
      expect(response.headers.allow, `${method} ${url}`).toBe(allow);
      expect(errorBodySchema.parse(response.json())).toMatchObject({ statusCode: 405, error: 'Method Not Allowed' });
      expect(response.json().message).toContain(allow);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    }
    // A path no route has stays a 404 whatever the method.
    expect((await server.anonymous.delete('/service-dart/secure/api/v9/nothing')).statusCode).toBe(404);
  });
});

describe('security headers', () => {
  it('sends a same-origin CSP and the usual hardening headers', async () => {
    const response = await server.anonymous.get('/registry/dashboard');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['permissions-policy']).toContain('camera=()');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends them on API answers too', async () => {
    const response = await server.anonymous.get(PATHS.figureInfo);
    expect(response.headers['content-security-policy']).toBeDefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps every answer of a secure route out of caches (no-store), the 401 of a missing session included', async () => {
    for (const url of [PATHS.figureInfo, PATHS.usersMe, PATHS.messages]) {
      const response = await server.anonymous.get(url);
      expect(response.statusCode, url).toBe(401);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const page = await server.anonymous.get('/registry/dashboard');
    expect(page.headers['cache-control']).not.toBe('no-store');
  });
});

describe('web app', () => {
  it('redirects / and /registry to /registry/', async () => {
    for (const url of ['/', '/registry']) {
      const response = await server.anonymous.get(url);
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/registry/');
    }
  });

  it('serves index.html for the app root and every client-side route', async () => {
    for (const url of ['/registry/', '/registry/dashboard', '/registry/assets/asset/123/details?tab=history', '/registry/login']) {
      const response = await server.anonymous.get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('Registry SPA');
    }
  });

  it('serves built assets with long caching, and 404 for missing files', async () => {
    const asset = await server.anonymous.get('/registry/assets/app-1234.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toContain('immutable');
    const missing = await server.anonymous.get('/registry/assets/missing-1234.js');
    expect(missing.statusCode).toBe(404);
  });

  it('does not serve files outside the build', async () => {
    const response = await server.anonymous.get('/registry/..%2F..%2Fetc%2Fpasswd');
    expect(response.body).not.toContain('root:');
  });

  it('shows a notice when the app is not built', async () => {
    const bare = await server.otherApp();
    const response = await bare.anonymous.get('/registry/dashboard');
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build');
  });
});

describe('OpenAPI', () => {
  it('documents the routes from the contract schemas', async () => {
    const response = await server.anonymous.get('/registry/api-docs/json');
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining([PATHS.figureInfo, PATHS.usersMe, PATHS.signIn, PATHS.health]));
    expect(document.paths[PATHS.usersMe].get.responses['200']).toBeDefined();
    const html = await server.anonymous.get('/registry/api-docs');
    expect(html.statusCode).toBe(200);
  });
});

describe('an external address provider (ADDRESS_LOOKUP_URL)', () => {
  it("is read from the environment, and its origin joins the CSP's connect-src", async () => {
    const config = parseConfig({ ADDRESS_LOOKUP_URL: 'https://addresses.example/v1/addresses?key=1' });
    expect(config.addressLookupUrl).toBe('https://addresses.example/v1/addresses?key=1');
    expect(() => parseConfig({ ADDRESS_LOOKUP_URL: 'ftp://addresses.example/' })).toThrow(/ADDRESS_LOOKUP_URL/);
    const csp = (options: Parameters<typeof securityHeaders>[0]) => {
      const headers = new Map<string, string>();
      const response = {
        setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), String(value)),
        removeHeader: (name: string) => headers.delete(name.toLowerCase()),
      };
      securityHeaders(options)({} as never, response as never, () => undefined);
      return headers.get('content-security-policy') ?? '';
    };
    expect(csp({ production: false, connectOrigins: ['https://addresses.example'] })).toContain(
      "connect-src 'self' https://addresses.example",
    );
    expect(csp({ production: false })).toContain("connect-src 'self';");
  });
});
