// The identity broker: hosted sign-in page, session cookie, identity info, logout.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { figureInfoSchema, loginQuerySchema, signInFormSchema } from '../../contract/identity';
import { PATHS } from '../../contract/paths';
import { TEXTS } from '../../domain/texts';
import { burnPasswordCheck, verifyPassword } from '../identity/passwords';
import {
  clearSessionCookie,
  hashSessionToken,
  newSessionToken,
  safeReturnTo,
  SESSION_TTL_MS,
  sessionTokenHashOf,
  setSessionCookie,
} from '../identity/sessions';
import { renderSignInPage } from '../identity/sign-in-page';
import { requireIdentity } from '../plugins/session';

export interface IdentityRouteOptions {
  readonly cookieSecure: boolean;
  /** Sign-in attempts per client address and minute. */
  readonly signInRateLimit: number;
}

export const DEFAULT_AFTER_SIGN_IN = '/registry/dashboard';
const AFTER_SIGN_OUT = '/registry/login';
const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts. Wait a minute, then try again.';

/**
 * Where a successful sign-in goes: the (same-origin, safeReturnTo) returnTo with what a Location
 * header cannot carry (spaces, anything outside ASCII) percent-encoded; escapes already there are
 * kept. A returnTo with no UTF-8 form (a lone surrogate) goes to the default page.
 */
export function afterSignInLocation(returnTo: string | undefined): string {
  if (returnTo === undefined) return DEFAULT_AFTER_SIGN_IN;
  try {
    return returnTo.replace(/[^\x21-\x7e]+/gu, (run) => encodeURIComponent(run));
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
}

function bodyReturnTo(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>).returnTo : undefined;
}

export async function identityRoutes(app: FastifyInstance, options: IdentityRouteOptions): Promise<void> {
  const { cookieSecure } = options;
  const identities = app.repositories.identities;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The sign-in form answers in HTML, also when it is rate limited; everything else goes to the app's handler.
  app.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    if (error.statusCode === 429 && request.routeOptions.url === PATHS.signIn && request.method === 'POST') {
      return reply
        .code(429)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderSignInPage({ error: TOO_MANY_ATTEMPTS }));
    }
    throw error;
  });

  routes.get(
    PATHS.figureInfo,
    {
      schema: {
        tags: ['identity'],
        summary: 'The signed-in identity with its roles by service',
        response: { 200: figureInfoSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const identity = requireIdentity(request);
      return { identityUuid: identity.id, email: identity.email, name: identity.name, roles: identity.roles };
    },
  );

  routes.post(
    PATHS.login,
    {
      schema: {
        tags: ['identity'],
        summary: 'Start a sign-in: redirects to the hosted sign-in page',
        description: 'Answers 303 See Other to the sign-in page.',
        querystring: loginQuerySchema,
      },
    },
    async (request, reply) => {
      const returnTo = safeReturnTo(request.query.returnTo ?? bodyReturnTo(request.body));
      const target = returnTo ? `${PATHS.signIn}?${new URLSearchParams({ returnTo }).toString()}` : PATHS.signIn;
      return reply.code(303).header('location', target).send();
    },
  );

  routes.get(
    PATHS.signIn,
    {
      schema: {
        tags: ['identity'],
        summary: 'The hosted sign-in page',
        querystring: loginQuerySchema,
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderSignInPage({ returnTo: safeReturnTo(request.query.returnTo) }));
    },
  );

  routes.post(
    PATHS.signIn,
    {
      config: { rateLimit: { max: options.signInRateLimit, timeWindow: '1 minute' } },
      // The form is re-rendered with the problem instead of answering JSON.
      attachValidation: true,
      schema: {
        tags: ['identity'],
        summary: 'Sign in with email and password; sets the session cookie and redirects to returnTo',
        consumes: ['application/x-www-form-urlencoded'],
        body: signInFormSchema,
        description: 'Answers 303 See Other on success, else the page again (HTML) with 400, 401 or 429.',
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const raw = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const returnTo = safeReturnTo(raw.returnTo);
      const email = typeof raw.email === 'string' ? raw.email.trim().slice(0, 320) : '';
      const page = (statusCode: number, error: string) =>
        reply
          .code(statusCode)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(renderSignInPage({ returnTo, email, error }));

      if (request.validationError) {
        const parsed = signInFormSchema.safeParse(raw);
        return page(400, parsed.success ? TEXTS.invalidCredentials : (parsed.error.issues[0]?.message ?? TEXTS.invalidCredentials));
      }
      const identity = await identities.findIdentityByEmail(request.body.email);
      const valid = identity
        ? await verifyPassword(request.body.password, identity.passwordHash)
        : (await burnPasswordCheck(request.body.password), false);
      if (!identity || !valid) return page(401, TEXTS.invalidCredentials);

      // A new session every sign-in (no fixation); the one the browser had before is ended.
      const previous = sessionTokenHashOf(request);
      if (previous) await identities.deleteSession(previous);
      await identities.deleteExpiredSessions();
      const token = newSessionToken();
      const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
      await identities.createSession({ tokenHash: hashSessionToken(token), identityId: identity.id, expiresAt });
      setSessionCookie(reply, token, { secure: cookieSecure, expiresAt });
      request.log.info({ identityId: identity.id }, 'signed in');
      return reply.code(303).header('location', afterSignInLocation(returnTo)).header('cache-control', 'no-store').send();
    },
  );

  routes.post(
    PATHS.logout,
    {
      // Signing out twice is not an error: without a session it still clears the cookie.
      config: { auth: 'optional' },
      schema: {
        tags: ['identity'],
        summary: 'End the session and redirect to the login screen',
        description: 'Answers 303 See Other to /registry/login.',
      },
    },
    async (request, reply) => {
      const tokenHash = sessionTokenHashOf(request);
      if (tokenHash) await identities.deleteSession(tokenHash);
      clearSessionCookie(reply, { secure: cookieSecure });
      return reply.code(303).header('location', AFTER_SIGN_OUT).header('cache-control', 'no-store').send();
    },
  );
}
