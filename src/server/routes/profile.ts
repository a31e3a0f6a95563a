// The contact profile and the partner view (SPEC sections 3, 6 and 7): PATCH v1
// /participants/profile (the acting organization's profile with its additional contacts, by its
// ORG_ADMIN), GET v1 /relationships (the acting organization's relationships, paged), GET v1
// /relationships/{relationshipId} and its /partnerProfile. A relationship is visible to its two
// organizations only: acting for any other (registry staff included) it answers 404 exactly like
// an unknown one, so its existence is not revealed.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { PATHS } from '../../contract/paths';
import {
  partnerProfileSchema,
  profileAnswerSchema,
  profileBodySchema,
  RELATIONSHIP_NOT_FOUND,
  relationshipParamsSchema,
  relationshipSchema,
  relationshipsPageSchema,
  relationshipsQuerySchema,
} from '../../contract/profile';
import { NotFoundError } from '../domain-errors';
import { toProfileInfo } from '../mappers';
import { auditActorOf } from '../audit/audit-actor';
import { requireMembership } from '../plugins/access';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const VISIBILITY =
  'Visible to the two organizations of the relationship only (x-participant-id); for any other it answers 404 like an unknown one.';

export async function profileRoutes(app: FastifyInstance): Promise<void> {
  const profiles = app.repositories.profiles;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.patch(
    PATHS.participantProfile,
    {
      config: { access: 'org-admin' },
      schema: {
        tags: ['participants'],
        summary: "Updates the organization's contact profile and replaces its additional contacts",
        description:
          'The organization is the one named by x-participant-id; the caller holds ORG_ADMIN there. The change and its audit row are one transaction.',
        body: profileBodySchema,
        response: { 200: profileAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const participantId = requireMembership(request).participant.id;
      return app.services.profiles.updateProfile(participantId, request.body, auditActorOf(request));
    },
  );

  routes.get(
    PATHS.relationships,
    {
      config: { access: 'member' },
      schema: {
        tags: ['relationships'],
        summary: "The organization's relationships with other organizations, newest first",
        querystring: relationshipsQuerySchema,
        response: { 200: relationshipsPageSchema, ...errors },
      },
    },
    async (request) => profiles.listRelationships(requireMembership(request).participant.id, request.query),
  );

  routes.get(
    PATHS.relationshipPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['relationships'],
        summary: 'One relationship of the organization',
        description: VISIBILITY,
        params: relationshipParamsSchema,
        response: { 200: relationshipSchema, ...errors },
      },
    },
    async (request) => {
      const relationship = await profiles.findRelationship(requireMembership(request).participant.id, request.params.relationshipId);
      if (!relationship) throw new NotFoundError(RELATIONSHIP_NOT_FOUND);
      return relationship;
    },
  );

  routes.get(
    PATHS.relationshipPartnerProfilePattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['relationships'],
        summary: "The partner organization's profile, read only",
        description: VISIBILITY,
        params: relationshipParamsSchema,
        response: { 200: partnerProfileSchema, ...errors },
      },
    },
    async (request) => {
      const relationship = await profiles.findRelationship(requireMembership(request).participant.id, request.params.relationshipId);
      if (!relationship) throw new NotFoundError(RELATIONSHIP_NOT_FOUND);
      const partner = await profiles.findProfile(relationship.partnerParticipantId);
      if (!partner) throw new NotFoundError(RELATIONSHIP_NOT_FOUND);
      return { participantId: partner.profile.id, ...toProfileInfo(partner.profile, partner.contacts) };
    },
  );
}
