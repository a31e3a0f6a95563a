// @vitest-environment jsdom
// Model-based test of the audit-log machine through /administration/audit: the search form's
// draft, applied as the list's filters (Search) or dropped (Clear), the filters a URL names (Back,
// a link), and 'Export CSV' of what the filters match (one at a time; the file saved, or a toast).
// The list's own paging is walked in paged-list-model.test.tsx.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLogMachine } from '../../machines/audit-log';
import { APP_PATHS } from '../../src/domain/app-paths';
import { AUDIT_TEXTS as T } from '../../src/domain/audit-texts';
import { AUDIT_CSV_FILE } from '../../src/web/screens/audit-log/audit-log-actors';
import { createModelWalker } from '../machines/support/model-coverage';
import { csv, page, serverError, SYNCED_USER, walk } from '../machines/walks/audit-log';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';

const walker = createModelWalker(auditLogMachine, walk);

const user = userEvent.setup();
const exportButton = () => screen.getByRole('button', { name: new RegExp(`^(${T.exportCsv}|${T.exportingCsv})$`) });
const userField = () => screen.getByLabelText(T.userField) as HTMLInputElement;

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/audit-log/audit-log-screen')]);
});

describe('audit-log machine, driven through /administration/audit', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = await renderSignedIn([sampleOrganization(1, true)]);
      const auditLog = vi.fn(async (_query: unknown) => page);
      Object.assign(app.fake.api, { auditLog });
      const calls = deferProductCalls(app.fake.api, ['auditLogCsv']);
      await act(() => app.router.navigate(APP_PATHS.auditLog));
      const table = await screen.findByRole('table', { name: T.logTableLabel });
      await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
      expect(within(table).getByText('Asked Harbor Servicing to take over the servicer role (held by Home Bank).')).toBeInTheDocument();
      expect(auditLog.mock.calls[0]?.[0]).toEqual({ limit: 10, offset: 0 });
      let saved = 0;
      let exported: Record<string, unknown> = {};
      /** The filters of the last page asked for. */
      const lastQuery = () => (auditLog.mock.calls.at(-1) as unknown[] | undefined)?.[0] as Record<string, unknown>;
      await path.test({
        states: {
          idle: async () => {
            await waitFor(() => expect(exportButton()).toHaveTextContent(T.exportCsv));
            expect(exportButton()).toBeEnabled();
            expect(app.download).toHaveBeenCalledTimes(saved);
          },
          exporting: async () => {
            await waitFor(() => expect(exportButton()).toHaveTextContent(T.exportingCsv));
            expect(exportButton()).toBeDisabled();
            // The filters the list showed when the export started.
            expect(calls.calls('auditLogCsv').at(-1)?.[0]).toEqual(exported);
          },
        },
        events: {
          'draft.change': async () => {
            await user.clear(userField());
            await user.type(userField(), 'ops');
            expect(userField()).toHaveValue('ops');
          },
          'filters.apply': async () => {
            const typed = userField().value;
            await user.click(screen.getByRole('button', { name: T.search }));
            await waitFor(() => expect(lastQuery().user).toBe(typed || undefined));
            if (typed) await waitFor(() => expect(app.router.state.location.search).toContain(`user=${typed}`));
          },
          'filters.clear': async () => {
            await user.click(screen.getByRole('button', { name: T.clear }));
            await waitFor(() => expect(userField()).toHaveValue(''));
            await waitFor(() => expect(lastQuery().user).toBeUndefined());
          },
          'list.synced': async () => {
            await act(() => app.router.navigate(`${APP_PATHS.auditLog}?user=${encodeURIComponent(SYNCED_USER)}`));
            await waitFor(() => expect(userField()).toHaveValue(SYNCED_USER));
            await waitFor(() => expect(lastQuery().user).toBe(SYNCED_USER));
          },
          'csv.export': async () => {
            exported = Object.fromEntries(Object.entries(lastQuery()).filter(([key]) => key !== 'limit' && key !== 'offset'));
            await user.click(exportButton());
          },
          'done: downloadCsv': async () => {
            await calls.settle('auditLogCsv', { value: csv });
            saved += 1;
            await waitFor(() => expect(app.download).toHaveBeenLastCalledWith(csv, AUDIT_CSV_FILE));
          },
          'error: downloadCsv': async () => {
            await calls.settle('auditLogCsv', { error: serverError });
            await waitFor(() => expect(screen.getByRole('region', { name: 'Notifications' })).toHaveTextContent(T.exportFailed));
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
