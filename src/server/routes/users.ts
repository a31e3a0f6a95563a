// The caller's registry user and organizations (SPEC section 7, users and organizations).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { userParticipantsSchema } from '../../contract/participants';
import { PATHS } from '../../contract/paths';
import { userIdParamsSchema, usersMeSchema } from '../../contract/users';
import { isRegistryAdmin } from '../../domain/roles';
import { forbidden, notFound } from '../http-errors';
import { toParticipant, toProfileInfo, toUser } from '../mappers';
import { requireIdentity } from '../plugins/session';

export const USER_NOT_FOUND = 'User not found.';
export const OWN_ORGANIZATIONS_ONLY = 'You can only list your own organizations.';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const users = app.repositories.users;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    PATHS.usersMe,
    {
      // The header may be left out (the default organization is reported); one that names an
      // organization the caller does not hold is refused by the tenancy hook.
      config: { tenancy: 'optional' },
      schema: {
        tags: ['users'],
        summary: "The caller's registry user and current organization with its profile",
        response: { 200: usersMeSchema, ...errors },
      },
    },
    async (request) => {
      // An identity without a registry user is valid at the broker but unregistered here.
      const user = request.registryUser;
      if (!user) throw notFound(USER_NOT_FOUND);
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
      config: { tenancy: 'none' },
      schema: {
        tags: ['users'],
        summary: "The active organizations of a user (the caller's own, or any for registry administrators)",
        params: userIdParamsSchema,
        response: { 200: userParticipantsSchema, ...errors },
      },
    },
    async (request) => {
      const identity = requireIdentity(request);
      const caller = request.registryUser;
      const userId = request.params.userId.toLowerCase();
      const admin = isRegistryAdmin(identity.roles);
      if (!caller && !admin) throw notFound(USER_NOT_FOUND);
      if (caller?.id !== userId) {
        if (!admin) throw forbidden(OWN_ORGANIZATIONS_ONLY);
        if (!(await users.findUserById(userId))) throw notFound(USER_NOT_FOUND);
      }
      const memberships = await users.listActiveMemberships(userId);
      return memberships.map((membership) => ({ participant: toParticipant(membership.participant), isDefault: membership.isDefault }));
    },
  );
}
