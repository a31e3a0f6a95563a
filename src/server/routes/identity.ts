// The identity broker: hosted sign-in page, session cookie, identity info, logout, and the hosted
// password page: a password change ends every session of the identity.
import { createHash } from 'node:crypto';
import { parse as parseQueryString } from 'node:querystring';
import { generateAuthenticationOptions, verifyAuthenticationResponse } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { figureInfoSchema, loginQuerySchema, passwordChangeFormSchema, signInFormSchema } from '../../contract/identity';
import { PATHS } from '../../contract/paths';
import { TEXTS, tooManyAccountSignInAttempts } from '../../domain/texts';
import { forbidden } from '../http-errors';
import { renderPasswordPage, type PasswordPageOptions } from '../identity/password-page';
import {
  burnPasswordCheck,
  DEFAULT_SCRYPT_PARAMS,
  hashPassword,
  needsRehash,
  type ScryptParams,
  verifyPassword,
} from '../identity/passwords';
import { recordRequestEvent, recordSecurityEvents, requestEvent } from '../identity/security-events';
import { purgeExpiredSessions } from '../identity/session-purge';
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
import { DEFAULT_WEBAUTHN_SETTINGS, type WebauthnSettings } from '../config';
import type { IdentityRow } from '../db/identity-repository';
import { secondStepFormSchema } from '../../contract/security-factors';
import { CODE_TTL_MS, FACTOR_TEXTS, maskEmail, maskPhone, type FactorType } from '../../domain/security-factors';
import { hashFlowToken, hashRecoveryCode, newFlowToken, newVerificationCode } from '../identity/codes';
import { renderSecondStepPage, type SecondStepOptions } from '../identity/second-step-page';
import { JOB_QUEUES } from '../jobs/job-queues';
import { requireIdentity } from '../plugins/session';

export interface IdentityRouteOptions {
  readonly cookieSecure: boolean;
  /** Sign-in attempts per client address and minute. */
  readonly signInRateLimit: number;
  /** A session unused this long is dead; expired ones are purged at every sign-in. */
  readonly idleTimeoutMs: number;
  /** Live sessions per identity: a sign-in beyond them ends the oldest. */
  readonly maxSessionsPerIdentity: number;
  /** Password guesses per account within SIGN_IN_ACCOUNT_WINDOW_MS, from any address. */
  readonly signInAccountLimit: number;
  /** The cost of new hashes; a stored hash below it is rehashed at sign-in. */
  readonly passwordHashParams?: ScryptParams;
  /** The WebAuthn relying party of the second step and passkey sign-in. */
  readonly webauthn?: WebauthnSettings;
}

/** The second step of a sign-in must be passed within this. */
export const SECOND_STEP_TTL_MS = 10 * 60 * 1000;

/** What a second step keeps of the password hash it follows: a changed password ends the step. */
export const passwordFingerprint = (passwordHash: string): string => createHash('sha256').update(passwordHash).digest('hex');

export const DEFAULT_AFTER_SIGN_IN = '/registry/dashboard';
const AFTER_SIGN_OUT = '/registry/login';
export const NOT_MANAGEABLE = 'The password of this account is managed elsewhere and cannot be changed here';
const WRONG_CURRENT_PASSWORD = 'The current password is not correct';
const PASSWORD_CHANGED_MEANWHILE = 'The password was changed meanwhile. Sign in again.';
const SECOND_STEP_EXPIRED = 'Your sign-in has expired. Sign in again.';

/** Where the second step's code went, masked, when one was sent. */
const sentTo = (flow: { codeHash: string | null; destination: string | null }): string | undefined =>
  flow.codeHash && flow.destination
    ? flow.destination.includes('@')
      ? maskEmail(flow.destination)
      : maskPhone(flow.destination)
    : undefined;

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

export const FORM_BODY_LIMIT = 16 * 1024;

/** `application/x-www-form-urlencoded` as a flat object of strings (the first of repeated keys). */
export function parseForm(body: string): Record<string, string> {
  const parsed = parseQueryString(body);
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') form[key] = first;
  }
  return form;
}

export async function identityRoutes(app: FastifyInstance, options: IdentityRouteOptions): Promise<void> {
  // Only the hosted pages' forms (sign-in, sign-out, password) post form bodies: the parser lives in
  // this plugin's scope, and a form body sent to any other call is a 415 that names the type to send.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, parseForm(body as string));
    },
  );
  const { cookieSecure } = options;
  const hashParams = options.passwordHashParams ?? DEFAULT_SCRYPT_PARAMS;
  const identities = app.repositories.identities;
  const throttle = app.repositories.signInThrottle;
  const factors = app.repositories.securityFactors;
  const webauthn = options.webauthn ?? DEFAULT_WEBAUTHN_SETTINGS;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  /** The second step's page: a code to each enrolled address or phone, the enrolled authenticators, a recovery code. */
  async function secondStepOptions(token: string, identityId: string, extra: Partial<SecondStepOptions> = {}): Promise<SecondStepOptions> {
    const enrolled = await factors.listEnrolledFactors(identityId);
    const codeFactors = enrolled
      .filter((factor) => factor.type === 'Email' || factor.type === 'Phone')
      .map((factor) => ({
        id: factor.id,
        type: factor.type as FactorType,
        value: factor.type === 'Email' ? maskEmail(factor.value) : maskPhone(factor.value),
      }));
    const keys = enrolled.filter((factor) => factor.credentialId !== null);
    let webauthnOptionsJson: string | undefined;
    if (keys.length > 0) {
      const authentication = await generateAuthenticationOptions({
        rpID: webauthn.rpId,
        allowCredentials: keys.map((factor) => ({ id: factor.credentialId as string, transports: factor.transports ?? undefined })),
        userVerification: 'preferred',
      });
      const flow = await factors.findLiveFlow(hashFlowToken(token), ['second-step']);
      if (flow) await factors.updateFlow(flow.id, { challenge: authentication.challenge });
      webauthnOptionsJson = JSON.stringify(authentication);
    }
    return { flow: token, codeFactors, webauthnOptionsJson, ...extra };
  }

  // The hosted forms answer in HTML, also when rate limited (429) or sent too large (413: the form
  // parser's limit); everything else goes to the app's handler.
  const FORM_ERRORS: Readonly<Record<number, string>> = { 413: TEXTS.formTooLarge, 429: TEXTS.tooManySignInAttempts };
  app.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    const status = error.statusCode ?? 500;
    const message = FORM_ERRORS[status];
    if (message === undefined || request.method !== 'POST') throw error;
    const page =
      request.routeOptions.url === PATHS.signIn
        ? renderSignInPage({ error: message })
        : request.routeOptions.url === PATHS.passwordPage
          ? renderPasswordPage({ email: request.identity?.email ?? '', error: message })
          : undefined;
    if (page === undefined) throw error;
    return reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
  });

  /**
   * A new session for an identity that proved itself (the password, and the second step where it
   * has one): the cookie, its security events, and 303 to returnTo. `password` rehashes a weak hash;
   * without it (after a second step) the password hash checked must still be the identity's.
   */
  async function startSignedInSession(
    request: FastifyRequest,
    reply: FastifyReply,
    identity: IdentityRow,
    signIn: { email: string; password?: string; returnTo: string | undefined; detail?: Record<string, unknown> },
  ) {
    const { email, password, returnTo } = signIn;
    const page = (statusCode: number, error: string) =>
      reply
        .code(statusCode)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(renderSignInPage({ returnTo, email, error }));
    // A new session every sign-in (no fixation); the one the browser had before is ended.
    const previous = sessionTokenHashOf(request, { secure: cookieSecure });
    if (previous) await identities.deleteSession(previous);
    await purgeExpiredSessions(app, request.log, options.idleTimeoutMs);
    // A hash below today's cost is replaced by one at today's cost, in the session's transaction.
    const rehashedPasswordHash =
      password !== undefined && needsRehash(identity.passwordHash, hashParams) ? await hashPassword(password, hashParams) : undefined;
    const token = newSessionToken();
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    const start = (verifiedPasswordHash: string, rehashed: string | undefined) =>
      identities.startSession({
        tokenHash: hashSessionToken(token),
        identityId: identity.id,
        expiresAt,
        verifiedPasswordHash,
        rehashedPasswordHash: rehashed,
        maxSessions: options.maxSessionsPerIdentity,
      });
    // The hash changed since the check: a concurrent sign-in's rehash (the same password, checked
    // again against the new hash) or a password change (then the old password fails here).
    const started =
      (await start(identity.passwordHash, rehashedPasswordHash)) ??
      (await identities
        .findIdentityByEmail(email)
        .then(async (fresh) =>
          fresh && fresh.id === identity.id && password !== undefined && (await verifyPassword(password, fresh.passwordHash))
            ? start(fresh.passwordHash, undefined)
            : undefined,
        ));
    if (!started) {
      // The password was changed between the check and now: the old one no longer signs in.
      await recordRequestEvent(request, 'sign-in.failure', { identityId: identity.id, email, detail: { reason: 'bad-password' } });
      return page(401, TEXTS.invalidCredentials);
    }
    await recordSecurityEvents(app, request.log, [
      requestEvent(request, 'sign-in.success', {
        identityId: identity.id,
        email,
        detail: { ...signIn.detail, ...(rehashedPasswordHash ? { rehashed: true } : {}) },
      }),
      ...started.evicted.map((ended) =>
        requestEvent(request, 'session.revoked', {
          identityId: ended.identityId,
          email,
          detail: { reason: 'session-cap', createdAt: ended.createdAt.toISOString() },
        }),
      ),
    ]);
    setSessionCookie(reply, token, { secure: cookieSecure, expiresAt });
    request.log.info({ identityId: identity.id }, 'signed in');
    return reply.code(303).header('location', afterSignInLocation(returnTo)).header('cache-control', 'no-store').send();
  }

  routes.get(
    PATHS.figureInfo,
    {
      config: { access: 'signed-in' },
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
      config: { access: 'public' },
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
      config: { access: 'public' },
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
      config: { access: 'public', rateLimit: { max: options.signInRateLimit, timeWindow: '1 minute' } },
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
      const { password } = request.body;
      // The account's throttle (defect 6), before anything else: a throttled account's password is
      // not checked at all, whichever address asks, and an unknown email is counted the same way.
      const count = await throttle.countSignInAttempt(email);
      if (count.attempts > options.signInAccountLimit) {
        await recordRequestEvent(request, 'sign-in.failure', { identityId: null, email, detail: { reason: 'throttled' } });
        reply.header('retry-after', String(count.retryAfterSeconds));
        return page(429, tooManyAccountSignInAttempts(count.retryAfterSeconds));
      }
      const identity = await identities.findIdentityByEmail(request.body.email);
      const valid = identity
        ? await verifyPassword(password, identity.passwordHash)
        : (await burnPasswordCheck(password, hashParams), false);
      if (!identity || !valid) {
        const reason = identity ? 'bad-password' : 'unknown-email';
        await recordRequestEvent(request, 'sign-in.failure', { identityId: identity?.id ?? null, email, detail: { reason } });
        return page(401, TEXTS.invalidCredentials);
      }
      await throttle.clearSignInAttempts(email);

      // An identity that enrolled a factor of its own is asked for it before any session exists.
      const enrolled = await factors.listEnrolledFactors(identity.id);
      if (enrolled.length > 0) {
        const token = newFlowToken();
        await factors.insertFlow({
          tokenHash: hashFlowToken(token),
          kind: 'second-step',
          identityId: identity.id,
          returnTo: returnTo ?? null,
          passwordFingerprint: passwordFingerprint(identity.passwordHash),
          expiresAt: new Date(Date.now() + SECOND_STEP_TTL_MS),
        });
        await recordRequestEvent(request, 'sign-in.second-step', { identityId: identity.id, email, detail: { stage: 'asked' } });
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(renderSecondStepPage(await secondStepOptions(token, identity.id)));
      }
      return startSignedInSession(request, reply, identity, { email, password, returnTo });
    },
  );

  routes.post(
    PATHS.signInVerify,
    {
      config: { access: 'public', rateLimit: { max: options.signInRateLimit, timeWindow: '1 minute' } },
      attachValidation: true,
      schema: {
        tags: ['identity'],
        summary: "The sign-in's second step: a code by email or phone, a security key or biometric, or a recovery code",
        consumes: ['application/x-www-form-urlencoded'],
        body: secondStepFormSchema,
        description:
          'Answers 303 See Other to returnTo with the session cookie once passed, else the page again (HTML) with 400, 404 or 429.',
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const raw = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const token = typeof raw.flow === 'string' ? raw.flow : '';
      const html = (statusCode: number, body: string) =>
        reply.code(statusCode).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
      const flow = token ? await factors.findLiveFlow(hashFlowToken(token), ['second-step']) : undefined;
      const identity = flow?.identityId ? await factors.findIdentityById(flow.identityId) : undefined;
      // A password changed since it was checked ends the step.
      if (!flow || !identity || passwordFingerprint(identity.passwordHash) !== flow.passwordFingerprint) {
        return html(404, renderSignInPage({ error: SECOND_STEP_EXPIRED }));
      }
      const email = identity.email;
      const again = async (statusCode: number, extra: Partial<SecondStepOptions>) =>
        html(statusCode, renderSecondStepPage(await secondStepOptions(token, identity.id, { codeSentTo: sentTo(flow), ...extra })));
      const parsed = secondStepFormSchema.safeParse(raw);
      if (!parsed.success) return again(400, { error: parsed.error.issues[0]?.message ?? 'The form is not valid' });
      const form = parsed.data;
      const enrolled = await factors.listEnrolledFactors(identity.id);

      if (form.action === 'send') {
        const factor = enrolled.find(
          (candidate) => candidate.id === form.factorId && (candidate.type === 'Email' || candidate.type === 'Phone'),
        );
        if (!factor) return again(400, { error: 'Choose where to send the code' });
        await app.services.securityFactors.sendFlowCode({
          flowId: flow.id,
          channel: factor.type === 'Phone' ? 'sms' : 'email',
          destination: factor.value,
          code: newVerificationCode(),
          expiresAt: new Date(Date.now() + CODE_TTL_MS),
          enqueueMail: (tx, outboxId) => app.jobs.send(JOB_QUEUES.sendOutbox, { outboxId }, { tx }),
        });
        await recordRequestEvent(request, 'factor.code-sent', {
          identityId: identity.id,
          email,
          detail: { type: factor.type, purpose: 'sign-in' },
        });
        const masked = factor.type === 'Email' ? maskEmail(factor.value) : maskPhone(factor.value);
        return again(200, { codeSentTo: masked, notice: `A code was sent to ${masked}.` });
      }

      // Every answer counts against the account like a password guess.
      const count = await throttle.countSignInAttempt(email);
      if (count.attempts > options.signInAccountLimit) {
        await recordRequestEvent(request, 'sign-in.failure', {
          identityId: identity.id,
          email,
          detail: { reason: 'throttled', step: 'second' },
        });
        reply.header('retry-after', String(count.retryAfterSeconds));
        return again(429, { error: tooManyAccountSignInAttempts(count.retryAfterSeconds) });
      }
      let passed: string | null;
      if (form.action === 'verify') {
        const checked = await app.services.securityFactors.checkFlowCode({ flowId: flow.id, code: form.code ?? '' });
        if (checked.outcome !== 'ok') {
          await recordRequestEvent(request, 'factor.code-failed', {
            identityId: identity.id,
            email,
            detail: { reason: checked.outcome, purpose: 'sign-in' },
          });
          const error =
            checked.outcome === 'expired'
              ? FACTOR_TEXTS.codeExpired
              : checked.outcome === 'too-many'
                ? FACTOR_TEXTS.tooManyCodeAttempts
                : checked.outcome === 'no-code'
                  ? 'Send a code first'
                  : FACTOR_TEXTS.wrongCode;
          return again(400, { error });
        }
        passed = 'code';
      } else if (form.action === 'recovery') {
        if (await factors.useRecoveryCode(identity.id, hashRecoveryCode(form.recoveryCode ?? ''))) {
          await recordRequestEvent(request, 'recovery-code.used', {
            identityId: identity.id,
            email,
            detail: { left: await factors.countRecoveryCodes(identity.id) },
          });
          passed = 'recovery-code';
        } else {
          await recordRequestEvent(request, 'sign-in.failure', { identityId: identity.id, email, detail: { reason: 'bad-recovery-code' } });
          return again(400, { error: 'The recovery code is not correct or was used before.' });
        }
      } else {
        passed = (await verifyAssertion(form.credential, flow.challenge, identity.id)) ? 'webauthn' : null;
        if (!passed) {
          await recordRequestEvent(request, 'sign-in.failure', { identityId: identity.id, email, detail: { reason: 'bad-webauthn' } });
          return again(400, { error: 'The security key or biometric was not accepted. Try again.' });
        }
      }
      // The step is used once, whichever way it was passed.
      // (A right code used it already.)
      if (passed !== 'code' && !(await factors.useFlow(flow.id))) return html(404, renderSignInPage({ error: SECOND_STEP_EXPIRED }));
      await throttle.clearSignInAttempts(email);
      return startSignedInSession(request, reply, identity, {
        email,
        returnTo: flow.returnTo ?? undefined,
        detail: { secondStep: passed },
      });
    },
  );

  /** A WebAuthn assertion by one of the identity's own authenticators, for this challenge; its counter is kept. */
  async function verifyAssertion(credential: string | undefined, challenge: string | null, identityId: string): Promise<boolean> {
    if (!credential || !challenge) return false;
    try {
      const response = JSON.parse(credential) as { id?: unknown };
      const factor = typeof response.id === 'string' ? await factors.findFactorByCredentialId(response.id) : undefined;
      if (!factor || factor.identityId !== identityId || !factor.publicKey) return false;
      const verification = await verifyAuthenticationResponse({
        response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: challenge,
        expectedOrigin: [...webauthn.origins],
        expectedRPID: webauthn.rpId,
        credential: {
          id: factor.credentialId as string,
          publicKey: new Uint8Array(factor.publicKey),
          counter: factor.signCount ?? 0,
          transports: (factor.transports ?? undefined) as never,
        },
        requireUserVerification: false,
      });
      if (!verification.verified) return false;
      await factors.updateSignCount(factor.id, verification.authenticationInfo.newCounter);
      return true;
    } catch {
      return false;
    }
  }

  routes.post(
    PATHS.logout,
    {
      // Signing out twice is not an error: without a session it still clears the cookie.
      config: { access: 'session-if-any' },
      schema: {
        tags: ['identity'],
        summary: 'End the session and redirect to the login screen',
        description: 'Answers 303 See Other to /registry/login.',
      },
    },
    async (request, reply) => {
      const tokenHash = sessionTokenHashOf(request, { secure: cookieSecure });
      if (tokenHash) await identities.deleteSession(tokenHash);
      if (request.identity) await recordRequestEvent(request, 'sign-out');
      clearSessionCookie(reply, { secure: cookieSecure });
      return reply.code(303).header('location', AFTER_SIGN_OUT).header('cache-control', 'no-store').send();
    },
  );

  routes.post(
    PATHS.passwordReset,
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['identity'],
        summary: 'Start a password change: redirects to the hosted password page',
        description: 'Answers 303 See Other to the password page; 403 when the account is managed elsewhere.',
      },
    },
    async (request, reply) => {
      // SPEC section 6: the password can be changed only if the account is manageable.
      if (!requireIdentity(request).manageable) throw forbidden(NOT_MANAGEABLE);
      return reply.code(303).header('location', PATHS.passwordPage).send();
    },
  );

  /** Signed out: the sign-in page, then back here. */
  const toSignIn = `${PATHS.signIn}?${new URLSearchParams({ returnTo: PATHS.passwordPage }).toString()}`;

  routes.get(
    PATHS.passwordPage,
    {
      config: { access: 'session-if-any' },
      schema: { tags: ['identity'], summary: 'The hosted password page', produces: ['text/html'] },
    },
    async (request, reply) => {
      const identity = request.identity;
      if (!identity) return reply.code(303).header('location', toSignIn).send();
      const page: PasswordPageOptions = identity.manageable
        ? { email: identity.email }
        : { email: identity.email, error: NOT_MANAGEABLE, formless: true };
      return reply
        .code(identity.manageable ? 200 : 403)
        .type('text/html; charset=utf-8')
        .send(renderPasswordPage(page));
    },
  );

  routes.post(
    PATHS.passwordPage,
    {
      config: { access: 'session-if-any', rateLimit: { max: options.signInRateLimit, timeWindow: '1 minute' } },
      // The form is re-rendered with the problem instead of answering JSON.
      attachValidation: true,
      schema: {
        tags: ['identity'],
        summary: 'Change the password: every session of the identity ends; redirects to the login screen',
        consumes: ['application/x-www-form-urlencoded'],
        body: passwordChangeFormSchema,
        description: 'Answers 303 See Other to /registry/login on success, else the page again (HTML) with 400, 403 or 429.',
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const identity = request.identity;
      if (!identity) return reply.code(303).header('location', toSignIn).send();
      const page = (statusCode: number, error: string, errorField?: PasswordPageOptions['errorField'], formless = false) =>
        reply
          .code(statusCode)
          .type('text/html; charset=utf-8')
          .send(renderPasswordPage({ email: identity.email, error, errorField, formless }));
      if (!identity.manageable) return page(403, NOT_MANAGEABLE, undefined, true);

      const parsed = passwordChangeFormSchema.safeParse(request.body ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path[0];
        const errorField = field === 'currentPassword' || field === 'newPassword' || field === 'confirmPassword' ? field : undefined;
        return page(400, issue?.message ?? 'The form is not valid', errorField);
      }
      const form = parsed.data;
      // Guesses of the current password count against the account like sign-in guesses.
      const count = await throttle.countSignInAttempt(identity.email);
      if (count.attempts > options.signInAccountLimit) {
        await recordRequestEvent(request, 'password.change-refused', { detail: { reason: 'throttled' } });
        reply.header('retry-after', String(count.retryAfterSeconds));
        return page(429, tooManyAccountSignInAttempts(count.retryAfterSeconds));
      }
      if (!(await verifyPassword(form.currentPassword, identity.passwordHash))) {
        await recordRequestEvent(request, 'password.change-refused', { detail: { reason: 'bad-password' } });
        return page(400, WRONG_CURRENT_PASSWORD, 'currentPassword');
      }
      await throttle.clearSignInAttempts(identity.email);
      const changed = await identities.changePassword({
        identityId: identity.id,
        verifiedPasswordHash: identity.passwordHash,
        newPasswordHash: await hashPassword(form.newPassword, hashParams),
      });
      if (!changed) {
        await recordRequestEvent(request, 'password.change-refused', { detail: { reason: 'changed-meanwhile' } });
        clearSessionCookie(reply, { secure: cookieSecure });
        return page(409, PASSWORD_CHANGED_MEANWHILE, undefined, true);
      }
      await recordSecurityEvents(app, request.log, [
        requestEvent(request, 'password.changed', { detail: { endedSessions: changed.ended.length } }),
        ...changed.ended.map((ended) =>
          requestEvent(request, 'session.revoked', {
            identityId: ended.identityId,
            detail: { reason: 'password-changed', createdAt: ended.createdAt.toISOString() },
          }),
        ),
      ]);
      request.log.info({ identityId: identity.id }, 'password changed');
      clearSessionCookie(reply, { secure: cookieSecure });
      return reply.code(303).header('location', AFTER_SIGN_OUT).send();
    },
  );
}
