// The audit log screen's actors over the app's services: the list over GET v2 /audit (the dates
// of the form read as whole local days) and its CSV export.
import { fromPromise } from 'xstate';
import { auditLogMachine, filtersOf } from '../../../../machines/audit-log';
import { pagedListOf } from '../../../../machines/paged-list';
import type { AuditLogFilters } from '../../../contract/audit';
import { pageOffset } from '../../../domain/asset-table';
import type { AppServices } from '../../app/services';

export const AUDIT_CSV_FILE = 'audit-log.csv';

/** The filters as the server reads them: 'from' the start of its local day, 'to' the end of its. */
export function auditQueryFilters(filters: AuditLogFilters): AuditLogFilters {
  const { from, to, ...rest } = filters;
  const dayStart = (day: string) => new Date(`${day}T00:00:00`);
  const dayEnd = (day: string) => new Date(`${day}T23:59:59.999`);
  const valid = (date: Date) => !Number.isNaN(date.getTime());
  return {
    ...rest,
    ...(from && valid(dayStart(from)) ? { from: dayStart(from).toISOString() } : {}),
    ...(to && valid(dayEnd(to)) ? { to: dayEnd(to).toISOString() } : {}),
  };
}

export const auditLogLogic = (services: Pick<AppServices, 'api' | 'download'>) =>
  auditLogMachine.provide({
    actors: {
      list: pagedListOf(async (view, signal) => {
        const page = await services.api.auditLog(
          { ...auditQueryFilters(filtersOf(view)), limit: view.limit, offset: pageOffset(view.page, view.limit) },
          signal,
        );
        return { items: page.entries, totalCount: page.totalCount };
      }),
      downloadCsv: fromPromise(async ({ input, signal }) => ({
        file: await services.api.auditLogCsv(auditQueryFilters(input.filters), signal),
        fileName: AUDIT_CSV_FILE,
      })),
    },
    actions: { saveFile: (_, { file, fileName }) => services.download(file, fileName) },
  });
