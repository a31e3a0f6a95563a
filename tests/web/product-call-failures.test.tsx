// @vitest-environment jsdom
// A failed product call reaches the session through the real client (createHttpPlatform over
// ky with a fake fetch): 401 takes the app to login with the notice; 'Invalid participant'
// (403, or a 400 whose body says so) drops the stored organization, toasts and goes to the
// dashboard on the default one. Other failures leave the session alone.
import { act, cleanup, render, screen } from '@testing-library/react';
import ky from 'ky';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RegistryApi } from '../../src/client/api';
import type { SessionLink } from '../../src/client/http';
import { HttpError } from '../../src/contract/http-error';
import { PATHS } from '../../src/contract/paths';
import { APP_PATHS } from '../../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../../src/domain/constants';
import { TEXTS } from '../../src/domain/texts';
import { createHttpPlatform } from '../../src/web/app/platform';
import { createRoutes } from '../../src/web/app/routes';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';

const BASE_URL = 'http://registry.test';
const [defaultOrganization, otherOrganization] = [sampleOrganization(1, true), sampleOrganization(2)];
const organizations = [defaultOrganization, otherOrganization];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const failure = (status: number, error: string, message: string) => json(status, { statusCode: status, error, message });
const noLoans = () => json(200, { loans: [], totalCount: 0 });

/** The services behind BASE_URL: a signed-in user with two organizations; the loan list answers with `loans(request)`. */
function createFakeServer() {
  const server = {
    signedIn: true,
    loans: (_request: Request): Response => noLoans(),
    requests: [] as Request[],
  };
  const answer = (request: Request): Response => {
    const path = new URL(request.url).pathname;
    if (!server.signedIn) return failure(401, 'Unauthorized', 'Authentication required');
    if (path === PATHS.figureInfo) return json(200, sampleIdentity);
    if (path === PATHS.usersMe) return json(200, { user: sampleUser, participant: null });
    if (path === PATHS.userParticipants(sampleUser.id)) return json(200, organizations);
    if (path === PATHS.loans) return server.loans(request);
    return failure(404, 'Not Found', 'Not found');
  };
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    server.requests.push(request);
    return answer(request);
  });
  const requestsTo = (path: string) => server.requests.filter((request) => new URL(request.url).pathname === path);
  return { server, fetch, requestsTo };
}

function renderAppOverHttp(path: string) {
  const fake = createFakeServer();
  const startHostedLogin = vi.fn();
  const platform = createHttpPlatform({
    baseUrl: BASE_URL,
    ky: ky.create({ fetch: fake.fetch }),
    startHostedLogin,
    download: vi.fn(),
  });
  // The API bound to a session is the one screens get from useAppServices().
  const boundApis: RegistryApi[] = [];
  const router = createMemoryRouter(
    createRoutes({
      ...platform,
      createApi: (session?: SessionLink) => {
        const api = platform.createApi(session);
        if (session) boundApis.push(api);
        return api;
      },
    }),
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  const screenApi = () => {
    const api = boundApis.at(-1);
    if (!api) throw new Error('no API bound to the session');
    return api;
  };
  /** A screen's product call, awaited to its failure. */
  const failingProductCall = async () => {
    let failed: unknown;
    await act(async () => {
      await screenApi()
        .listLoans({})
        .catch((error: unknown) => (failed = error));
    });
    return failed;
  };
  return { ...fake, router, screenApi, failingProductCall, startHostedLogin, location: () => router.state.location };
}

async function signedIn(app: ReturnType<typeof renderAppOverHttp>, organizationName: string) {
  // The first render loads the lazy shell module: give it more than the default second.
  expect(await screen.findByRole('heading', { name: 'Messages' }, { timeout: 10_000 })).toBeInTheDocument();
  expect(app.location().pathname).toBe(APP_PATHS.messages);
  expect(localStorage.getItem(STORAGE_KEYS.participantId)).toBe(
    organizations.find((o) => o.participant.name === organizationName)?.participant.id,
  );
}

describe('a failed product call, through the real client', () => {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.participantId, otherOrganization.participant.id);
  });
  afterEach(cleanup);

  it('acts for the current organization while it succeeds', async () => {
    const app = renderAppOverHttp(APP_PATHS.messages);
    await signedIn(app, 'Organization 2');
    await act(async () => {
      await expect(app.screenApi().listLoans({})).resolves.toEqual({ loans: [], totalCount: 0 });
    });
    expect(app.requestsTo(PATHS.loans).map((request) => request.headers.get(PARTICIPANT_HEADER))).toEqual([
      otherOrganization.participant.id,
    ]);
  });

  it('401: re-checks the identity and goes to login with the not-registered notice; signing in comes back', async () => {
    const app = renderAppOverHttp(APP_PATHS.messages);
    await signedIn(app, 'Organization 2');
    app.server.signedIn = false;

    const error = await app.failingProductCall();

    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(401);
    expect(await screen.findByRole('button', { name: TEXTS.logIn })).toBeEnabled();
    expect(screen.getByRole('heading', { name: TEXTS.notRegisteredTitle })).toBeInTheDocument();
    expect(app.location().pathname).toBe(APP_PATHS.login);
    // SPEC's unauthorized flag, and the interrupted screen to come back to.
    const search = new URLSearchParams(app.location().search);
    expect(search.get('unauthorized')).toBe('true');
    expect(search.get('returnTo')).toBe(APP_PATHS.messages);
    expect(app.requestsTo(PATHS.figureInfo)).toHaveLength(2);
    await act(async () => screen.getByRole('button', { name: TEXTS.logIn }).click());
    expect(app.startHostedLogin).toHaveBeenCalledWith(APP_PATHS.messages);
  });

  it("a returnTo that is not one of the app's screens is dropped: signing in goes to the dashboard", async () => {
    const app = renderAppOverHttp(`${APP_PATHS.login}?unauthorized=true&returnTo=${encodeURIComponent('//evil.test/registry/dashboard')}`);
    app.server.signedIn = false;
    const logIn = await screen.findByRole('button', { name: TEXTS.logIn }, { timeout: 10_000 });
    await act(async () => logIn.click());
    expect(app.startHostedLogin).toHaveBeenCalledWith(undefined);
  });

  const invalidParticipantAnswers = {
    '403': () => failure(403, 'Forbidden', TEXTS.invalidParticipantBody),
    "400 whose body says 'Invalid participant'": () => failure(400, 'Bad Request', `${TEXTS.invalidParticipantBody}: not a member`),
  };
  for (const [name, answer] of Object.entries(invalidParticipantAnswers)) {
    it(`Invalid participant (${name}): drops the stored organization, toasts and goes to the dashboard on the default`, async () => {
      const app = renderAppOverHttp(APP_PATHS.messages);
      await signedIn(app, 'Organization 2');
      // The user has just lost organization 2; the default one still answers (screens on /dashboard call it too).
      app.server.loans = (request) => (request.headers.get(PARTICIPANT_HEADER) === otherOrganization.participant.id ? answer() : noLoans());

      await app.failingProductCall();

      expect(await screen.findByText(TEXTS.invalidParticipantToast)).toBeInTheDocument();
      expect(await screen.findByTestId('current-organization')).toHaveTextContent('Organization 1');
      expect(app.location().pathname).toBe(APP_PATHS.dashboard);
      // The account is reloaded without the dropped organization; the default is stored instead.
      expect(app.requestsTo(PATHS.usersMe).at(-1)?.headers.get(PARTICIPANT_HEADER)).toBeNull();
      expect(localStorage.getItem(STORAGE_KEYS.participantId)).toBe(defaultOrganization.participant.id);
    });
  }

  const ignoredAnswers = {
    '400 for another reason': () => failure(400, 'Bad Request', 'limit must be one of 10, 20, 50, 100'),
    '404': () => failure(404, 'Not Found', 'Loan not found'),
    '500': () => failure(500, 'Internal Server Error', 'Internal Server Error'),
  };
  for (const [name, answer] of Object.entries(ignoredAnswers)) {
    it(`${name}: is the screen's to show; the session, page and organization stay`, async () => {
      const app = renderAppOverHttp(APP_PATHS.messages);
      await signedIn(app, 'Organization 2');
      app.server.loans = () => answer();

      const error = await app.failingProductCall();

      expect(error).toBeInstanceOf(HttpError);
      expect(app.location().pathname).toBe(APP_PATHS.messages);
      expect(screen.getByRole('heading', { name: 'Messages' })).toBeInTheDocument();
      expect(screen.queryByText(TEXTS.invalidParticipantToast)).not.toBeInTheDocument();
      expect(app.requestsTo(PATHS.figureInfo)).toHaveLength(1);
      expect(app.requestsTo(PATHS.usersMe)).toHaveLength(1);
      expect(localStorage.getItem(STORAGE_KEYS.participantId)).toBe(otherOrganization.participant.id);
    });
  }
});
