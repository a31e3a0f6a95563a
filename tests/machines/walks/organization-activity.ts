// The walk of the organization-activity machine: what its model-based test
// (tests/web/organization-activity-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { organizationActivityMachine } from '../../../machines/organization-activity';
import { HttpError } from '../../../src/contract/http-error';
import type { ActivityPage } from '../../../src/contract/organizations';
import { ACTIVITY_CSV_FILE } from '../../../src/web/screens/organizations/organizations-actors';
import { sampleOrganization } from '../../support/session-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const organizationId = sampleOrganization(7).participant.id;

export const csv = new Blob(['occurredAt,actorEmail\n'], { type: 'text/csv' });

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const page: ActivityPage = {
  entries: [
    {
      id: 2,
      occurredAt: '2026-11-27T10:00:00.000Z',
      actorUserId: null,
      actorEmail: 'admin@registry.test',
      clientAddress: '10.0.0.7',
      action: 'organization.updated',
      targetType: 'organization',
      targetId: organizationId,
      before: { name: 'Harbor' },
      after: { name: 'Harbor Lending' },
    },
    {
      id: 1,
      occurredAt: '2026-11-26T10:00:00.000Z',
      actorUserId: null,
      actorEmail: 'admin@registry.test',
      clientAddress: '10.0.0.7',
      action: 'organization.created',
      targetType: 'organization',
      targetId: organizationId,
      before: null,
      after: { name: 'Harbor' },
    },
  ],
  totalCount: 2,
};

export const walk: WalkerOptions<typeof organizationActivityMachine> = {
  input: { organizationId, view: { page: 1, limit: 10 } },
  events: { 'done: downloadCsv': { output: { file: csv, fileName: ACTIVITY_CSV_FILE } }, 'error: downloadCsv': { error: serverError } },
};
