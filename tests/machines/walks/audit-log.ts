// The walk of the audit-log machine: what its model-based test
// (tests/web/audit-log-model.test.tsx) sends on every path, and the statechart explorer's input,
// service answers and tours.
import type { auditLogMachine } from '../../../machines/audit-log';
import type { AuditSearchPage } from '../../../src/contract/audit';
import { HttpError } from '../../../src/contract/http-error';
import { AUDIT_CSV_FILE } from '../../../src/web/screens/audit-log/audit-log-actors';
import type { WalkerOptions } from '../support/model-coverage';

const loanId = '6f1c1a52-4d0e-4a55-9b1b-1f1d7c3f0a11';
export const csv = new Blob(['chainSeq,occurredAt\n'], { type: 'text/csv' });
export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');
export const page: AuditSearchPage = {
  entries: [
    {
      id: 9,
      chainSeq: 9,
      occurredAt: '2026-11-27T10:00:00.000Z',
      actorUserId: null,
      actorEmail: 'ops@home.test',
      actingOrganizationId: null,
      actingOrganizationName: 'Home Bank',
      clientAddress: '10.0.0.7',
      action: 'role-transfer.requested',
      targetType: 'role-request',
      targetId: 'a1',
      loanId,
      before: { party: { role: 'SERVICER', participantName: 'Home Bank', state: 'CONFIRMED' } },
      after: { party: { role: 'SERVICER', state: 'PENDING' }, request: { receiver: { name: 'Harbor Servicing' } } },
    },
  ],
  totalCount: 1,
};
export const SYNCED_USER = 'synced@registry.test';

export const walk: WalkerOptions<typeof auditLogMachine> = {
  input: { view: { page: 1, limit: 10 } },
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    'draft.change': [{ type: 'draft.change', field: 'user', value: 'ops' }],
    'list.synced': [{ type: 'list.synced', view: { page: 1, limit: 10, user: SYNCED_USER } as never }],
    'done: downloadCsv': { output: { file: csv, fileName: AUDIT_CSV_FILE } },
    'error: downloadCsv': { error: serverError },
  },
};
