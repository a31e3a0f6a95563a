// Sign-in security factors (SPEC section 7): the list, the start of an enrolment or removal (a 303
// to the hosted factor page, whose round trip the app's externalStateNonce ties to the session,
// once), the hosted page itself (a recent proof of presence, a 6-digit code or a WebAuthn
// registration), the WebAuthn script of the hosted pages, and the development mailbox.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { generateRegistrationOptions, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import { PATHS } from '../../contract/paths';
import {
  addFactorQuerySchema,
  factorListSchema,
  factorPageFormSchema,
  factorPageQuerySchema,
  factorParamsSchema,
  removeFactorQuerySchema,
  type AuthenticationFactor,
} from '../../contract/security-factors';
import { USER_NOT_FOUND } from '../../domain/access';
import {
  CODE_TTL_MS,
  FACTOR_TEXTS,
  FACTOR_TYPE_LABELS,
  maskEmail,
  maskPhone,
  PRESENCE_WINDOW_MS,
  REQUIRE_AT_LEAST_ONE_OF,
  type FactorType,
} from '../../domain/security-factors';
import { tooManyAccountSignInAttempts } from '../../domain/texts';
import type { WebauthnSettings } from '../config';
import type { FactorRow, FlowRow } from '../db/security-factor-repository';
import { NotFoundError } from '../domain-errors';
import { FLOW_TOKEN_PATTERN, hashFlowToken, newFlowToken, newVerificationCode } from '../identity/codes';
import { PROFILE_URL, renderFactorPage, type FactorPageOptions, type FactorPageStep } from '../identity/factor-page';
import { renderMailboxPage } from '../identity/mailbox-page';
import { verifyPassword } from '../identity/passwords';
import { recordRequestEvent } from '../identity/security-events';
import { sessionTokenHashOf } from '../identity/sessions';
import { JOB_QUEUES } from '../jobs/job-queues';
import { requireIdentity } from '../plugins/session';
import type { EnqueueMail } from '../services/security-factors';
import { FORM_BODY_LIMIT, parseForm } from './identity';

export interface SecurityFactorRouteOptions {
  readonly cookieSecure: boolean;
  /** Hosted form posts per client address and minute. */
  readonly rateLimit: number;
  /** Password guesses per account (shared with the sign-in's throttle). */
  readonly accountLimit: number;
  /** Serve the development mailbox (never in production, only without SMTP_URL and SMS_WEBHOOK_URL). */
  readonly devMailbox: boolean;
  readonly webauthn: WebauthnSettings;
}

export { DEFAULT_WEBAUTHN_SETTINGS } from '../config';

/** A factor round trip lives this long; its code, CODE_TTL_MS. */
const FLOW_TTL_MS = 30 * 60 * 1000;
const MAILBOX_SIZE = 30;

/** The factor as the list shows it: addresses and numbers masked. */
export function factorView(factor: FactorRow): AuthenticationFactor {
  const type = factor.type as FactorType;
  const value = type === 'Email' ? maskEmail(factor.value) : type === 'Phone' ? maskPhone(factor.value) : factor.value;
  return { type, value, editable: factor.editable, required: factor.required, ids: [factor.id] };
}

export const profileReturn = (nonce: string | null): string =>
  nonce ? `${PROFILE_URL}?${new URLSearchParams({ externalStateNonce: nonce }).toString()}` : PROFILE_URL;

const sendPage = (reply: FastifyReply, status: number, options: FactorPageOptions) =>
  reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderFactorPage(options));

/** The WebAuthn script of the hosted pages: @simplewebauthn/browser's bundle and the page's few lines. */
async function webauthnScript(): Promise<string> {
  const require = createRequire(import.meta.url);
  // The package exports only its modules; its browser bundle sits beside them (its `unpkg` file).
  const main = require.resolve('@simplewebauthn/browser');
  const bundle = await readFile(path.join(path.dirname(main), '..', 'dist', 'bundle', 'index.umd.min.js'), 'utf8');
  return `${bundle}\n${WEBAUTHN_GLUE}`;
}

/** Runs the ceremony the page's options describe when its form is sent, then sends the form with the answer. */
const WEBAUTHN_GLUE = `;(function () {
  var form = document.getElementById('webauthn-form');
  var source = document.getElementById('webauthn-options');
  if (!form || !source) return;
  var field = document.getElementById('credential');
  form.addEventListener('submit', function (event) {
    if (field.value) return;
    event.preventDefault();
    var optionsJSON = JSON.parse(source.textContent);
    var ceremony = form.getAttribute('data-mode') === 'register'
      ? SimpleWebAuthnBrowser.startRegistration({ optionsJSON: optionsJSON })
      : SimpleWebAuthnBrowser.startAuthentication({ optionsJSON: optionsJSON });
    ceremony.then(function (answer) {
      field.value = JSON.stringify(answer);
      form.submit();
    }, function (error) {
      var alert = document.getElementById('webauthn-error') || document.createElement('p');
      alert.id = 'webauthn-error';
      alert.className = 'alert';
      alert.setAttribute('role', 'alert');
      alert.textContent = 'The authenticator did not answer: ' + (error && error.message ? error.message : 'try again.');
      form.parentNode.insertBefore(alert, form);
    });
  });
})();
`;

export async function securityFactorRoutes(app: FastifyInstance, options: SecurityFactorRouteOptions): Promise<void> {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, parseForm(body as string));
    },
  );
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const repository = app.repositories.securityFactors;
  const service = app.services.securityFactors;
  const throttle = app.repositories.signInThrottle;
  const enqueueMail: EnqueueMail = (tx, outboxId) => app.jobs.send(JOB_QUEUES.sendOutbox, { outboxId }, { tx });
  const sessionHash = (request: FastifyRequest) => sessionTokenHashOf(request, { secure: options.cookieSecure });

  /** SPEC section 8: the factor calls of an identity without a registry user answer 'User not found.'. */
  const requireUser = (request: FastifyRequest) => {
    const identity = requireIdentity(request);
    if (!request.sessionCaller?.user) throw new NotFoundError(USER_NOT_FOUND);
    return identity;
  };

  const presenceIsRecent = async (tokenHash: string) => {
    const verifiedAt = await repository.findSessionVerifiedAt(tokenHash);
    return verifiedAt !== undefined && Date.now() - verifiedAt.getTime() < PRESENCE_WINDOW_MS;
  };

  routes.get(
    PATHS.factors,
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['identity'],
        summary: "The signed-in identity's authentication factors (values masked) and requireAtLeastOneOf",
        response: { 200: factorListSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const identity = requireUser(request);
      const factors = await repository.listFactors(identity.id);
      return {
        factors: factors.map(factorView),
        requireAtLeastOneOf: [...REQUIRE_AT_LEAST_ONE_OF],
        passwordManageable: identity.manageable,
      };
    },
  );

  routes.post(
    PATHS.factors,
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['identity'],
        summary: 'Start adding a factor: redirects to the hosted factor page, which returns to /registry/profile with the nonce',
        description: 'Answers 303 See Other to the hosted page; 409 when the nonce was used before.',
        querystring: addFactorQuerySchema,
      },
    },
    async (request, reply) => {
      const identity = requireUser(request);
      const sessionTokenHash = sessionHash(request) as string;
      const token = newFlowToken();
      await service.startFactorFlow({
        identityId: identity.id,
        sessionTokenHash,
        tokenHash: hashFlowToken(token),
        nonce: request.query.externalStateNonce,
        kind: 'enrol',
        factorType: request.query.type,
        expiresAt: new Date(Date.now() + FLOW_TTL_MS),
        requireAtLeastOneOf: REQUIRE_AT_LEAST_ONE_OF,
      });
      return reply
        .code(303)
        .header('location', `${PATHS.factorPage}?${new URLSearchParams({ flow: token }).toString()}`)
        .send();
    },
  );

  routes.delete(
    PATHS.factorPattern,
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['identity'],
        summary: 'Remove a factor (SPEC section 6): removed at once after a recent proof of presence, else confirmed on the hosted page',
        description:
          'Answers 303 See Other to /registry/profile?externalStateNonce=... once removed, or to the hosted page to confirm with ' +
          "the password; 404 for an unknown factor or 'User not found.'; 409 for a factor that may not be removed or a nonce used before.",
        params: factorParamsSchema,
        querystring: removeFactorQuerySchema,
      },
    },
    async (request, reply) => {
      const identity = requireUser(request);
      const sessionTokenHash = sessionHash(request) as string;
      const nonce = request.query.externalStateNonce;
      const token = newFlowToken();
      if (await presenceIsRecent(sessionTokenHash)) {
        const removed = await service.removeFactor({
          identity,
          factorId: request.params.id,
          requireAtLeastOneOf: REQUIRE_AT_LEAST_ONE_OF,
          enqueueMail,
          nonce: { value: nonce, sessionTokenHash, tokenHash: hashFlowToken(token) },
        });
        await recordRequestEvent(request, 'factor.removed', { detail: { type: removed.type, factorId: removed.id } });
        return reply.code(303).header('location', profileReturn(nonce)).send();
      }
      await service.startFactorFlow({
        identityId: identity.id,
        sessionTokenHash,
        tokenHash: hashFlowToken(token),
        nonce,
        kind: 'remove',
        factorId: request.params.id,
        expiresAt: new Date(Date.now() + FLOW_TTL_MS),
        requireAtLeastOneOf: REQUIRE_AT_LEAST_ONE_OF,
      });
      return reply
        .code(303)
        .header('location', `${PATHS.factorPage}?${new URLSearchParams({ flow: token }).toString()}`)
        .send();
    },
  );

  /** The live flow of this session named by the page's token, or undefined. */
  const flowOf = async (request: FastifyRequest, token: string | undefined): Promise<FlowRow | undefined> => {
    const session = sessionHash(request);
    if (!token || !session || !FLOW_TOKEN_PATTERN.test(token)) return undefined;
    const flow = await repository.findLiveFlow(hashFlowToken(token), ['enrol', 'remove']);
    return flow && flow.sessionTokenHash === session && flow.identityId === request.identity?.id ? flow : undefined;
  };

  const webauthnStep = async (flow: FlowRow, identity: { id: string; email: string; name: string }): Promise<FactorPageStep> => {
    const type = flow.factorType as 'Biometric' | 'SecurityKey';
    const userHandle = await repository.ensureWebauthnUserId(identity.id, newFlowToken());
    const existing = (await repository.listFactors(identity.id)).filter((factor) => factor.credentialId !== null);
    const registration = await generateRegistrationOptions({
      rpName: options.webauthn.rpName,
      rpID: options.webauthn.rpId,
      userName: identity.email,
      userDisplayName: identity.name,
      // The user handle is random: no personal data goes to the authenticator as the handle.
      userID: new TextEncoder().encode(userHandle),
      attestationType: 'none',
      excludeCredentials: existing.map((factor) => ({ id: factor.credentialId as string, transports: factor.transports ?? undefined })),
      authenticatorSelection:
        type === 'Biometric'
          ? { authenticatorAttachment: 'platform', residentKey: 'required', userVerification: 'required' }
          : { authenticatorAttachment: 'cross-platform', residentKey: 'preferred', userVerification: 'preferred' },
    });
    await repository.updateFlow(flow.id, { challenge: registration.challenge });
    return { kind: 'webauthn', type, optionsJson: JSON.stringify(registration) };
  };

  /** The page of the flow's present step. */
  const stepOf = async (flow: FlowRow, identity: { id: string; email: string; name: string }): Promise<FactorPageStep> => {
    const type = flow.factorType as FactorType;
    if (flow.kind === 'remove') {
      const factor = (await repository.listFactors(identity.id)).find((candidate) => candidate.id === flow.factorId);
      return factor ? { kind: 'remove', type, value: factorView(factor).value } : { kind: 'gone' };
    }
    if (type === 'Biometric' || type === 'SecurityKey') return webauthnStep(flow, identity);
    if (flow.codeHash !== null && flow.destination !== null) {
      return { kind: 'code', type, sentTo: type === 'Email' ? maskEmail(flow.destination) : maskPhone(flow.destination) };
    }
    return { kind: 'destination', type };
  };

  const toSignIn = (request: FastifyRequest, reply: FastifyReply, token: string | undefined) => {
    const returnTo = token ? `${PATHS.factorPage}?${new URLSearchParams({ flow: token }).toString()}` : PATHS.factorPage;
    void request;
    return reply
      .code(303)
      .header('location', `${PATHS.signIn}?${new URLSearchParams({ returnTo }).toString()}`)
      .send();
  };

  routes.get(
    PATHS.factorPage,
    {
      config: { access: 'session-if-any' },
      schema: { tags: ['identity'], summary: 'The hosted factor page', querystring: factorPageQuerySchema, produces: ['text/html'] },
    },
    async (request, reply) => {
      const identity = request.identity;
      if (!identity) return toSignIn(request, reply, request.query.flow);
      const flow = await flowOf(request, request.query.flow);
      if (!flow) return sendPage(reply, 404, { step: { kind: 'gone' }, error: FACTOR_TEXTS.flowExpired });
      const askPassword = !(await presenceIsRecent(flow.sessionTokenHash as string));
      return sendPage(reply, 200, { flow: request.query.flow, step: await stepOf(flow, identity), askPassword });
    },
  );

  routes.post(
    PATHS.factorPage,
    {
      config: { access: 'session-if-any', rateLimit: { max: options.rateLimit, timeWindow: '1 minute' } },
      attachValidation: true,
      schema: {
        tags: ['identity'],
        summary: "The hosted factor page's form: send a code, verify it, register an authenticator or remove a factor",
        description: 'Answers the page again (HTML), or 303 See Other to /registry/profile?externalStateNonce=... when done.',
        consumes: ['application/x-www-form-urlencoded'],
        body: factorPageFormSchema,
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const raw = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const token = typeof raw.flow === 'string' ? raw.flow : undefined;
      const identity = request.identity;
      if (!identity) return toSignIn(request, reply, token);
      const flow = await flowOf(request, token);
      if (!flow) return sendPage(reply, 404, { step: { kind: 'gone' }, error: FACTOR_TEXTS.flowExpired });
      const page = async (status: number, extra: Partial<FactorPageOptions> & { step?: FactorPageStep }) =>
        sendPage(reply, status, {
          flow: token,
          askPassword: !(await presenceIsRecent(flow.sessionTokenHash as string)),
          step: extra.step ?? (await stepOf(flow, identity)),
          ...extra,
        });
      const parsed = factorPageFormSchema.safeParse(raw);
      if (!parsed.success) return page(400, { error: parsed.error.issues[0]?.message ?? 'The form is not valid' });
      const form = parsed.data;
      const sessionTokenHash = flow.sessionTokenHash as string;

      // Adding or removing a factor needs a recent proof of presence: the password, counted
      // against the account like sign-in guesses.
      if (form.action !== 'verify' && form.action !== 'resend' && !(await presenceIsRecent(sessionTokenHash))) {
        const count = await throttle.countSignInAttempt(identity.email);
        if (count.attempts > options.accountLimit) {
          await recordRequestEvent(request, 'presence.refused', { detail: { reason: 'throttled' } });
          reply.header('retry-after', String(count.retryAfterSeconds));
          return page(429, { error: tooManyAccountSignInAttempts(count.retryAfterSeconds) });
        }
        if (!form.password || !(await verifyPassword(form.password, identity.passwordHash))) {
          await recordRequestEvent(request, 'presence.refused', { detail: { reason: 'bad-password' } });
          return page(400, { error: FACTOR_TEXTS.wrongPassword });
        }
        await throttle.clearSignInAttempts(identity.email);
        await repository.markSessionPresence(sessionTokenHash);
        await recordRequestEvent(request, 'presence.confirmed');
      }
      const done = () => reply.code(303).header('location', profileReturn(flow.nonce)).header('cache-control', 'no-store').send();
      const type = flow.factorType as FactorType;

      if (flow.kind === 'remove') {
        if (form.action !== 'remove' || !flow.factorId) return page(400, { error: 'Choose Remove to remove the factor' });
        const removed = await service.removeFactor({
          identity,
          factorId: flow.factorId,
          requireAtLeastOneOf: REQUIRE_AT_LEAST_ONE_OF,
          enqueueMail,
          flowId: flow.id,
        });
        await recordRequestEvent(request, 'factor.removed', { detail: { type: removed.type, factorId: removed.id } });
        return done();
      }

      if (type === 'Biometric' || type === 'SecurityKey') {
        if (form.action !== 'webauthn' || !form.credential || !flow.challenge) return page(400, { error: 'Use your authenticator first' });
        let verification;
        try {
          verification = await verifyRegistrationResponse({
            response: JSON.parse(form.credential),
            expectedChallenge: flow.challenge,
            expectedOrigin: [...options.webauthn.origins],
            expectedRPID: options.webauthn.rpId,
            requireUserVerification: type === 'Biometric',
          });
        } catch (error) {
          request.log.info({ err: error }, 'webauthn registration refused');
          verification = { verified: false as const };
        }
        if (!verification.verified) return page(400, { error: 'The authenticator could not be registered. Try again.' });
        if (!(await repository.useFlow(flow.id))) return sendPage(reply, 404, { step: { kind: 'gone' }, error: FACTOR_TEXTS.flowExpired });
        const { credential } = verification.registrationInfo;
        const enrolled = await service.enrolFactor({
          identity,
          type,
          value: `${FACTOR_TYPE_LABELS[type]} added ${new Date().toISOString().slice(0, 10)}`,
          enqueueMail,
          webauthn: {
            credentialId: credential.id,
            publicKey: Buffer.from(credential.publicKey),
            signCount: credential.counter,
            transports: credential.transports ?? [],
          },
        });
        await recordRequestEvent(request, 'factor.enrolled', { detail: { type, factorId: enrolled.factor.id } });
        if (enrolled.recoveryCodes) {
          return sendPage(reply, 200, {
            step: { kind: 'recovery-codes', codes: enrolled.recoveryCodes, continueTo: profileReturn(flow.nonce) },
          });
        }
        return done();
      }

      // Email and Phone: a 6-digit code to the address or number given.
      if (form.action === 'send' || form.action === 'resend') {
        let destination: string;
        if (form.action === 'resend') {
          if (!flow.destination) return page(400, { error: 'Enter where to send the code first' });
          destination = flow.destination;
        } else {
          const typed = (form.destination ?? '').trim();
          const normalized = type === 'Email' ? normalizeEmail(typed) : normalizePhone(typed);
          if (!normalized) {
            return page(400, {
              step: { kind: 'destination', type: type as 'Email' | 'Phone', value: typed },
              error: type === 'Email' ? FACTOR_TEXTS.invalidEmail : FACTOR_TEXTS.invalidPhone,
            });
          }
          destination = normalized;
        }
        const sent = await service.sendFlowCode({
          flowId: flow.id,
          channel: type === 'Phone' ? 'sms' : 'email',
          destination,
          code: newVerificationCode(),
          expiresAt: new Date(Date.now() + CODE_TTL_MS),
          enqueueMail,
        });
        if (!sent) return sendPage(reply, 404, { step: { kind: 'gone' }, error: FACTOR_TEXTS.flowExpired });
        await recordRequestEvent(request, 'factor.code-sent', { detail: { type, purpose: 'enrol' } });
        const sentTo = type === 'Email' ? maskEmail(destination) : maskPhone(destination);
        return page(200, { step: { kind: 'code', type, sentTo }, notice: form.action === 'resend' ? 'A new code was sent.' : undefined });
      }
      if (form.action !== 'verify') return page(400, { error: 'Send a code first' });
      const checked = await service.checkFlowCode({ flowId: flow.id, code: form.code ?? '' });
      if (checked.outcome !== 'ok') {
        const error =
          checked.outcome === 'expired'
            ? FACTOR_TEXTS.codeExpired
            : checked.outcome === 'too-many'
              ? FACTOR_TEXTS.tooManyCodeAttempts
              : checked.outcome === 'gone'
                ? FACTOR_TEXTS.flowExpired
                : checked.outcome === 'no-code'
                  ? 'Send a code first'
                  : FACTOR_TEXTS.wrongCode;
        if (checked.outcome === 'wrong' || checked.outcome === 'too-many' || checked.outcome === 'expired') {
          await recordRequestEvent(request, 'factor.code-failed', { detail: { type, reason: checked.outcome, purpose: 'enrol' } });
        }
        return page(checked.outcome === 'gone' ? 404 : 400, { error });
      }
      const enrolled = await service.enrolFactor({ identity, type, value: checked.flow.destination as string, enqueueMail });
      await recordRequestEvent(request, 'factor.enrolled', { detail: { type, factorId: enrolled.factor.id } });
      if (enrolled.recoveryCodes) {
        return sendPage(reply, 200, {
          step: { kind: 'recovery-codes', codes: enrolled.recoveryCodes, continueTo: profileReturn(flow.nonce) },
        });
      }
      return done();
    },
  );

  let script: Promise<string> | undefined;
  routes.get(
    PATHS.webauthnScript,
    {
      config: { access: 'public' },
      schema: { tags: ['identity'], summary: "The hosted pages' WebAuthn script", produces: ['text/javascript'] },
    },
    async (_request, reply) => {
      script ??= webauthnScript();
      return reply
        .type('text/javascript; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(await script);
    },
  );

  if (options.devMailbox) {
    routes.get(
      PATHS.devMailbox,
      {
        config: { access: 'public' },
        schema: {
          tags: ['identity'],
          summary: "Development only: the outbox's latest messages (never in production, nor with SMTP_URL or SMS_WEBHOOK_URL)",
          produces: ['text/html'],
        },
      },
      async (_request, reply) => {
        const rows = await repository.listLatestOutbox(MAILBOX_SIZE);
        return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderMailboxPage(rows));
      },
    );
  }
}

const emailSchema = z.email();

export function normalizeEmail(typed: string): string | undefined {
  const email = typed.trim().toLowerCase();
  return email.length <= 320 && emailSchema.safeParse(email).success ? email : undefined;
}

/** A phone number in E.164, read as a US number unless it starts with +. */
export function normalizePhone(typed: string): string | undefined {
  const parsed = parsePhoneNumberFromString(typed, 'US');
  return parsed?.isValid() ? parsed.number : undefined;
}
