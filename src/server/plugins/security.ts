// Security headers, rate limiting and a same-origin check for state-changing requests.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { badRequest, forbidden } from '../http-errors';
import { BAD_URL_ENCODING, hasValidQueryEncoding, type SecurityHeadersMiddleware } from './error-handler';

export const CROSS_ORIGIN_REFUSED = 'Cross-origin request refused';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SecurityOptions {
  /** HSTS and upgrade-insecure-requests only in production (plain HTTP on a laptop otherwise). */
  readonly production: boolean;
  /** Origins the app may call besides its own (an external address provider). */
  readonly connectOrigins?: readonly string[];
}

/**
 * helmet's middleware, built once and run on every request. @fastify/helmet rebuilt it (parsing the
 * CSP directives again) on every request: decision 0005. app.ts also runs it for the errors Fastify
 * answers before any hook (plugins/error-handler.ts).
 */
/** Browser features the registry never uses, refused to every page and frame (helmet sets no Permissions-Policy). */
export const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=(), interest-cohort=()';

export function securityHeaders(options: SecurityOptions): SecurityHeadersMiddleware {
  const setHelmetHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        // The Vite build emits external module scripts only; Tailwind and libraries set inline styles.
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(options.connectOrigins ?? [])],
        // pdf.js runs a worker and may show documents from blob: URLs.
        workerSrc: ["'self'", 'blob:'],
        frameSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        baseUri: ["'self'"],
        // Over plain HTTP on a laptop, upgrading would break every subresource.
        upgradeInsecureRequests: options.production ? [] : null,
      },
    },
    strictTransportSecurity: options.production ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // The same rule as the CSP's frame-ancestors 'none', for browsers that read only this header.
    xFrameOptions: { action: 'deny' },
  });
  return (request, response, next) => {
    response.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    setHelmetHeaders(request, response, next);
  };
}

async function securityPlugin(app: FastifyInstance, options: SecurityOptions): Promise<void> {
  const setSecurityHeaders = securityHeaders(options);
  // One synchronous hook on every request (the bench counts each call's fixed cost). The router
  // refuses a badly encoded path (frameworkErrors in app.ts); a badly encoded query string it
  // passes on undecoded, so it is refused here, after the headers are set.
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(request.raw, reply.raw, (error?: unknown) => {
      if (error instanceof Error) done(error);
      else if (!hasValidQueryEncoding(request.url)) done(badRequest(BAD_URL_ENCODING));
      else done();
    });
  });

  // Limits are opted into per route (`config.rateLimit`), starting with the sign-in form.
  await app.register(rateLimit, { global: false });

  // SameSite=Lax already keeps the cookie off cross-site POSTs; this also refuses cross-site
  // form posts that need no cookie (login CSRF) and any browser-sent foreign Origin.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!isSameOrigin(request)) throw forbidden(CROSS_ORIGIN_REFUSED);
  });

  // A request refused before its body was read (this check, a missing session, an unsupported
  // type) would otherwise keep its connection open while the rest of the body trickles in, past
  // the request and connection timeouts (slow loris): the answer closes the connection.
  app.addHook('onError', (request, reply, _error, done) => {
    if (!request.raw.complete) reply.header('connection', 'close');
    done();
  });
}

/** The `scheme://host[:port]` of a URL (default ports dropped), or undefined when it has none ('null', garbage). */
function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether a state-changing request comes from this server's own pages: its Origin (else its
 * Referer's origin) must be the server's origin, scheme, host and port alike. The server's
 * origin is request.protocol and request.host, both from X-Forwarded-* only under trustProxy.
 * Browsers send Origin on every non-GET fetch and form post; a request with neither header,
 * or with `Origin: null` (sandboxed frames, privacy redirects), is refused.
 */
export function isSameOrigin(request: FastifyRequest): boolean {
  const { origin, referer } = request.headers;
  const claimed = origin !== undefined ? originOf(origin) : referer !== undefined ? originOf(referer) : undefined;
  if (claimed === undefined) return false;
  return claimed === originOf(`${request.protocol}://${request.host}`);
}

export default fp(securityPlugin, { name: 'security', fastify: '5.x' });
