// The built app as the browser gets it: precompressed files by Accept-Encoding, a year of
// caching for hashed assets only, index.html (revalidated) for every screen of the app,
// including the screens that live under /registry/assets/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationLinks } from '../../src/domain/roles';
import { TEXTS } from '../../src/domain/texts';
import errorHandlerPlugin from '../../src/server/plugins/error-handler';
import staticAppPlugin, { IMMUTABLE, REVALIDATE } from '../../src/server/plugins/static-app';
import { RouteMethods } from '../../src/server/route-methods';
import { callerOf, type Caller } from './support/route-test';

const INDEX_HTML = `<!doctype html><html lang="en"><head><title>Registry SPA</title></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const APP_JS = `export const app = ${JSON.stringify('registry '.repeat(400))};\n`;
const SMALL_JS = 'export const small = 1;\n';

let staticDir: string;
let app: FastifyInstance;
// The plugin alone on a bare Fastify (no database): its visitor is the entry's anonymous caller of that app.
let browser: Caller;

function write(relative: string, contents: string, { precompressed }: { precompressed: boolean }) {
  const file = path.join(staticDir, relative);
  fs.writeFileSync(file, contents);
  if (precompressed) {
    fs.writeFileSync(`${file}.br`, brotliCompressSync(contents));
    fs.writeFileSync(`${file}.gz`, gzipSync(contents));
  }
}

async function buildStaticApp(dir: string): Promise<FastifyInstance> {
  const server = Fastify({ logger: false });
  const routeMethods = new RouteMethods();
  server.addHook('onRoute', (route) => routeMethods.add(route.method, route.url));
  await server.register(errorHandlerPlugin);
  await server.register(staticAppPlugin, { staticDir: dir, routeMethods });
  await server.ready();
  return server;
}

beforeAll(async () => {
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-static-'));
  fs.mkdirSync(path.join(staticDir, 'assets'));
  write('index.html', INDEX_HTML, { precompressed: true });
  write('assets/app-1234abcd.js', APP_JS, { precompressed: true });
  write('assets/small-5678ef.js', SMALL_JS, { precompressed: false });
  write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', { precompressed: false });
  write('assets/app-1234abcd.js.map', '{"version":3,"sources":["src/web/main.tsx"]}', { precompressed: true });
  app = await buildStaticApp(staticDir);
  browser = callerOf(app, undefined, undefined);
});

afterAll(async () => {
  await app?.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  browser.get(url, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

describe('encoding negotiation', () => {
  it('sends the brotli file when the browser accepts br, with the type of the original', async () => {
    const response = await get('/registry/assets/app-1234abcd.js', 'gzip, deflate, br, zstd');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(APP_JS);
  });

  it('sends the gzip file to a browser that accepts only gzip, or prefers it', async () => {
    for (const accept of ['gzip', 'br;q=0.1, gzip;q=1']) {
      const response = await get('/registry/assets/app-1234abcd.js', accept);
      expect(response.headers['content-encoding'], accept).toBe('gzip');
      expect(gunzipSync(response.rawPayload).toString()).toBe(APP_JS);
    }
  });

  it('sends the plain file without Accept-Encoding, or when no encoding is acceptable', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0']) {
      const response = await get('/registry/assets/app-1234abcd.js', accept);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(response.body).toBe(APP_JS);
    }
  });

  it('falls back to the plain file when no compressed sibling was built (small files)', async () => {
    const response = await get('/registry/assets/small-5678ef.js', 'br, gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body).toBe(SMALL_JS);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
  });

  it('sends the page itself compressed too', async () => {
    const response = await get('/registry/dashboard', 'br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(INDEX_HTML);
  });
});

describe('cache headers', () => {
  it('caches hashed assets for a year, in every encoding', async () => {
    for (const accept of ['br', 'gzip', undefined]) {
      const response = await get('/registry/assets/app-1234abcd.js', accept);
      expect(response.headers['cache-control'], String(accept)).toBe(IMMUTABLE);
    }
    expect(IMMUTABLE).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates the page and files outside assets/ on every load', async () => {
    for (const url of ['/registry/', '/registry/dashboard', '/registry/assets/assets']) {
      const response = await get(url, 'br, gzip');
      expect(response.headers['cache-control'], url).toBe(REVALIDATE);
    }
    const favicon = await get('/registry/favicon.svg');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['cache-control']).toBe(REVALIDATE);
    expect(REVALIDATE).toBe('no-cache');
  });

  it('never gives the year-long cache to a missing asset', async () => {
    const response = await get('/registry/assets/missing-0000.js', 'br, gzip');
    expect(response.statusCode).toBe(404);
    expect(response.headers['cache-control']).not.toBe(IMMUTABLE);
    expect(response.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });
});

describe('single-page app fallback', () => {
  // /registry/assets/ is both Vite's asset folder and the app's Assets area.
  const screens = [
    '/registry/assets',
    '/registry/assets/assets',
    '/registry/assets/assets?page=3&limit=20&query=smith',
    '/registry/assets/pools',
    '/registry/assets/pool-assets/4f1c2a9e-0000-4000-8000-000000000001',
    '/registry/assets/asset/123/details',
    '/registry/assets/asset/123/details/history',
    '/registry/dashboard',
  ];

  it.each(screens)('answers %s with index.html, revalidated, never immutable', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe(INDEX_HTML);
    expect(response.headers['cache-control']).toBe(REVALIDATE);
  });

  it('answers HEAD for a screen like GET, without a body', async () => {
    const response = await browser.head('/registry/assets/assets');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe(REVALIDATE);
    expect(response.body).toBe('');
  });

  it('refuses what is neither a file nor a screen with the JSON 404', async () => {
    for (const url of ['/registry/assets/nothing.css', '/elsewhere', '/registry/favicon.ico']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ statusCode: 404 });
    }
    // A screen is there to be read: another method is a 405 that names the ones it takes.
    const post = await browser.post('/registry/assets/assets');
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  // What a browser sends when the user follows a link or types an address.
  const NAVIGATION_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const navigate = (url: string) => browser.get(url, { headers: { accept: NAVIGATION_ACCEPT } });

  it('shows a page, never JSON, to a browser that opens an unknown address outside the API', async () => {
    const applications = applicationLinks({ 'lead-portal': ['USER'], csp: ['USER'] }).map((link) => link.href);
    expect(applications).toHaveLength(4);
    for (const url of [
      ...applications,
      '/elsewhere',
      '/identity-broker/agent/nothing',
      '/registry/favicon.ico',
      '/registry/assets/nothing.css',
    ]) {
      const response = await navigate(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.body, url).toContain(`<h1>${TEXTS.pageNotFound}</h1>`);
      expect(response.body, url).toContain('href="/registry/dashboard"');
    }
  });

  it('writes the address into that page as text', async () => {
    const response = await navigate('/nothing/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('<script>');
    expect(response.body).toContain('&#60;script&#62;');
  });

  it('keeps the JSON 404 under the API, for a browser too', async () => {
    for (const url of [
      '/service-dart/secure/api/v9/nothing',
      '/service-dart/figure/secure/api/v9/nothing',
      '/identity-broker/agent/api/v3/nothing',
      '/identity-broker/agent/secure/api/v3/nothing',
      '/address-lookup/api/v1/nothing',
      '/banners/nothing.json',
    ]) {
      const response = await navigate(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ statusCode: 404, error: 'Not Found' });
    }
  });

  it('does not serve files outside the build', async () => {
    for (const url of [
      '/registry/..%2F..%2Fetc%2Fpasswd',
      '/registry/assets/..%2F..%2F..%2Fetc%2Fhosts.js',
      '/registry/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const response = await get(url);
      expect(response.body, url).not.toMatch(/root:|localhost/);
      // At most the page (a screen path), never a file from elsewhere.
      if (response.statusCode === 200) expect(response.body, url).toBe(INDEX_HTML);
    }
  });
});

describe('without a build', () => {
  it('shows a notice (503, not cached) instead of the app', async () => {
    const bare = await buildStaticApp(path.join(staticDir, 'not-built'));
    try {
      const response = await callerOf(bare, undefined, undefined).get('/registry/assets/assets');
      expect(response.statusCode).toBe(503);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body).toMatch(/not built/);
    } finally {
      await bare.close();
    }
  });

  it('refuses to start without the error handler it depends on', async () => {
    const server = Fastify({ logger: false });
    await expect(server.register(staticAppPlugin, { staticDir, routeMethods: new RouteMethods() }).ready()).rejects.toThrow(
      /error-handler/,
    );
    await server.close();
  });
});

describe('source maps', () => {
  it('never serves a source map, in any encoding, though the build wrote one', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const response = await get('/registry/assets/app-1234abcd.js.map', encoding);
      expect(response.statusCode, encoding).toBe(404);
      expect(response.body).not.toContain('sources');
    }
    const script = await get('/registry/assets/app-1234abcd.js');
    expect(script.statusCode).toBe(200);
  });
});
