// @vitest-environment jsdom
// Model-based test of the session machine: every path of its statechart drives the real app
// (routes, shell, login screen) over a fake registry API, asserting what the user sees.
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { STORAGE_KEYS } from '../../src/domain/constants';
import { NAVIGATION_LABELS, SUPPORT_CONTACT, TEXTS } from '../../src/domain/texts';
import { sessionMachine, type Account } from '../../machines/session';
import { createModelWalker } from '../machines/support/model-coverage';
import { invalidParticipant, organizations, stored, walk } from '../machines/walks/session';
import { sampleUser } from '../support/session-fixtures';
import { renderApp } from './support/render-app';

const walker = createModelWalker(sessionMachine, walk);

type App = ReturnType<typeof renderApp>;
const user = userEvent.setup();
const errorOf = (event: unknown) => (event as { error: HttpError }).error;
const onLogin = (app: App) => app.location().pathname === APP_PATHS.login;
const button = (name: string) => screen.getByRole('button', { name });

function expectBusy(app: App, identified: boolean) {
  if (onLogin(app)) expect(button(identified ? TEXTS.logOut : TEXTS.logIn)).toBeDisabled();
  else expect(screen.getByRole('status')).toHaveTextContent(TEXTS.loading);
}

function expectNoticeOnlyWhenFlagged(app: App) {
  const flagged = new URLSearchParams(app.location().search).get('unauthorized') === 'true';
  const notice = screen.queryByRole('heading', { name: TEXTS.notRegisteredTitle });
  if (flagged) expect(notice).toBeInTheDocument();
  else expect(notice).not.toBeInTheDocument();
}

describe('session machine, driven through the app', () => {
  afterEach(() => {
    cleanup();
    window.localStorage.clear();
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      window.localStorage.setItem(STORAGE_KEYS.participantId, stored);
      const app = renderApp({ path: APP_PATHS.dashboard, organizations });
      await path.test({
        states: {
          checkingIdentity: () => expectBusy(app, false),
          loadingAccount: () => expectBusy(app, true),
          signingOut: () => expectBusy(app, !onLogin(app)),
          signedIn: async () => expect(await screen.findByRole('button', { name: TEXTS.signOut })).toBeEnabled(),
          'signedIn.active': async () => {
            expect(await screen.findByRole('heading', { name: 'Welcome, Uma' })).toBeInTheDocument();
            expect(screen.queryByRole('heading', { name: TEXTS.invalidPermissions })).not.toBeInTheDocument();
          },
          'signedIn.permissionRefused': async () => {
            // In place of the screen, at the same address, with focus on its heading.
            const heading = await screen.findByRole('heading', { name: TEXTS.invalidPermissions });
            expect(heading).toHaveFocus();
            expect(screen.queryByRole('heading', { name: 'Welcome, Uma' })).not.toBeInTheDocument();
            expect(within(screen.getByRole('main')).getByRole('link', { name: SUPPORT_CONTACT.email })).toBeInTheDocument();
            expect(screen.getByRole('link', { name: TEXTS.backToLogin })).toHaveAttribute('href', APP_PATHS.login);
            expect(app.location().pathname).toBe(APP_PATHS.dashboard);
            // Not SPEC section 8's Invalid participant: the organization stays, no toast.
            expect(screen.queryByText(TEXTS.invalidParticipantToast)).not.toBeInTheDocument();
            expect(window.localStorage.getItem(STORAGE_KEYS.participantId)).not.toBeNull();
          },
          noOrganization: async () => {
            expect(await screen.findByRole('heading', { name: TEXTS.noOrganizationTitle })).toBeInTheDocument();
            expect(screen.getByText(TEXTS.noOrganizationBody)).toBeInTheDocument();
            expect(app.location().pathname).toBe(APP_PATHS.login);
            expect(button(TEXTS.logOut)).toBeEnabled();
            // It stays: no screen calls for an organization, so nothing answers Invalid participant and
            // loads the account again (the loop of reloads and toasts this state ends).
            expect(app.fake.pendingCount('usersMe')).toBe(0);
            expect(window.localStorage.getItem(STORAGE_KEYS.participantId)).toBeNull();
          },
          unregistered: async () => {
            expect(await screen.findByRole('heading', { name: TEXTS.notRegisteredTitle })).toBeInTheDocument();
            expect(app.location().pathname).toBe(APP_PATHS.login);
            expect(button(TEXTS.logOut)).toBeEnabled();
          },
          signedOut: async () => {
            expect(await screen.findByRole('button', { name: TEXTS.logIn })).toBeEnabled();
            expect(app.location().pathname).toBe(APP_PATHS.login);
          },
          'signedOut.unauthorized': () => expectNoticeOnlyWhenFlagged(app),
          'signedOut.byUser': () => {
            expect(app.location().search).toBe('');
            expect(screen.queryByRole('heading', { name: TEXTS.notRegisteredTitle })).not.toBeInTheDocument();
          },
          failed: async () => {
            expect(await screen.findByText(TEXTS.registryUnreachable)).toBeInTheDocument();
            expect(button(TEXTS.tryAgain)).toBeEnabled();
          },
        },
        events: {
          'done: fetchIdentity': ({ event }) => app.fake.settle('figureInfo', { value: (event as unknown as { output: unknown }).output }),
          'error: fetchIdentity': ({ event }) => app.fake.settle('figureInfo', { error: errorOf(event) }),
          'done: fetchAccount': ({ event }) => {
            app.fake.setOrganizations((event as unknown as { output: Account }).output.organizations);
            return app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
          },
          'error: fetchAccount': async ({ event, state }) => {
            await app.fake.settle('usersMe', { error: errorOf(event) });
            // Invalid participant for the organization named: loaded again without it. With none named: failed.
            if (errorOf(event) === invalidParticipant && state.matches('loadingAccount')) {
              expect(await screen.findByText(TEXTS.invalidParticipantToast)).toBeInTheDocument();
              expect(app.location().pathname).toBe(APP_PATHS.dashboard);
            }
          },
          'done: logout': () => app.fake.settle('logout', { value: undefined }),
          'error: logout': ({ event }) => app.fake.settle('logout', { error: errorOf(event) }),
          'session.signOut': async () => {
            const signOut = screen.queryByRole('button', { name: TEXTS.signOut }) ?? button(TEXTS.logOut);
            await user.click(signOut);
          },
          'session.logIn': async () => {
            await user.click(button(TEXTS.logIn));
            expect(app.startHostedLogin).toHaveBeenCalledTimes(1);
            // From the dashboard a sign-in lands on the dashboard anyway: no returnTo.
            expect(app.startHostedLogin).toHaveBeenCalledWith(undefined);
          },
          'session.retry': () => user.click(button(TEXTS.tryAgain)),
          'organization.switch': async () => {
            await user.click(screen.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }));
            expect(screen.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization })).toHaveTextContent('Organization 1');
            await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Organization 2' }));
            expect(await screen.findByTestId('current-organization')).toHaveTextContent('Organization 2');
            expect(app.location().pathname).toBe(APP_PATHS.dashboard);
          },
          'session.callFailed': ({ event }) => act(() => app.productCallFailed(errorOf(event))),
          'session.pageChanged': () => user.click(screen.getByRole('link', { name: TEXTS.backToDashboard })),
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
