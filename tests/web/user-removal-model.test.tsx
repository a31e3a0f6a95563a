// @vitest-environment jsdom
// Model-based test of the user-removal machine through the signed-in app: every transition of its
// statechart is walked on .../users/:userUuid/delete opened directly (the member read first),
// over a fake API whose calls the test settles.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userRemovalMachine } from '../../machines/user-removal';
import { APP_PATHS } from '../../src/domain/app-paths';
import { USER_FORM_TEXTS, USER_REMOVAL_TEXTS as T } from '../../src/domain/organization-users';
import { USER_TEXTS } from '../../src/domain/administration-texts';
import { REMOVAL_FAILURE_ID } from '../../src/web/screens/organization-users/organization-users-actors';
import { createModelWalker } from '../machines/support/model-coverage';
import { lastAdmin, member, unavailable, walk } from '../machines/walks/user-removal';
import { ORGANIZATION_ID } from '../support/organization-user-fixtures';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { toastTexts } from './support/messages-screen';
import { renderSignedIn } from './support/render-app';

const walker = createModelWalker(userRemovalMachine, walk);

const user = userEvent.setup();
const confirmButton = () => screen.getByRole('button', { name: new RegExp(`^(${T.confirm}|${T.removing})$`) });

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/organization-users/user-removal-screen'),
  ]);
});

describe('user-removal machine, driven through the removal screen', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = await renderSignedIn([sampleOrganization(1, true)]);
      const calls = deferProductCalls(app.fake.api, ['organizationUser', 'removeOrganizationUser', 'organizationUsers', 'organization']);
      await act(() => app.router.navigate(APP_PATHS.deleteOrganizationUser(ORGANIZATION_ID, member.userId)));
      await screen.findByRole('heading', { level: 1, name: T.title });
      await path.test({
        states: {
          loading: () => {
            expect(screen.getByText(USER_FORM_TEXTS.loading)).toBeInTheDocument();
            expect(screen.queryByRole('button', { name: T.confirm })).not.toBeInTheDocument();
          },
          loadFailed: async () => {
            const alert = await screen.findByRole('alert');
            expect(alert).toHaveTextContent(USER_FORM_TEXTS.loadFailed);
          },
          confirming: async () => {
            // Named, and what removal means said, before anything is sent.
            expect(await screen.findByText(T.question(member.fullName, null))).toBeInTheDocument();
            expect(screen.getByText(T.explanation)).toBeInTheDocument();
            expect(confirmButton()).toHaveTextContent(T.confirm);
            expect(calls.pendingCount('removeOrganizationUser')).toBe(0);
          },
          removing: async () => {
            await waitFor(() => expect(confirmButton()).toHaveTextContent(T.removing));
            expect(confirmButton()).toHaveAttribute('aria-disabled', 'true');
          },
          failed: async () => {
            const alert = await waitFor(() => document.getElementById(REMOVAL_FAILURE_ID) as HTMLElement);
            expect(alert).toHaveTextContent(T.failed);
            expect(alert).toHaveTextContent(USER_TEXTS.lastAdmin);
            await waitFor(() => expect(document.activeElement).toBe(alert));
          },
          removed: async () => {
            await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.organizationUsers(ORGANIZATION_ID)));
            await waitFor(() => expect(toastTexts()).toContain(T.removed));
          },
        },
        events: {
          'done: loadUser': () => calls.settle('organizationUser', { value: member }),
          'error: loadUser': () => calls.settle('organizationUser', { error: unavailable }),
          'user.reload': () => user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' })),
          'removal.confirm': () => user.click(confirmButton()),
          'done: removeUser': async () => {
            expect(calls.calls('removeOrganizationUser').at(-1)?.slice(0, 2)).toEqual([ORGANIZATION_ID, member.userId]);
            await calls.settle('removeOrganizationUser', { value: undefined });
          },
          'error: removeUser': () => calls.settle('removeOrganizationUser', { error: lastAdmin }),
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted({ ignore: ['starting'] });
  });
});
