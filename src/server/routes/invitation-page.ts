// The hosted invitation page (PATHS.invitationPage): GET ?token=... shows the form of a pending
// invitation (or why it cannot be used: 404 unknown, 410 expired, used or revoked); POST sets the
// password (a new identity) or checks the existing identity's one, accepts the invitation once
// (services/organization-users.ts acceptInvitation, race-safe), starts a session as the sign-in
// does (a new cookie, the browser's previous session ended) and answers 303 to the dashboard,
// where the invited organization is the user's default one. Rate limited like the sign-in; a
// state-changing form, so the same-origin check (plugins/security.ts) applies to its POST.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  invitationFormSchema,
  invitationPageQuerySchema,
  invitationTokenSchema,
  newPasswordFormSchema,
} from '../../contract/organization-users';
import { PATHS } from '../../contract/paths';
import { TEXTS, tooManyAccountSignInAttempts } from '../../domain/texts';
import { USER_TEXTS } from '../../domain/administration-texts';
import { asDomainError, NoLongerHeldError, NotFoundError } from '../domain-errors';
import { renderInvitationPage, renderInvitationProblemPage, type InvitationPageOptions } from '../identity/invitation-page';
import { DEFAULT_SCRYPT_PARAMS, hashPassword, type ScryptParams, verifyPassword } from '../identity/passwords';
import { recordRequestEvent } from '../identity/security-events';
import { hashSessionToken, newSessionToken, SESSION_TTL_MS, sessionTokenHashOf, setSessionCookie } from '../identity/sessions';
import { hashInvitationToken, invitationRefusal, invitationState } from '../services/organization-users';
import { DEFAULT_AFTER_SIGN_IN, FORM_BODY_LIMIT, parseForm } from './identity';

export interface InvitationPageRouteOptions {
  readonly cookieSecure: boolean;
  /** Form posts per client address and minute (the sign-in's limit). */
  readonly rateLimit: number;
  /** Password guesses per account within the sign-in window (an existing identity's password). */
  readonly accountLimit: number;
  readonly maxSessionsPerIdentity: number;
  readonly passwordHashParams?: ScryptParams;
}

// The app's Referrer-Policy (strict-origin-when-cross-origin) keeps the token's URL on this origin;
// 'no-referrer' would make the browser send `Origin: null` with the form, which the same-origin check refuses.
const html = (reply: FastifyReply, status: number, page: string) =>
  reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')

    .send(page);

export async function invitationPageRoutes(app: FastifyInstance, options: InvitationPageRouteOptions): Promise<void> {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_request, body, done) => {
      done(null, parseForm(body as string));
    },
  );
  const repository = app.repositories.organizationUsers;
  const hashParams = options.passwordHashParams ?? DEFAULT_SCRYPT_PARAMS;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // Rate limited or too large: the page's own message, in HTML.
  const FORM_ERRORS: Readonly<Record<number, string>> = { 413: TEXTS.formTooLarge, 429: TEXTS.tooManySignInAttempts };
  app.setErrorHandler((error: { statusCode?: number }, request, reply) => {
    const message = FORM_ERRORS[error.statusCode ?? 500];
    if (message === undefined || request.method !== 'POST') throw error;
    return html(reply, error.statusCode ?? 500, renderInvitationProblemPage(message));
  });

  /** A token's pending invitation with what the page shows, or the page of its refusal. */
  async function pending(token: string | undefined) {
    const parsed = invitationTokenSchema.safeParse(token);
    const found = parsed.success ? await repository.findInvitationByTokenHash(hashInvitationToken(parsed.data)) : undefined;
    const refusal =
      invitationRefusal(found ? invitationState(found.invitation) : 'unknown') ??
      // Accepted through another invitation of the same person, or the organization deactivated since.
      (found?.user.identityId ? new NoLongerHeldError(USER_TEXTS.invitationUsed) : undefined) ??
      (found && !found.participant.isActive ? new NoLongerHeldError(USER_TEXTS.invitationRevoked) : undefined);
    if (refusal || !found || !parsed.success)
      return { refusal: refusal ?? new NotFoundError(USER_TEXTS.invitationNotFound), found: undefined };
    const identity = await repository.findIdentityByEmail(found.user.email);
    const page: Omit<InvitationPageOptions, 'error' | 'errorField'> = {
      mode: identity ? 'existing' : 'new',
      token: parsed.data,
      email: found.user.email,
      organizationName: found.participant.name,
    };
    return { found, identity, page };
  }

  const refusalPage = (reply: FastifyReply, refusal: Error) =>
    html(reply, refusal instanceof NotFoundError ? 404 : 410, renderInvitationProblemPage(refusal.message));

  routes.get(
    PATHS.invitationPage,
    {
      config: { access: 'public', rateLimit: { max: options.rateLimit * 6, timeWindow: '1 minute' } },
      schema: {
        tags: ['identity'],
        summary: 'The hosted invitation page: set a password for an invitation link',
        description: 'Answers the form (HTML) for a pending invitation; 404 for an unknown link, 410 for an expired, used or revoked one.',
        querystring: invitationPageQuerySchema,
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const result = await pending(request.query.token);
      if (!result.found) return refusalPage(reply, result.refusal);
      return html(reply, 200, renderInvitationPage(result.page));
    },
  );

  routes.post(
    PATHS.invitationPage,
    {
      config: { access: 'public', rateLimit: { max: options.rateLimit, timeWindow: '1 minute' } },
      attachValidation: true,
      schema: {
        tags: ['identity'],
        summary: 'Accepts an invitation: sets the password (or checks the existing one), signs in, redirects to the dashboard',
        consumes: ['application/x-www-form-urlencoded'],
        body: invitationFormSchema,
        description:
          'Answers 303 See Other to /registry/dashboard with the session cookie set; else the page again (HTML): 400 for a ' +
          'password the rules refuse, 401 for a wrong existing password, 404/410 for a link that cannot be used, 429 when limited.',
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const raw = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
      const result = await pending(typeof raw.token === 'string' ? raw.token : undefined);
      if (!result.found) return refusalPage(reply, result.refusal);
      const { found, identity, page } = result;
      const again = (status: number, error: string, errorField?: InvitationPageOptions['errorField']) =>
        html(reply, status, renderInvitationPage({ ...page, error, errorField }));

      let credential: { passwordHash: string } | { existingIdentityId: string };
      if (identity) {
        const password = typeof raw.password === 'string' ? raw.password : '';
        if (!password) return again(400, 'Password is required', 'password');
        // Guesses of an existing identity's password count like sign-in guesses.
        const count = await app.repositories.signInThrottle.countSignInAttempt(identity.email);
        if (count.attempts > options.accountLimit) {
          reply.header('retry-after', String(count.retryAfterSeconds));
          return again(429, tooManyAccountSignInAttempts(count.retryAfterSeconds));
        }
        if (!(await verifyPassword(password, identity.passwordHash))) {
          await recordRequestEvent(request, 'sign-in.failure', {
            identityId: identity.id,
            email: identity.email,
            detail: { reason: 'bad-password', invitation: true },
          });
          return again(401, USER_TEXTS.invitationWrongPassword, 'password');
        }
        await app.repositories.signInThrottle.clearSignInAttempts(identity.email);
        credential = { existingIdentityId: identity.id };
      } else {
        const form = newPasswordFormSchema.safeParse(raw);
        if (!form.success) {
          const issue = form.error.issues[0];
          const field = issue?.path[0];
          return again(400, issue?.message ?? 'The form is not valid', field === 'confirmPassword' ? 'confirmPassword' : 'newPassword');
        }
        credential = { passwordHash: await hashPassword(form.data.newPassword, hashParams) };
      }

      let accepted;
      try {
        accepted = await app.services.organizationUsers.acceptInvitation({
          tokenHash: hashInvitationToken(page.token),
          clientAddress: request.ip,
          credential,
        });
      } catch (error) {
        // Used or revoked between the page's check and the transaction (a second submit, a revoke).
        const refused = asDomainError(error);
        if (refused) return refusalPage(reply, refused instanceof NotFoundError ? refused : new NoLongerHeldError(refused.message));
        throw error;
      }

      // A new session as the sign-in starts one: the browser's previous session ends (no fixation).
      const previous = sessionTokenHashOf(request, { secure: options.cookieSecure });
      if (previous) await app.repositories.identities.deleteSession(previous);
      const token = newSessionToken();
      const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
      const started = await app.repositories.identities.startSession({
        tokenHash: hashSessionToken(token),
        identityId: accepted.identityId,
        expiresAt,
        verifiedPasswordHash: accepted.passwordHash,
        maxSessions: options.maxSessionsPerIdentity,
      });
      if (!started) {
        // The password changed in between (the existing identity's owner): sign in as usual.
        return reply.code(303).header('location', PATHS.signIn).header('cache-control', 'no-store').send();
      }
      await recordRequestEvent(request, 'sign-in.success', {
        identityId: accepted.identityId,
        email: accepted.email,
        detail: { invitation: found.invitation.id },
      });
      setSessionCookie(reply, token, { secure: options.cookieSecure, expiresAt });
      request.log.info({ identityId: accepted.identityId, participantId: accepted.participantId }, 'invitation accepted');
      return reply.code(303).header('location', DEFAULT_AFTER_SIGN_IN).header('cache-control', 'no-store').send();
    },
  );
}
