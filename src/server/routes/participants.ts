// The organizations of the administration (SPEC sections 4, 6 and 7): GET and POST v2
// /participants, GET, PUT and PATCH v2 /participants/{participantId}, and the organization's
// audit log, GET v2 /participants/{participantId}/activity (JSON pages, or every row as CSV).
// Writes go through services/organizations.ts (one transaction with its audit row).
//
// Who may read one organization (GET /participants/{participantId}, 'organization-viewer'):
// registry staff; its members; members of an organization in a relationship with it (the partner
// view). Anyone else gets 403 with the permission refusal (the web's 'Invalid Permissions' page),
// for an unknown id as for another's, so the answer confirms no id; staff get 404 for an unknown one.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../contract/common';
import {
  ACTIVITY_CSV_COLUMNS,
  activityPageSchema,
  activityQuerySchema,
  createdOrganizationSchema,
  organizationCreateSchema,
  organizationsPageSchema,
  organizationsQuerySchema,
  organizationStatusBodySchema,
  organizationUpdateSchema,
} from '../../contract/organizations';
import { participantParamsSchema } from '../../contract/organization-users';
import { participantSchema } from '../../contract/participants';
import { PATHS } from '../../contract/paths';
import { ORGANIZATION_TEXTS } from '../../domain/administration-texts';
import { auditActorOf } from '../audit/audit-actor';
import { csvFileName, csvLine, neutralizeCell, UTF8_BOM } from '../csv/loan-csv';
import type { AuditActor, AuditRow } from '../db/audit-repository';
import { NotFoundError } from '../domain-errors';
import { toParticipant } from '../mappers';
import { prefersCsv } from './loans';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const CSV_TYPE = 'text/csv; charset=utf-8';
const STAFF = 'Registry staff only (ROLE_DART_ADMIN or ROLE_DART_OPS); anyone else 403 with the permission refusal.';

const actorOf = (request: FastifyRequest): AuditActor => auditActorOf(request);

const toEntry = (row: AuditRow) => ({
  id: row.id,
  occurredAt: row.occurredAt.toISOString(),
  actorUserId: row.actorUserId,
  actorEmail: row.actorEmail,
  clientAddress: row.clientAddress,
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  before: row.before ?? null,
  after: row.after ?? null,
});

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/** One audit row as CSV cells (ACTIVITY_CSV_COLUMNS), neutralised against formula injection. */
export function activityCsvRecord(row: AuditRow): string[] {
  return [
    row.occurredAt.toISOString(),
    row.actorEmail ?? '',
    row.clientAddress ?? '',
    row.action,
    row.targetType,
    row.targetId ?? '',
    json(row.before),
    json(row.after),
  ].map(neutralizeCell);
}

export async function participantRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const organizations = app.repositories.organizations;
  const audit = app.repositories.audit;

  routes.get(
    PATHS.participants,
    {
      config: { access: 'registry-staff' },
      schema: {
        tags: ['administration'],
        summary: 'Every organization: paged, sorted, searched by name, code or email, filtered by status',
        description: STAFF,
        querystring: organizationsQuerySchema,
        response: { 200: organizationsPageSchema, ...errors },
      },
    },
    async (request) => {
      const { rows, totalCount } = await organizations.listOrganizations(request.query);
      return { participants: rows.map(toParticipant), totalCount };
    },
  );

  routes.post(
    PATHS.participants,
    {
      config: { access: 'registry-staff' },
      schema: {
        tags: ['administration'],
        summary: 'Creates an organization under the id the client made',
        description: `${STAFF} 409 when the id or the code is taken. Appends an audit row (organization.created).`,
        body: organizationCreateSchema,
        response: { 201: createdOrganizationSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const { id, ...fields } = request.body;
      const row = await app.services.organizations.createOrganization(actorOf(request), id.toLowerCase(), fields);
      return reply.code(201).send(toParticipant(row));
    },
  );

  routes.get(
    PATHS.participantPattern,
    {
      config: { access: 'organization-viewer' },
      schema: {
        tags: ['administration'],
        summary: 'One organization (also the partner view)',
        description:
          'Registry staff, the members of the organization, and members of an organization in a relationship with it. ' +
          'Anyone else: 403 with the permission refusal, for an unknown id too. Registry staff: 404 for an unknown id.',
        params: participantParamsSchema,
        response: { 200: participantSchema, ...errors },
      },
    },
    async (request) => {
      const row = await organizations.findOrganization(request.params.participantId.toLowerCase());
      if (!row) throw new NotFoundError(ORGANIZATION_TEXTS.notFound);
      return toParticipant(row);
    },
  );

  routes.put(
    PATHS.participantPattern,
    {
      config: { access: 'registry-staff' },
      schema: {
        tags: ['administration'],
        summary: 'Edits an organization (the POST body without id: the id is read-only)',
        description: `${STAFF} 409 when the code is another organization's. Appends an audit row (organization.updated).`,
        params: participantParamsSchema,
        body: organizationUpdateSchema,
        response: { 200: participantSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) =>
      toParticipant(
        await app.services.organizations.updateOrganization(actorOf(request), request.params.participantId.toLowerCase(), request.body),
      ),
  );

  routes.patch(
    PATHS.participantPattern,
    {
      config: { access: 'registry-staff' },
      schema: {
        tags: ['administration'],
        summary: 'Deactivates (isActive false) or reactivates (isActive true) an organization',
        description:
          `${STAFF} A deactivated organization stays a party of record on its loans and in history; its members can no ` +
          "longer choose it (their calls acting for it answer 403 'Invalid participant'). 409 when it already has that state. " +
          'Appends an audit row (organization.deactivated or organization.reactivated).',
        params: participantParamsSchema,
        body: organizationStatusBodySchema,
        response: { 200: participantSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) =>
      toParticipant(
        await app.services.organizations.setOrganizationActive(
          actorOf(request),
          request.params.participantId.toLowerCase(),
          request.body.isActive,
        ),
      ),
  );

  routes.get(
    PATHS.participantActivityPattern,
    {
      config: { access: 'org-admin-or-registry-staff' },
      schema: {
        tags: ['administration'],
        summary: "The organization's audit log, newest first: a page as JSON, or every row as CSV (Accept: text/csv)",
        description:
          'Registry staff, or an ORG_ADMIN of the organization. With `Accept: text/csv` the answer is every row of the log, ' +
          `streamed in batches, with a header row: ${ACTIVITY_CSV_COLUMNS.join(', ')}.`,
        params: participantParamsSchema,
        querystring: activityQuerySchema,
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            description: 'A page of the log, or the whole log as CSV',
            content: {
              'application/json': { schema: activityPageSchema },
              'text/csv': { schema: z.string().describe('UTF-8 CSV with a byte order mark and a header row') },
            },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const participantId = request.params.participantId.toLowerCase();
      if (!(await organizations.findOrganization(participantId))) throw new NotFoundError(ORGANIZATION_TEXTS.notFound);
      if (prefersCsv(request.headers.accept)) {
        const batches = audit.auditOfParticipantInBatches(participantId);
        async function* lines() {
          yield UTF8_BOM + csvLine(ACTIVITY_CSV_COLUMNS);
          for await (const batch of batches) yield batch.map((row) => csvLine(activityCsvRecord(row))).join('');
        }
        reply.header('vary', 'Accept');
        return (reply as FastifyReply)
          .type(CSV_TYPE)
          .header('content-disposition', `attachment; filename="${csvFileName('activity')}"`)
          .send(Readable.from(lines(), { objectMode: false }));
      }
      reply.header('vary', 'Accept');
      const { rows, totalCount } = await audit.listAuditOfParticipant(participantId, request.query);
      return reply.type('application/json; charset=utf-8').send({ entries: rows.map(toEntry), totalCount });
    },
  );
}
