// @vitest-environment jsdom
// Model-based test of the organization-activity machine through
// /administration/organizations/:organizationUuid/activity: the audit log's page, and 'Export CSV'
// (one at a time; the file saved, or a toast when it fails). The list's own paging is walked in
// paged-list-model.test.tsx.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { organizationActivityMachine } from '../../machines/organization-activity';
import { APP_PATHS } from '../../src/domain/app-paths';
import { ORGANIZATION_TEXTS as T } from '../../src/domain/administration-texts';
import { ACTIVITY_CSV_FILE } from '../../src/web/screens/organizations/organizations-actors';
import { createModelWalker } from '../machines/support/model-coverage';
import { csv, organizationId, page, serverError, walk } from '../machines/walks/organization-activity';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';

const walker = createModelWalker(organizationActivityMachine, walk);

const user = userEvent.setup();
const exportButton = () => screen.getByRole('button', { name: new RegExp(`^(${T.exportCsv}|${T.exportingCsv})$`) });

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/organizations/organization-activity-screen'),
  ]);
});

describe('organization-activity machine, driven through the activity route', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = await renderSignedIn([sampleOrganization(1, true)]);
      const calls = deferProductCalls(app.fake.api, ['organizationActivity', 'organizationActivityCsv']);
      await act(() => app.router.navigate(APP_PATHS.organizationActivity(organizationId)));
      await calls.settle('organizationActivity', { value: page });
      const table = await screen.findByRole('table', { name: T.activityTableLabel });
      await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
      expect(within(table).getByText('name: "Harbor" → "Harbor Lending"')).toBeInTheDocument();
      expect(calls.calls('organizationActivity')[0]?.slice(0, 2)).toEqual([organizationId, { limit: 10, offset: 0 }]);
      let saved = 0;
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
            expect(calls.calls('organizationActivityCsv').at(-1)?.[0]).toBe(organizationId);
          },
        },
        events: {
          'csv.export': () => user.click(exportButton()),
          'done: downloadCsv': async () => {
            await calls.settle('organizationActivityCsv', { value: csv });
            saved += 1;
            await waitFor(() => expect(app.download).toHaveBeenLastCalledWith(csv, ACTIVITY_CSV_FILE));
          },
          'error: downloadCsv': async () => {
            await calls.settle('organizationActivityCsv', { error: serverError });
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
