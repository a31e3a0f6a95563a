// @vitest-environment jsdom
// Model-based test of the app-wide message-count machine through the app: sign-in and an
// organization switch (it loads that organization's count, the old one gone at once), the badge
// on Messages in the navigation and the dashboard's Messages tile in every state, the tile's
// retry, and sign-out. The messages screen's reports (`messageCount.changed`, `.refresh`) come
// from a stand-in on the dashboard that sends them to the actor as that screen does, through
// MessageCountActorContext. Then the badge in the drawer and the collapsed navigation, no
// refetch on mount, focus or reconnect, and 401 / 'Invalid participant' through the real client.
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ky from 'ky';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { messageCountMachine } from '../../machines/message-count';
import type { UserParticipant } from '../../src/contract/participants';
import { PATHS } from '../../src/contract/paths';
import { APP_PATHS, ROUTE_PATTERNS } from '../../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../../src/domain/constants';
import { MESSAGES_TEXTS } from '../../src/domain/messages';
import { NAVIGATION_LABELS, TEXTS } from '../../src/domain/texts';
import { MessageCountActorContext } from '../../src/web/app/actor-contexts';
import { createHttpPlatform } from '../../src/web/app/platform';
import { createRoutes } from '../../src/web/app/routes';
import type { AppPlatform } from '../../src/web/app/services';
import { DashboardScreen } from '../../src/web/screens/dashboard/dashboard-screen';
import { createModelWalker } from '../machines/support/model-coverage';
import { REPORTED, serverError, walk } from '../machines/walks/message-count';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';
import { createFakeRegistryApi } from './support/fake-registry-api';

const organizations = [sampleOrganization(1, true), sampleOrganization(2)];

const walker = createModelWalker(messageCountMachine, walk);

const user = userEvent.setup();
const STAND_IN = { report: `Report ${REPORTED} unread`, refresh: 'Ask for the unread count again' };

/** Stands in for the messages screen: it reports to the app-wide actor as that screen does. */
function MessagesScreenStandIn() {
  const count = MessageCountActorContext.useActorRef();
  return (
    <div>
      <button type="button" onClick={() => count.send({ type: 'messageCount.changed', unreadCount: REPORTED })}>
        {STAND_IN.report}
      </button>
      <button type="button" onClick={() => count.send({ type: 'messageCount.refresh' })}>
        {STAND_IN.refresh}
      </button>
    </div>
  );
}

/** The app's routes with the stand-in rendered under the dashboard. */
function withStandIn(routes: RouteObject[]): RouteObject[] {
  const shell = routes[0]?.children?.find((route) => route.children?.some((child) => child.path === ROUTE_PATTERNS.dashboard));
  const dashboard = shell?.children?.find((child) => child.path === ROUTE_PATTERNS.dashboard);
  if (!dashboard) throw new Error('no dashboard route');
  delete dashboard.lazy;
  dashboard.element = (
    <>
      <DashboardScreen />
      <MessagesScreenStandIn />
    </>
  );
  return routes;
}

interface CountCall {
  readonly signal: AbortSignal | undefined;
  resolve(count: number): void;
  reject(error: unknown): void;
}

/** The app over the fake API; unread-count calls stay pending until the test settles the live one. */
function renderApp(options: { path?: string; standIn?: boolean; organizations?: readonly UserParticipant[] } = {}) {
  const fake = createFakeRegistryApi(options.organizations ?? organizations);
  const countCalls: CountCall[] = [];
  fake.api.unreadMessageCount = vi.fn(
    (signal?: AbortSignal) =>
      new Promise<number>((resolve, reject) => {
        countCalls.push({ signal, resolve, reject });
      }),
  );
  const platform: AppPlatform = { createApi: () => fake.api, startHostedLogin: vi.fn(), download: vi.fn() };
  const routes = createRoutes(platform);
  const router = createMemoryRouter(options.standIn ? withStandIn(routes) : routes, {
    initialEntries: [options.path ?? APP_PATHS.dashboard],
  });
  render(<RouterProvider router={router} />);
  /** Calls not aborted and not settled: at most one, the one the machine waits for. */
  const live = () => countCalls.filter((call) => !call.signal?.aborted);
  const settleCount = async (outcome: { value: number } | { error: unknown }) => {
    await waitFor(() => expect(live()).toHaveLength(1));
    const call = live()[0] as CountCall;
    countCalls.splice(countCalls.indexOf(call), 1);
    if ('error' in outcome) call.reject(outcome.error);
    else call.resolve(outcome.value);
  };
  const signIn = async () => {
    await fake.settle('figureInfo', { value: sampleIdentity });
    await fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
    await screen.findByRole('heading', { name: `Welcome, ${sampleUser.firstName}` }, { timeout: 10_000 });
  };
  return {
    fake,
    router,
    live,
    settleCount,
    signIn,
    countCallsMade: () => vi.mocked(fake.api.unreadMessageCount).mock.calls.length,
    location: () => router.state.location,
  };
}

// While the drawer is open the page behind it is inert: the side navigation is queried hidden too.
const sideNavigation = () => screen.getAllByRole('navigation', { name: 'Main', hidden: true })[0] as HTMLElement;
const badge = () => within(sideNavigation()).queryByTestId('unread-badge');
const messagesLinkName = (count: number | null) =>
  count ? `${NAVIGATION_LABELS.messages}, ${MESSAGES_TEXTS.unreadCount(count)}` : NAVIGATION_LABELS.messages;
const countLine = () => screen.getByTestId('unread-count');
const messagesTile = () =>
  within(screen.getByRole('list', { name: 'Dashboard' })).getByRole('link', { name: new RegExp(`^${NAVIGATION_LABELS.messages}`) });
const retryButton = () => screen.queryByRole('button', { name: MESSAGES_TEXTS.unreadCountRetry });

/** The badge and the link's name for this count: '9+' above 9, none for 0 or unknown. */
async function expectBadge(count: number | null) {
  await waitFor(() => expect(within(sideNavigation()).getByRole('link', { name: messagesLinkName(count) })).toBeInTheDocument());
  if (count) expect(badge()).toHaveTextContent(count > 9 ? '9+' : String(count));
  else expect(badge()).toBeNull();
}

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/dashboard/dashboard-screen'),
    import('../../src/web/screens/assets/assets-screen'),
  ]);
});

describe('message-count machine, driven through the navigation badge and the dashboard tile', () => {
  // The session remembers the organization chosen last: each path starts from the default one.
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = renderApp({ standIn: true });
      let signedIn = false;
      let organization = 1;
      /** The count the badge and tile should show (null: none). */
      let expected: number | null = null;

      await path.test({
        states: {
          idle: async () => {
            await waitFor(() => expect(app.live()).toHaveLength(0));
            expect(screen.queryByTestId('unread-badge')).toBeNull();
            expect(screen.queryByRole('link', { name: /unread/ })).toBeNull();
            if (!signedIn) expect(app.countCallsMade()).toBe(0);
          },
          active: async () => {
            expect(await screen.findByTestId('current-organization')).toHaveTextContent(`Organization ${organization}`);
            await expectBadge(expected);
          },
          'active.loading': async () => {
            await waitFor(() => expect(app.live()).toHaveLength(1));
            expect(await screen.findByText(MESSAGES_TEXTS.unreadCountLoading)).toBeInTheDocument();
            expect(messagesTile()).toContainElement(countLine());
            expect(retryButton()).toBeNull();
          },
          'active.loaded': async () => {
            await waitFor(() => expect(countLine()).toHaveTextContent(MESSAGES_TEXTS.unreadCount(expected as number)));
            expect(messagesTile()).toHaveAttribute('href', APP_PATHS.messages);
            expect(retryButton()).toBeNull();
          },
          'active.failed': async () => {
            expect(await screen.findByText(MESSAGES_TEXTS.unreadCountFailed)).toBeInTheDocument();
            expect(retryButton()).toBeEnabled();
            expect(badge()).toBeNull();
          },
        },
        events: {
          'messageCount.load': async () => {
            expected = null;
            if (!signedIn) {
              await app.signIn();
              signedIn = true;
              return;
            }
            // Another organization: its count, nothing of the previous one's meanwhile.
            const next = organization === 1 ? 2 : 1;
            await user.click(screen.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }));
            await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: `Organization ${next}` }));
            organization = next;
            expect(await screen.findByTestId('current-organization')).toHaveTextContent(`Organization ${next}`);
            expect(badge()).toBeNull();
          },
          'messageCount.reset': async () => {
            expected = null;
            await user.click(screen.getByRole('button', { name: TEXTS.signOut }));
          },
          'done: fetchUnreadCount': async ({ event }) => {
            expected = (event as unknown as { output: number }).output;
            await app.settleCount({ value: expected });
          },
          'error: fetchUnreadCount': async ({ event }) => {
            expected = null;
            await app.settleCount({ error: (event as unknown as { error: unknown }).error });
          },
          'messageCount.changed': async () => {
            expected = REPORTED;
            await user.click(screen.getByRole('button', { name: STAND_IN.report }));
          },
          'messageCount.refresh': async () => {
            const before = app.countCallsMade();
            // After a failure the tile offers it; otherwise the messages screen asks.
            const retry = retryButton();
            await user.click(retry ?? screen.getByRole('button', { name: STAND_IN.refresh }));
            await waitFor(() => expect(app.countCallsMade()).toBe(before + 1));
          },
        },
      });
      // Every load acted for the organization current when it was made (the fake API has no
      // header to check; the real client's header is checked below).
      expect(app.live().length).toBeLessThanOrEqual(1);
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});

describe('the unread badge and the Messages tile', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  it('no badge for none; the tile says 0 unread and leads to /messages', async () => {
    const app = renderApp();
    await app.signIn();
    await app.settleCount({ value: 0 });
    await waitFor(() => expect(countLine()).toHaveTextContent(MESSAGES_TEXTS.unreadCount(0)));
    await expectBadge(0);
    await user.click(messagesTile());
    // The messages screen is a lazy route: the location follows once it has loaded.
    await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.messages));
  });

  it('shows 9 as it is and the number in the name of the link, also when the navigation is collapsed', async () => {
    const app = renderApp();
    await app.signIn();
    await app.settleCount({ value: 9 });
    await expectBadge(9);
    await user.click(screen.getByRole('button', { name: 'Collapse navigation' }));
    const link = within(sideNavigation()).getByRole('link', { name: 'Messages, 9 unread' });
    expect(link).toHaveAttribute('title', 'Messages, 9 unread');
    expect(within(link).getByTestId('unread-badge')).toHaveTextContent(/^9$/);
  });

  it("the mobile drawer's Messages entry carries the same badge and name", async () => {
    const app = renderApp();
    await app.signIn();
    await app.settleCount({ value: 27 });
    await expectBadge(27);
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const drawer = await screen.findByRole('dialog');
    const link = within(drawer).getByRole('link', { name: 'Messages, 27 unread' });
    expect(within(link).getByTestId('unread-badge')).toHaveTextContent(/^9\+$/);
    // The badge is not what names the link: screen readers hear the number, not '9+'.
    expect(within(drawer).queryByRole('link', { name: /9\+/ })).toBeNull();
  });

  it('is not loaded again on mount, focus, visibility or reconnect, and not retried after a failure', async () => {
    const app = renderApp();
    await app.signIn();
    await app.settleCount({ value: 4 });
    await expectBadge(4);
    // The dashboard mounts again: the tile reads the app-wide count.
    await act(() => app.router.navigate(APP_PATHS.assets));
    await act(() => app.router.navigate(APP_PATHS.dashboard));
    await waitFor(() => expect(countLine()).toHaveTextContent(MESSAGES_TEXTS.unreadCount(4)));
    act(() => {
      window.dispatchEvent(new Event('focus'));
      window.dispatchEvent(new Event('online'));
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.countCallsMade()).toBe(1);

    // A failure is not retried by itself.
    await user.click(screen.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Organization 2' }));
    await app.settleCount({ error: serverError });
    expect(await screen.findByText(MESSAGES_TEXTS.unreadCountFailed)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.countCallsMade()).toBe(2);
    expect(app.live()).toHaveLength(0);
  });

  it('a switch drops the old count at once and a late answer for the old organization is never shown', async () => {
    const app = renderApp();
    await app.signIn();
    await user.click(screen.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Organization 2' }));
    expect(await screen.findByTestId('current-organization')).toHaveTextContent('Organization 2');
    // The first organization's call was aborted; its late answer changes nothing.
    const calls = vi.mocked(app.fake.api.unreadMessageCount).mock.calls;
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]?.[0]?.aborted).toBe(true);
    await app.settleCount({ value: 2 });
    await expectBadge(2);
    expect(countLine()).toHaveTextContent(MESSAGES_TEXTS.unreadCount(2));
  });
});

describe('the unread count through the real client', () => {
  const BASE_URL = 'http://registry.test';
  const [first, second] = organizations as [UserParticipant, UserParticipant];
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const failure = (status: number, error: string, message: string) => json(status, { statusCode: status, error, message });

  function renderOverHttp(unread: (request: Request) => Response) {
    const server = { signedIn: true, unread, requests: [] as Request[] };
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      server.requests.push(request);
      const path = new URL(request.url).pathname;
      if (!server.signedIn) return failure(401, 'Unauthorized', 'Authentication required');
      if (path === PATHS.figureInfo) return json(200, sampleIdentity);
      if (path === PATHS.usersMe) return json(200, { user: sampleUser, participant: null });
      if (path === PATHS.userParticipants(sampleUser.id)) return json(200, organizations);
      if (path === PATHS.messagesUnreadCount) return server.unread(request);
      if (path === PATHS.loans) return json(200, { loans: [], totalCount: 0 });
      if (path === PATHS.jobs) return json(200, []);
      return failure(404, 'Not Found', 'Not found');
    });
    const platform = createHttpPlatform({ baseUrl: BASE_URL, ky: ky.create({ fetch }), startHostedLogin: vi.fn(), download: vi.fn() });
    const router = createMemoryRouter(createRoutes(platform), { initialEntries: [APP_PATHS.dashboard] });
    render(<RouterProvider router={router} />);
    const countRequests = () => server.requests.filter((request) => new URL(request.url).pathname === PATHS.messagesUnreadCount);
    return { server, router, countRequests };
  }

  beforeEach(() => localStorage.clear());
  afterEach(cleanup);

  it("asks for the current organization's count and shows it", async () => {
    const app = renderOverHttp(() => json(200, { unreadCount: 15 }));
    await expectBadgeSoon(15);
    expect(app.countRequests().map((request) => request.headers.get(PARTICIPANT_HEADER))).toEqual([first.participant.id]);
  });

  it("'Invalid participant' reaches the session: the stored organization is dropped and the default's count shows", async () => {
    localStorage.setItem(STORAGE_KEYS.participantId, second.participant.id);
    const app = renderOverHttp((request) =>
      request.headers.get(PARTICIPANT_HEADER) === second.participant.id
        ? failure(403, 'Forbidden', TEXTS.invalidParticipantBody)
        : json(200, { unreadCount: 5 }),
    );
    expect(await screen.findByText(TEXTS.invalidParticipantToast, undefined, { timeout: 10_000 })).toBeInTheDocument();
    expect(await screen.findByTestId('current-organization')).toHaveTextContent('Organization 1');
    await expectBadgeSoon(5);
    expect(localStorage.getItem(STORAGE_KEYS.participantId)).toBe(first.participant.id);
    expect(app.countRequests().map((request) => request.headers.get(PARTICIPANT_HEADER))).toEqual([
      second.participant.id,
      first.participant.id,
    ]);
  });

  it('401 reaches the session: identity is checked again and the user goes to login with the notice', async () => {
    // The session has expired: every call now answers 401.
    const app = renderOverHttp(() => {
      app.server.signedIn = false;
      return failure(401, 'Unauthorized', 'Authentication required');
    });
    expect(await screen.findByRole('button', { name: TEXTS.logIn }, { timeout: 10_000 })).toBeEnabled();
    expect(screen.getByRole('heading', { name: TEXTS.notRegisteredTitle })).toBeInTheDocument();
    expect(`${app.router.state.location.pathname}${app.router.state.location.search}`).toBe(APP_PATHS.loginUnauthorized);
    expect(app.server.requests.filter((request) => new URL(request.url).pathname === PATHS.figureInfo)).toHaveLength(2);
    expect(app.countRequests()).toHaveLength(1);
  });

  async function expectBadgeSoon(count: number) {
    await waitFor(() => expect(within(sideNavigation()).getByRole('link', { name: messagesLinkName(count) })).toBeInTheDocument(), {
      timeout: 10_000,
    });
  }
});
