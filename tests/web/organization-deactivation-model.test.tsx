// @vitest-environment jsdom
// Model-based test of the organization-deactivation machine through
// /administration/organizations/:organizationUuid/delete: what deactivating means is said before
// the confirmation; the confirmation deactivates (toast, the list) or fails (said, and again).
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { organizationDeactivationMachine } from '../../machines/organization-deactivation';
import type { HttpError } from '../../src/contract/http-error';
import type { Participant } from '../../src/contract/participants';
import { APP_PATHS } from '../../src/domain/app-paths';
import { TEXTS } from '../../src/domain/texts';
import { ORGANIZATION_TEXTS as T } from '../../src/domain/administration-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { active, inactive, serverError, walk } from '../machines/walks/organization-deactivation';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';

const walker = createModelWalker(organizationDeactivationMachine, walk);

const user = userEvent.setup();
const notifications = () => screen.getByRole('region', { name: 'Notifications' });

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/organizations/organization-delete-screen'),
    import('../../src/web/screens/organizations/organizations-screen'),
  ]);
});

describe('organization-deactivation machine, driven through the delete route', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = await renderSignedIn([sampleOrganization(1, true)]);
      const calls = deferProductCalls(app.fake.api, ['organization', 'setOrganizationActive', 'listOrganizations']);
      await act(() => app.router.navigate(APP_PATHS.deleteOrganization(active.id)));
      await path.test({
        states: {
          loading: async () => expect(await screen.findByText(T.loadingOrganization)).toBeInTheDocument(),
          notFound: async () => {
            expect(await screen.findByRole('heading', { level: 1, name: T.notFoundTitle })).toBeInTheDocument();
            expect(screen.queryByRole('button', { name: T.deactivateConfirm })).not.toBeInTheDocument();
          },
          loadFailed: async () => {
            expect(await screen.findByRole('alert')).toHaveTextContent(T.loadFailed);
            expect(screen.getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
          },
          alreadyInactive: async () => {
            expect(await screen.findByText(T.alreadyInactive)).toBeInTheDocument();
            expect(screen.getByRole('link', { name: T.reactivate })).toHaveAttribute('href', APP_PATHS.organization(active.id));
            expect(screen.queryByRole('button', { name: T.deactivateConfirm })).not.toBeInTheDocument();
          },
          confirming: async () => {
            // What it means is said before the confirmation.
            for (const line of T.deactivateExplanation) expect(await screen.findByText(line)).toBeInTheDocument();
            expect(screen.getByRole('button', { name: T.deactivateConfirm })).toBeEnabled();
            expect(calls.calls('setOrganizationActive')).toEqual([]);
          },
          deactivating: async () => {
            await waitFor(() => expect(screen.getByRole('button', { name: T.deactivating })).toBeDisabled());
            expect(calls.calls('setOrganizationActive').at(-1)).toEqual([active.id, false, expect.anything()]);
          },
          failed: async () => {
            await waitFor(() => expect(notifications()).toHaveTextContent(T.deactivateFailed));
            expect(screen.getByRole('button', { name: T.deactivateConfirm })).toBeEnabled();
          },
          deactivated: async () => {
            await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.organizations));
            await waitFor(() => expect(notifications()).toHaveTextContent(T.deactivated));
          },
        },
        events: {
          'done: loadOrganization': ({ event }) =>
            calls.settle('organization', { value: (event as unknown as { output: Participant }).output }),
          'error: loadOrganization': ({ event }) =>
            calls.settle('organization', { error: (event as unknown as { error: HttpError }).error }),
          'load.retry': () => user.click(screen.getByRole('button', { name: TEXTS.tryAgain })),
          'deactivation.confirm': () => user.click(screen.getByRole('button', { name: T.deactivateConfirm })),
          'done: deactivateOrganization': () => calls.settle('setOrganizationActive', { value: inactive }),
          'error: deactivateOrganization': () => calls.settle('setOrganizationActive', { error: serverError }),
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
