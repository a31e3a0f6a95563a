// The users of an organization (SPEC sections 4, 5 and 7): GET v2 /users (the user directory),
// GET v2 /users/suggestions (the 'Add existing user' suggestions), GET and POST v2
// /participants/{participantId}/users, GET, PUT and DELETE v2 /participants/{participantId}/users/{userId},
// POST v2 /users/{userId}/participants, and POST (resend) and DELETE (revoke)
// .../users/{userId}/invitation. Registry staff manage every organization; an ORG_ADMIN its own
// (access 'org-admin-or-registry-staff', enforced by the access hook). Writes go through
// services/organization-users.ts: one transaction each, with its guards and audit row.
import { auditActorOf } from '../audit/audit-actor';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import {
  addedUserSchema,
  addUserToParticipantSchema,
  newOrganizationUserSchema,
  organizationUserSchema,
  organizationUsersPageSchema,
  organizationUsersQuerySchema,
  participantParamsSchema,
  participantUserParamsSchema,
  resentInvitationSchema,
  userRolesBodySchema,
  userSuggestionsQuerySchema,
  userSuggestionsSchema,
  usersPageSchema,
  usersQuerySchema,
} from '../../contract/organization-users';
import { PATHS } from '../../contract/paths';
import { userIdParamsSchema } from '../../contract/users';
import { USER_TEXTS } from '../../domain/administration-texts';
import { USER_SEARCH_MIN_LENGTH, USER_SUGGESTION_LIMIT } from '../../domain/organization-users';
import { JOB_QUEUES } from '../jobs/job-queues';
import { badRequest } from '../http-errors';
import { NotFoundError } from '../domain-errors';
import type { AdminActor, InvitationSettings } from '../services/organization-users';

export interface OrganizationUserRouteOptions {
  /** INVITATION_TTL_HOURS. */
  readonly invitationTtlHours: number;
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const writeErrors = { ...errors, 409: errorBodySchema };

/** What an ORG_ADMIN's search of the directory may ask: suggestions only (registry staff page through all). */
export const ORG_ADMIN_SEARCH = { minQueryLength: 3, maxResults: 10 } as const;

const ACCESS_NOTE =
  'Registry staff (ROLE_DART_ADMIN or ROLE_DART_OPS) for any organization; an ORG_ADMIN for its own organization only ' +
  '(403 for any other). A user who is not a member of the organization answers 404.';

export async function organizationUserRoutes(app: FastifyInstance, options: OrganizationUserRouteOptions): Promise<void> {
  const repository = app.repositories.organizationUsers;
  const service = app.services.organizationUsers;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  const actorOf = (request: FastifyRequest): AdminActor => ({
    ...auditActorOf(request),
    // An organization's own admin acts for it; registry staff for none.
    actingParticipantId: request.registryStaff
      ? null
      : ((request.params as { participantId?: string }).participantId?.toLowerCase() ?? null),
    registryStaff: request.registryStaff,
  });

  const invitationSettings = (request: FastifyRequest): InvitationSettings => ({
    ttlHours: options.invitationTtlHours,
    // The origin the admin reached this server on (X-Forwarded-* only under TRUST_PROXY): the
    // same origin the same-origin check of writes accepts, so the link opens this server.
    pageUrl: `${request.protocol}://${request.host}${PATHS.invitationPage}`,
    enqueueMail: (tx, outboxId) => app.jobs.send(JOB_QUEUES.sendOutbox, { outboxId }, { tx }),
  });

  const logLink = (request: FastifyRequest, userId: string, link: string, email?: string) =>
    // Without SMTP_URL nobody else delivers it: the log and the admin's screen are where the link is.
    request.log.info({ userId, email, invitationLink: link }, 'invitation link made');

  routes.get(
    PATHS.users,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: 'Registry users by name, searchable by name or email',
        description:
          'Registry staff: every user, paged, `query` matching any part of the first name, last name or email. ' +
          `An ORG_ADMIN of the acting organization (x-participant-id) may search too, to add an existing user to it: ` +
          `only with a query of at least ${ORG_ADMIN_SEARCH.minQueryLength} characters, the first ${ORG_ADMIN_SEARCH.maxResults} ` +
          'matches, and only names and email (roles are left empty). The directory never carries roles: they are per organization.',
        querystring: usersQuerySchema,
        response: { 200: usersPageSchema, ...errors },
      },
    },
    async (request) => {
      const { query, limit, offset } = request.query;
      if (request.registryStaff) return repository.searchUsers({ query, limit, offset });
      if ((query ?? '').length < ORG_ADMIN_SEARCH.minQueryLength)
        throw badRequest(`querystring.query: give at least ${ORG_ADMIN_SEARCH.minQueryLength} characters`);
      return repository.searchUsers({ query, limit: Math.min(limit, ORG_ADMIN_SEARCH.maxResults), offset: 0 });
    },
  );

  routes.get(
    PATHS.userSuggestions,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: "The 'Add existing user' suggestions: users whose name or email starts with the query",
        description:
          `Up to ${USER_SUGGESTION_LIMIT} users, by name, whose first name, last name or email starts with \`query\` (at least ` +
          `${USER_SEARCH_MIN_LENGTH} characters); a query of several words matches names and emails holding it. Names and ` +
          'email only (roles are per organization). Registry staff, or an ORG_ADMIN of the acting organization (x-participant-id).',
        querystring: userSuggestionsQuerySchema,
        response: { 200: userSuggestionsSchema, ...errors },
      },
    },
    async (request) => ({ users: await repository.suggestUsers(request.query.query, USER_SUGGESTION_LIMIT) }),
  );

  routes.get(
    PATHS.participantUsersPattern,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: "The organization's users, with their roles, last sign-in and pending invitation",
        description: `Paged, sorted by name, email or lastSignInAt, \`query\` matching the name or email. ${ACCESS_NOTE}`,
        params: participantParamsSchema,
        querystring: organizationUsersQuerySchema,
        response: { 200: organizationUsersPageSchema, ...errors },
      },
    },
    async (request) => {
      const participantId = request.params.participantId.toLowerCase();
      const page = await repository.listOrganizationUsers(participantId, request.query);
      // Registry staff may name any organization: an unknown one is 404 (an ORG_ADMIN's own exists).
      if (page.totalCount === 0 && request.registryStaff && !(await repository.participantExists(participantId)))
        throw new NotFoundError(USER_TEXTS.organizationNotFound);
      return page;
    },
  );

  routes.post(
    PATHS.participantUsersPattern,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: 'Invites a new person: the user, its membership and a single-use invitation link',
        description:
          `The link (invitationLink) is valid for INVITATION_TTL_HOURS (7 days by default) and works once; it is mailed through ` +
          `the outbox when SMTP_URL is set, and in any case answered here and written to the server log. An email that ` +
          `another user has: 409 '${USER_TEXTS.emailTaken}' (add that user instead). An inactive organization: 409. ${ACCESS_NOTE}`,
        params: participantParamsSchema,
        body: newOrganizationUserSchema,
        response: { 201: addedUserSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const participantId = request.params.participantId.toLowerCase();
      const { middleName, ...rest } = request.body;
      const added = await service.inviteNewUser({
        participantId,
        user: { ...rest, middleName: middleName ?? null },
        actor: actorOf(request),
        settings: invitationSettings(request),
      });
      logLink(request, added.user.id, added.invitationLink, added.user.email);
      return reply.code(201).send(added);
    },
  );

  routes.get(
    PATHS.participantUserPattern,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: 'One member of the organization, as the user list shows it (the edit and remove pages)',
        description: `404 '${USER_TEXTS.notMember}' when the user is not a member of it. ${ACCESS_NOTE}`,
        params: participantUserParamsSchema,
        response: { 200: organizationUserSchema, ...errors },
      },
    },
    async (request) => {
      const member = await repository.findOrganizationUser(request.params.participantId.toLowerCase(), request.params.userId.toLowerCase());
      if (!member) throw new NotFoundError(USER_TEXTS.notMember);
      return member;
    },
  );

  routes.put(
    PATHS.participantUserPattern,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: "Sets the member's roles (the body is the roles array)",
        description:
          `409 '${USER_TEXTS.lastAdmin}' when it would leave an active organization without an ORG_ADMIN; 409 ` +
          `'${USER_TEXTS.ownAdminRole}' for one's own ORG_ADMIN role. ${ACCESS_NOTE}`,
        params: participantUserParamsSchema,
        body: userRolesBodySchema,
        response: { 200: organizationUserSchema, ...writeErrors },
      },
    },
    async (request) =>
      service.changeRoles({
        participantId: request.params.participantId.toLowerCase(),
        userId: request.params.userId.toLowerCase(),
        roles: request.body,
        actor: actorOf(request),
      }),
  );

  routes.delete(
    PATHS.participantUserPattern,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: 'Removes the user from the organization (the user stays in the registry)',
        description:
          `Its pending invitation is revoked. 409 '${USER_TEXTS.lastAdmin}' for the last ORG_ADMIN of an active organization; ` +
          `409 '${USER_TEXTS.ownMembership}' for oneself. Answers 204. ${ACCESS_NOTE}`,
        params: participantUserParamsSchema,
        response: { 204: z.null().describe('Removed'), ...writeErrors },
      },
    },
    async (request, reply) => {
      await service.removeUser({
        participantId: request.params.participantId.toLowerCase(),
        userId: request.params.userId.toLowerCase(),
        actor: actorOf(request),
      });
      return reply.code(204).send(null);
    },
  );

  routes.post(
    PATHS.userParticipantsV2Pattern,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: 'Adds an existing user to an organization with roles',
        description:
          `The organization is the body's participantId. 409 '${USER_TEXTS.alreadyMember}' for a member; 404 for an unknown ` +
          'user. The organization becomes the default one of a user who has none. Registry staff for any organization; ' +
          'an ORG_ADMIN for its own only (403 for any other).',
        params: userIdParamsSchema,
        body: addUserToParticipantSchema,
        response: { 201: organizationUserSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const user = await service.addExistingUser({
        participantId: request.body.participantId.toLowerCase(),
        userId: request.params.userId.toLowerCase(),
        roles: request.body.roles,
        actor: actorOf(request),
      });
      return reply.code(201).send(user);
    },
  );

  routes.post(
    PATHS.participantUserInvitationPattern,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: 'Resends the invitation: a new link, every earlier one revoked',
        description: `409 '${USER_TEXTS.invitationUsed}' for a user who already signs in. ${ACCESS_NOTE}`,
        params: participantUserParamsSchema,
        response: { 201: resentInvitationSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const resent = await service.resendInvitation({
        participantId: request.params.participantId.toLowerCase(),
        userId: request.params.userId.toLowerCase(),
        actor: actorOf(request),
        settings: invitationSettings(request),
      });
      logLink(request, request.params.userId.toLowerCase(), resent.invitationLink);
      return reply.code(201).send(resent);
    },
  );

  routes.delete(
    PATHS.participantUserInvitationPattern,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: "Revokes the member's pending invitation: its link no longer works",
        description: `404 '${USER_TEXTS.invitationNotFound}' when none is pending. Answers 204. ${ACCESS_NOTE}`,
        params: participantUserParamsSchema,
        response: { 204: z.null().describe('Revoked'), ...writeErrors },
      },
    },
    async (request, reply) => {
      await service.revokeInvitation({
        participantId: request.params.participantId.toLowerCase(),
        userId: request.params.userId.toLowerCase(),
        actor: actorOf(request),
      });
      return reply.code(204).send(null);
    },
  );
}
