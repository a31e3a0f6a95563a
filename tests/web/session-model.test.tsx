// @vitest-environment jsdom
// Model-based test of the session machine: every path of its statechart drives the real app
// (routes, shell, login screen) over a fake registry API, asserting what the user sees.
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { NAVIGATION_LABELS, TEXTS } from '../../src/domain/texts';
import { sessionMachine, type Account } from '../../machines/session';
import { createModelWalker } from '../machines/support/model-coverage';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';
import { renderApp } from './support/render-app';

const organizations = [sampleOrganization(1, true), sampleOrganization(2)];
const account: Account = { user: sampleUser, organizations };
const unauthorized = new HttpError(401, '{"statusCode":401,"error":"Unauthorized","message":"Authentication required"}');
const invalidParticipant = new HttpError(403, '{"statusCode":403,"error":"Forbidden","message":"Invalid participant"}');
const notRegistered = new HttpError(404, '{"statusCode":404,"error":"Not Found","message":"User not found."}');
const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

const walker = createModelWalker(sessionMachine, {
  input: { storedParticipantId: null },
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    'done: fetchIdentity': { output: sampleIdentity },
    'error: fetchIdentity': [{ error: unauthorized }, { error: serverError }],
    'done: fetchAccount': { output: account },
    'error: fetchAccount': [{ error: invalidParticipant }, { error: unauthorized }, { error: notRegistered }, { error: serverError }],
    'done: logout': { output: undefined },
    'error: logout': [{ error: unauthorized }, { error: serverError }],
    'organization.switch': [{ participantId: organizations[1]?.participant.id }],
    'session.callFailed': [{ error: unauthorized }, { error: invalidParticipant }],
  },
});

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
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = renderApp({ path: APP_PATHS.dashboard, organizations });
      await path.test({
        states: {
          checkingIdentity: () => expectBusy(app, false),
          loadingAccount: () => expectBusy(app, true),
          signingOut: () => expectBusy(app, !onLogin(app)),
          signedIn: async () => {
            expect(await screen.findByRole('heading', { name: 'Welcome, Uma' })).toBeInTheDocument();
            expect(button(TEXTS.signOut)).toBeEnabled();
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
          'done: fetchAccount': () => app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } }),
          'error: fetchAccount': async ({ event }) => {
            await app.fake.settle('usersMe', { error: errorOf(event) });
            if (errorOf(event) === invalidParticipant) {
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
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
