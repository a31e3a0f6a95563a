// @vitest-environment jsdom
// Model-based test of the app root (machines/app-root.ts) through the rendered app: one state,
// `running`, in which every app-wide actor of the one actor system is at work for the screens:
// the session (the welcome), the navigation (its toggle), the toasts (the region, and the
// session's toast reaching it), and the unread count and the batch download following the
// session's organization without any component telling them to.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { appRootMachine } from '../../machines/app-root';
import { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { TEXTS } from '../../src/domain/texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';
import { renderApp } from './support/render-app';

const walker = createModelWalker(appRootMachine, {
  input: { session: { storedParticipantId: null }, navigation: { collapsed: false } },
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
});

const organizations = [sampleOrganization(1, true), sampleOrganization(2)];
const invalidParticipant = new HttpError(403, '{"statusCode":403,"error":"Forbidden","message":"Invalid participant"}');

// The routes load their screens lazily: loaded once here, so no path waits on the first import.
beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/dashboard/dashboard-screen')]);
});

describe('app root machine, driven through the app', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = renderApp({ path: APP_PATHS.dashboard, organizations });
      // The count and the jobs are asked for by their actors, following the session on their own.
      const unreadCount = vi.fn(async () => 0);
      const listJobs = vi.fn(async () => []);
      Object.assign(app.fake.api, { unreadMessageCount: unreadCount, listJobs });
      const signIn = async () => {
        await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
        await screen.findByRole('heading', { name: `Welcome, ${sampleUser.firstName}` });
      };
      await app.fake.settle('figureInfo', { value: sampleIdentity });
      expect(unreadCount).not.toHaveBeenCalled();
      await signIn();
      await path.test({
        states: {
          running: async () => {
            await waitFor(() => expect(unreadCount).toHaveBeenCalledTimes(1));
            expect(listJobs).toHaveBeenCalledTimes(1);
            // Navigation and toasts are there for every screen.
            expect(screen.getByRole('button', { name: 'Collapse navigation' })).toBeInTheDocument();
            const notifications = screen.getByRole('region', { name: 'Notifications' });
            // The session's toast reaches the toasts actor; the account loads again, and with it
            // the organization's count and jobs.
            act(() => app.productCallFailed(invalidParticipant));
            expect(await within(notifications).findByText(TEXTS.invalidParticipantToast)).toBeInTheDocument();
            await signIn();
            await waitFor(() => expect(unreadCount).toHaveBeenCalledTimes(2));
            expect(listJobs).toHaveBeenCalledTimes(2);
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
