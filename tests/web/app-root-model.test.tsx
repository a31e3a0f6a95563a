// @vitest-environment jsdom
// Model-based test of the app root (machines/app-root.ts) through the rendered app: one state,
// `running`, in which every app-wide actor of the one actor system is at work for the screens:
// the session (the welcome), the navigation (its toggle), the toasts (the region, and the
// session's toast reaching it), and the unread count and the batch download following the
// session's organization without any component telling them to. A screen's machine opens as the
// root's child when its screen mounts (the deactivation form here) and closes when it unmounts.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { appRootMachine } from '../../machines/app-root';
import { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { TEXTS } from '../../src/domain/texts';
import { DEACTIVATION_TEXTS } from '../../src/domain/deactivation-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { walk } from '../machines/walks/app-root';
import { sampleLoanDetails, sampleLoanId } from '../support/loan-fixtures';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';
import { renderApp } from './support/render-app';

const walker = createModelWalker(appRootMachine, walk);

const organizations = [sampleOrganization(1, true), sampleOrganization(2)];
const invalidParticipant = new HttpError(403, '{"statusCode":403,"error":"Forbidden","message":"Invalid participant"}');

// The routes load their screens lazily: loaded once here, so no path waits on the first import.
beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/dashboard/dashboard-screen'),
    import('../../src/web/screens/deactivation/deactivation-screen'),
  ]);
});

describe('app root machine, driven through the app', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = renderApp({ path: APP_PATHS.dashboard, organizations });
      // The count and the jobs are asked for by their actors, following the session on their own.
      const unreadCount = vi.fn(async () => 0);
      const listJobs = vi.fn(async () => []);
      const loanDetails = vi.fn(async () => sampleLoanDetails());
      Object.assign(app.fake.api, { unreadMessageCount: unreadCount, listJobs, loanDetails });
      const signIn = async () => {
        await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
        await screen.findByRole('heading', { name: `Welcome, ${sampleUser.firstName}` });
      };
      await app.fake.settle('figureInfo', { value: sampleIdentity });
      expect(unreadCount).not.toHaveBeenCalled();
      await signIn();
      await waitFor(() => expect(unreadCount).toHaveBeenCalledTimes(1));
      expect(listJobs).toHaveBeenCalledTimes(1);
      await path.test({
        states: {
          running: async () => {
            const counted = unreadCount.mock.calls.length;
            const listed = listJobs.mock.calls.length;
            // Navigation and toasts are there for every screen.
            expect(screen.getByRole('button', { name: 'Collapse navigation' })).toBeInTheDocument();
            const notifications = screen.getByRole('region', { name: 'Notifications' });
            // The session's toast reaches the toasts actor; the account loads again, and with it
            // the organization's count and jobs.
            const toasted = () => within(notifications).queryAllByText(TEXTS.invalidParticipantToast).length;
            const before = toasted();
            act(() => app.productCallFailed(invalidParticipant));
            await waitFor(() => expect(toasted()).toBe(before + 1));
            await signIn();
            await waitFor(() => expect(unreadCount).toHaveBeenCalledTimes(counted + 1));
            expect(listJobs).toHaveBeenCalledTimes(listed + 1);
          },
        },
        events: {
          // The deactivation form's machine runs (it reads the loan) while its screen is shown.
          'screen.open': async () => {
            await act(() => app.router.navigate(APP_PATHS.deactivate(sampleLoanId)));
            expect(await screen.findByRole('button', { name: DEACTIVATION_TEXTS.submit })).toBeInTheDocument();
            expect(loanDetails).toHaveBeenCalledTimes(1);
          },
          // Leaving the screen stops its machine; closing none does nothing.
          'screen.close': async () => {
            await act(() => app.router.navigate(APP_PATHS.dashboard));
            await screen.findByRole('heading', { name: `Welcome, ${sampleUser.firstName}` });
            expect(screen.queryByRole('button', { name: DEACTIVATION_TEXTS.submit })).not.toBeInTheDocument();
          },
        },
      });
    });
  }

  it('covers every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
