// The built web app under /registry/, with index.html for every client-side route, a page for a
// browser's unknown address outside the API, and the JSON 404 for everything else (405 with Allow
// for a method the path's routes do not take). Files are sent precompressed (the build writes .br
// and .gz beside them, see vite.config.ts) as the request's Accept-Encoding allows; hashed assets
// are cached for a year, the page is revalidated on every load. The statechart explorer
// (visualizations/, written by `npm run visualize`) is served as it is under /registry/statecharts/:
// static pages for everyone, no session, no data.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { IDENTITY_BASE } from '../../contract/paths';
import { BASE_PATH } from '../../domain/constants';
import { renderNotFoundPage } from '../not-found-page';
import { defaultAccess } from './access';
import type { RouteMethods } from '../route-methods';
import { errorBody } from './error-handler';

const APP_PREFIX = `${BASE_PATH}/`;
export const STATECHARTS_PREFIX = `${APP_PREFIX}statecharts/`;
/** The explorer's pages, committed in the repository. */
const STATECHARTS_DIR = fileURLToPath(new URL('../../../visualizations', import.meta.url));

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Loan Registry</title></head>
<body><main><h1>The web app is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it) and reload.</p></main></body></html>
`;

/** A path whose last segment has an extension asks for a file, never for a screen. */
const looksLikeFile = (pathname: string): boolean => /\.[A-Za-z0-9]+$/.test(pathname.split('/').pop() ?? '');

/**
 * The API's paths (SPEC section 7's services): an unknown one is the JSON 404 whoever asks, as
 * programs read it. Every other unknown address is a page to a browser.
 */
const API_PREFIXES = [`${IDENTITY_BASE}/api/`, `${IDENTITY_BASE}/secure/api/`, '/service-dart/', '/address-lookup/', '/banners/'];

/** A browser opening an address (following a link, typing it) asks for HTML; fetch and API clients do not. */
const wantsPage = (accept: string | undefined): boolean => accept !== undefined && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);

/** The path as the visitor typed it, for the page to show (escaped there); the raw one if it does not decode. */
function readablePath(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** Vite's content-hashed output: safe to cache forever, a new build gets new names. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page itself names the current hashes: revalidate it on every load. */
export const REVALIDATE = 'no-cache';

export interface StaticAppOptions {
  /** The Vite build output (index.html, assets/). */
  readonly staticDir: string;
  /** Every route of the server: a method none of a path's routes takes is a 405 with Allow. */
  readonly routeMethods: RouteMethods;
  /** The statechart explorer's pages (default: the repository's visualizations/). */
  readonly statechartsDir?: string;
}

async function staticAppPlugin(app: FastifyInstance, options: StaticAppOptions): Promise<void> {
  const indexFile = path.join(options.staticDir, 'index.html');
  const built = fs.existsSync(indexFile);

  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) => reply.redirect(APP_PREFIX, 302));
  app.get(BASE_PATH, { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) => reply.redirect(APP_PREFIX, 302));

  // The explorer's pages are everyone's, built or not: they hold no data.
  defaultAccess(app, 'public', STATECHARTS_PREFIX);
  await app.register(fastifyStatic, {
    root: options.statechartsDir ?? STATECHARTS_DIR,
    prefix: STATECHARTS_PREFIX,
    decorateReply: false,
    index: ['index.html'],
    redirect: false,
    schemaHide: true,
    setHeaders: (reply) => reply.header('cache-control', REVALIDATE),
  });
  // Without the slash the pages' relative links would leave the folder.
  app.get(STATECHARTS_PREFIX.slice(0, -1), { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) =>
    reply.redirect(STATECHARTS_PREFIX, 301),
  );

  if (built) {
    // The built app's files are everyone's.
    defaultAccess(app, 'public', APP_PREFIX);
    await app.register(fastifyStatic, {
      root: options.staticDir,
      prefix: APP_PREFIX,
      index: false,
      redirect: false,
      schemaHide: true,
      // index.html.br, app-1234.js.gz... chosen by Accept-Encoding (br first), else the plain file.
      preCompressed: true,
      // Source maps stay on disk for error tooling (the build writes them hidden: no bundle
      // names them); the server never hands them out.
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      // Runs for real files only: screens under /registry/assets/ (an app route too) fall through
      // to the not-found handler below and get index.html with REVALIDATE.
      setHeaders: (reply, filePath) => {
        const relative = path.relative(options.staticDir, filePath).split(path.sep).join('/');
        reply.header('cache-control', relative.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
      },
    });
  } else {
    app.log.warn({ staticDir: options.staticDir }, 'web app not built: /registry/ shows a notice');
  }

  const sendApp = (reply: FastifyReply) =>
    built
      ? reply
          .header('cache-control', REVALIDATE)
          .type('text/html; charset=utf-8')
          .sendFile('index.html', options.staticDir, { cacheControl: false })
      : reply.code(503).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);

  // The bare prefix is a directory to @fastify/static (403 without an index): it is the app.
  app.get(APP_PREFIX, { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) => sendApp(reply));

  // @fastify/static answers files; screens of the single-page app and the bare prefix get index.html.
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const isAppScreen = pathname.startsWith(APP_PREFIX) && !pathname.startsWith(STATECHARTS_PREFIX) && !looksLikeFile(pathname);
    if ((request.method === 'GET' || request.method === 'HEAD') && isAppScreen) {
      return sendApp(reply);
    }
    const allowed = options.routeMethods.allowed(pathname);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send(errorBody(405, `Method ${request.method} is not allowed on ${pathname}: use ${allowed.join(', ')}`));
    }
    if (wantsPage(request.headers.accept) && !API_PREFIXES.some((prefix) => pathname.startsWith(prefix))) {
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(renderNotFoundPage(readablePath(pathname)));
    }
    return reply.code(404).send(errorBody(404, `Route ${request.method} ${pathname} not found`));
  });
}

// Registered last: it owns the server's not-found handler (the app's screens, the not-found page, else the JSON 404).
export default fp(staticAppPlugin, { name: 'static-app', fastify: '5.x', dependencies: ['error-handler'] });
