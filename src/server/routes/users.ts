// The caller's registry user and organizations (SPEC section 7, users and organizations).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { userParticipantsSchema } from '../../contract/participants';
import { PATHS } from '../../contract/paths';
import { userIdParamsSchema, usersMeSchema } from '../../contract/users';
import { USER_NOT_FOUND } from '../../domain/access';
import { NotFoundError } from '../domain-errors';
import { toParticipant, toProfileInfo, toUser } from '../mappers';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const users = app.repositories.users;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    PATHS.usersMe,
    {
      // The header may be left out (the default organization is reported); one that names an
      // organization the caller does not hold is refused by the access hook.
      config: { access: 'signed-in' },
      schema: {
        tags: ['users'],
        summary: "The caller's registry user and current organization with its profile",
        response: { 200: usersMeSchema, ...errors },
      },
    },
    async (request) => {
      // An identity without a registry user is valid at the broker but unregistered here.
      const user = request.registryUser;
      if (!user) throw new NotFoundError(USER_NOT_FOUND);
      const membership = request.membership;
      if (!membership) return { user: toUser(user, []), participant: null };
      // The named organization's contacts came with the caller (cached with it); the default one's are read.
      const named = request.sessionCaller?.namedMembership === membership;
      const contacts = named
        ? (request.sessionCaller?.namedContacts ?? [])
        : await users.listParticipantContacts(membership.participant.id);
      return {
        user: toUser(user, membership.roles),
        participant: { ...toParticipant(membership.participant), profileInfo: toProfileInfo(membership.participant, contacts) },
      };
    },
  );

  routes.get(
    PATHS.userParticipantsPattern,
    {
      config: { access: 'self-or-registry-staff' },
      schema: {
        tags: ['users'],
        summary: "The active organizations of a user (the caller's own, or any for registry administrators)",
        params: userIdParamsSchema,
        response: { 200: userParticipantsSchema, ...errors },
      },
    },
    async (request) => {
      // The access hook let only this user or registry staff through; staff may name anyone.
      const userId = request.params.userId.toLowerCase();
      if (userId !== request.registryUser?.id && !(await users.findUserById(userId))) throw new NotFoundError(USER_NOT_FOUND);
      const memberships = await users.listActiveMemberships(userId);
      return memberships.map((membership) => ({ participant: toParticipant(membership.participant), isDefault: membership.isDefault }));
    },
  );
}
