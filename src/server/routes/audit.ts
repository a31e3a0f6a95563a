// The audit trail's reads: GET v1 /loans/{id}/activity (the asset page's Activity tab: the loan's
// rows, newest first, to an organization that may see the loan) and GET v2 /audit (registry
// staff search the whole log; with Accept: text/csv every matching row, streamed, formula-safe).
//
// A loan's Activity lists every row of the loan, also those of its other parties (the loan's
// history is shared by them, as its events are), but names another organization's user and
// client address to no one but registry staff: the acting organization's name is shown instead.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AUDIT_CSV_COLUMNS,
  auditSearchPageSchema,
  auditSearchQuerySchema,
  loanActivityPageSchema,
  loanActivityQuerySchema,
  type AuditSearchQuery,
  type AuditTrailEntry,
} from '../../contract/audit';
import { errorBodySchema } from '../../contract/common';
import { loanIdParamsSchema } from '../../contract/loans';
import { PATHS } from '../../contract/paths';
import { ASSET_PAGE_TEXTS } from '../../domain/asset-texts';
import { LOAN_NOT_FOUND } from '../../domain/loan';
import { csvFileName, csvLine, neutralizeCell, UTF8_BOM } from '../csv/loan-csv';
import type { AuditFilter, AuditRowWithActing } from '../db/audit-repository';
import { NoLongerHeldError, NotFoundError } from '../domain-errors';
import { requireMembership } from '../plugins/access';
import { prefersCsv } from './loans';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const CSV_TYPE = 'text/csv; charset=utf-8';

export function toAuditTrailEntry(row: AuditRowWithActing, options: { readonly hideActor?: boolean } = {}): AuditTrailEntry {
  return {
    id: row.id,
    chainSeq: row.chainSeq,
    occurredAt: row.occurredAt.toISOString(),
    actorUserId: options.hideActor ? null : row.actorUserId,
    actorEmail: options.hideActor ? null : row.actorEmail,
    actingOrganizationId: row.actingParticipantId,
    actingOrganizationName: row.actingParticipantName,
    clientAddress: options.hideActor ? null : row.clientAddress,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    loanId: row.loanId,
    before: row.before ?? null,
    after: row.after ?? null,
  };
}

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

/** One audit row as CSV cells (AUDIT_CSV_COLUMNS), neutralised against formula injection. */
export function auditCsvRecord(row: AuditRowWithActing): string[] {
  return [
    String(row.chainSeq),
    row.occurredAt.toISOString(),
    row.actorUserId ?? '',
    row.actorEmail ?? '',
    row.actingParticipantName ?? '',
    row.clientAddress ?? '',
    row.action,
    row.targetType,
    row.targetId ?? '',
    row.loanId ?? '',
    json(row.before),
    json(row.after),
  ].map(neutralizeCell);
}

const filterOf = (query: AuditSearchQuery): AuditFilter => ({
  participantId: query.participantId?.toLowerCase(),
  user: query.user || undefined,
  targetType: query.targetType || undefined,
  entityId: query.entityId || undefined,
  from: query.from ? new Date(query.from) : undefined,
  to: query.to ? new Date(query.to) : undefined,
});

export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const audit = app.repositories.audit;
  const loans = app.repositories.loanDetails;

  routes.get(
    PATHS.loanActivityPattern,
    {
      config: { access: 'member' },
      schema: {
        tags: ['loans'],
        summary: "A loan's audit rows, newest first (the asset page's Activity tab)",
        description:
          'Every write on the loan: its parties and their states, events, deactivation, documents, transfers and their answers. ' +
          "Another organization's user and client address are left out (null); its name is given. Answers 404 when the loan " +
          'does not exist or the current organization (x-participant-id) may not see it; 410 when it took part in the loan before.',
        params: loanIdParamsSchema,
        querystring: loanActivityQuerySchema,
        response: { 200: loanActivityPageSchema, ...errors, 410: errorBodySchema },
      },
    },
    async (request) => {
      const participantId = requireMembership(request).participant.id;
      const loanId = request.params.id.toLowerCase();
      if (!(await audit.loanVisibleTo(loanId, participantId))) {
        throw (await loans.tookPartBefore(loanId, participantId))
          ? new NoLongerHeldError(ASSET_PAGE_TEXTS.noLongerHeldBody)
          : new NotFoundError(LOAN_NOT_FOUND);
      }
      const { rows, totalCount } = await audit.listAuditOfLoan(loanId, request.query);
      return {
        entries: rows.map((row) => toAuditTrailEntry(row, { hideActor: row.actingParticipantId !== participantId })),
        totalCount,
      };
    },
  );

  routes.get(
    PATHS.auditLog,
    {
      config: { access: 'registry-staff' },
      schema: {
        tags: ['administration'],
        summary: 'The whole audit log, searched: a page as JSON (newest first), or every matching row as CSV (Accept: text/csv)',
        description:
          'Registry staff only (ROLE_DART_ADMIN or ROLE_DART_OPS); anyone else 403 with the permission refusal. Filters: the ' +
          "organization concerned or acted for, the user (id or part of the e-mail), the entity's type and id (a loan's id " +
          `matches every row of the loan), and the time (from, to). The CSV is streamed in batches: ${AUDIT_CSV_COLUMNS.join(', ')}; ` +
          'a cell that a spreadsheet would run as a formula is prefixed with an apostrophe.',
        querystring: auditSearchQuerySchema,
        produces: ['application/json', 'text/csv'],
        response: {
          200: {
            description: 'A page of matching rows, or every matching row as CSV',
            content: {
              'application/json': { schema: auditSearchPageSchema },
              'text/csv': { schema: z.string().describe('UTF-8 CSV with a byte order mark and a header row') },
            },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const filter = filterOf(request.query);
      reply.header('vary', 'Accept');
      if (prefersCsv(request.headers.accept)) {
        const batches = audit.searchAuditInBatches(filter);
        async function* lines() {
          yield UTF8_BOM + csvLine(AUDIT_CSV_COLUMNS);
          for await (const batch of batches) yield batch.map((row) => csvLine(auditCsvRecord(row))).join('');
        }
        return (reply as FastifyReply)
          .type(CSV_TYPE)
          .header('content-disposition', `attachment; filename="${csvFileName('audit')}"`)
          .send(Readable.from(lines(), { objectMode: false }));
      }
      const { rows, totalCount } = await audit.searchAudit(filter, request.query);
      return reply.type('application/json; charset=utf-8').send({ entries: rows.map((row) => toAuditTrailEntry(row)), totalCount });
    },
  );
}
