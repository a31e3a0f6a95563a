// @vitest-environment jsdom
// The messages screen beyond its machines' models: every bulk text, relative times, what a
// message leads to, the app-wide unread count (navigation badge) after loads, actions and
// opening, focus after a row leaves or is answered, a 409 answer, and 401 / 403 reaching the
// session through the real client.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ky from 'ky';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../src/contract/http-error';
import type { Message, MessageBulkPatch } from '../../src/contract/messages';
import { PATHS } from '../../src/contract/paths';
import { APP_PATHS } from '../../src/domain/app-paths';
import { STORAGE_KEYS } from '../../src/domain/constants';
import { formatDateTime } from '../../src/domain/format';
import { MESSAGES_TEXTS as T, type BulkMessageAction } from '../../src/domain/messages';
import { TEXTS } from '../../src/domain/texts';
import { createHttpPlatform } from '../../src/web/app/platform';
import { createRoutes } from '../../src/web/app/routes';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';
import { sampleMessage, sampleMessageList, withData } from './support/message-fixtures';
import { archivedSwitch, bulkGroup, messageItem, messageItems, openMessagesScreen, toastTexts } from './support/messages-screen';

const user = userEvent.setup();
const three = [sampleMessage(1), sampleMessage(2, { messageData: { read: true } }), sampleMessage(3)];

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/messages/messages-screen'),
    import('../../src/web/screens/asset/asset-screen'),
    import('../../src/web/screens/assets/pool-assets-screen'),
  ]);
});

async function openWith(messages: readonly Message[], totals: { totalCount?: number; unreadCount?: number } = {}, path?: string) {
  const opened = await openMessagesScreen(path);
  await opened.calls.settle('listMessages', { value: sampleMessageList(messages, totals) });
  await screen.findByRole('list', { name: T.tableLabel });
  return opened;
}

const messagesLink = () => screen.getByRole('link', { name: /^Messages/ });

describe('messages screen', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  const bulkCases: [BulkMessageAction, string, MessageBulkPatch][] = [
    ['markRead', T.markRead, { uuids: [], read: true }],
    ['markUnread', T.markUnread, { uuids: [], read: false }],
    ['archive', T.archive, { uuids: [], archived: true }],
    ['unarchive', T.unarchive, { uuids: [], archived: false }],
  ];
  for (const [action, label, body] of bulkCases) {
    it(`bulk ${label}: the selection sent, '${T.bulkSucceeded(7, action)}' from the server's count, the page again, the selection cleared`, async () => {
      const { calls } = await openWith(three);
      await user.click(screen.getByRole('checkbox', { name: T.selectAll }));
      expect(screen.getByText(T.selectedCount(3))).toBeInTheDocument();
      const button = bulkGroup().getByRole('button', { name: label });
      await user.click(button);
      await calls.settle('updateMessages', { value: { messagesUpdated: 7 } });
      expect(calls.bodies('updateMessages')).toEqual([{ ...body, uuids: three.map((m) => m.uuid) }]);
      await waitFor(() =>
        expect(toastTexts()).toContain(
          `7 message(s) ${{ markRead: 'marked as read', markUnread: 'marked as unread', archive: 'archived', unarchive: 'unarchived' }[action]}`,
        ),
      );
      await calls.settle('listMessages', { value: sampleMessageList(three) });
      await waitFor(() => expect(screen.getByRole('checkbox', { name: T.selectAll })).not.toBeChecked());
      expect(screen.queryByText(T.selectedCount(3))).not.toBeInTheDocument();
      // The focus stays on the button that was pressed.
      expect(document.activeElement).toBe(button);
    });
  }

  it("a failed bulk action says 'Failed to update message(s)' and keeps the selection", async () => {
    const { calls } = await openWith(three);
    await user.click(screen.getByRole('checkbox', { name: T.selectAll }));
    await user.click(bulkGroup().getByRole('button', { name: T.archive }));
    await calls.settle('updateMessages', { error: new HttpError(500, 'Internal Server Error') });
    await waitFor(() => expect(toastTexts()).toContain('Failed to update message(s)'));
    expect(screen.getByText(T.selectedCount(3))).toBeInTheDocument();
    expect(calls.pendingCount('listMessages')).toBe(0);
  });

  it('shows times relative in minutes, hours and days, the absolute time in the title', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = new Date('2025-06-10T12:00:00Z');
    vi.setSystemTime(now);
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
    const messages = [
      sampleMessage(1, { created: at(5 * 60_000) }),
      sampleMessage(2, { created: at(3 * 3_600_000 + 59 * 60_000) }),
      sampleMessage(3, { created: at(2 * 86_400_000 + 60_000) }),
      sampleMessage(4, { created: at(90 * 86_400_000) }),
    ];
    await openWith(messages);
    const times = messageItems().map((item) => item.querySelector('time'));
    expect(times.map((time) => time?.textContent)).toEqual(['5 minutes ago', '3 hours ago', '2 days ago', '90 days ago']);
    expect(times[0]).toHaveAttribute('datetime', messages[0]?.created);
    expect(times[0]).toHaveAttribute('title', formatDateTime(messages[0]?.created ?? ''));
  });

  it('leads loans and transfer requests to the asset page, pools to their assets and relationships to the partner view; batches have no link', async () => {
    const messages = [
      sampleMessage(1, { targetType: 'LOAN', targetId: 'loan-1' }),
      sampleMessage(2, { targetType: 'REQUEST_EXECUTE_CONTRACT', targetId: 'loan-2' }),
      sampleMessage(3, { targetType: 'POOL', targetId: 'pool-3' }),
      sampleMessage(4, { targetType: 'RELATIONSHIP', targetId: 'relationship-4' }),
      sampleMessage(5, { targetType: 'BATCH' }),
    ];
    await openWith(messages);
    expect(messageItem(messages[0]!.uuid).getByRole('link', { name: T.openAsset })).toHaveAttribute('href', APP_PATHS.asset('loan-1'));
    expect(messageItem(messages[1]!.uuid).getByRole('link', { name: T.openAsset })).toHaveAttribute('href', APP_PATHS.asset('loan-2'));
    expect(messageItem(messages[2]!.uuid).getByRole('link', { name: T.openPool })).toHaveAttribute('href', APP_PATHS.poolAssets('pool-3'));
    expect(messageItem(messages[3]!.uuid).getByRole('link', { name: T.openPartner })).toHaveAttribute(
      'href',
      APP_PATHS.partnerProfile('relationship-4'),
    );
    expect(messageItem(messages[4]!.uuid).queryByRole('link')).not.toBeInTheDocument();
  });

  it('keeps the unread badge true: the count of each load, and after opening a message the count asked again', async () => {
    const { app, calls } = await openMessagesScreen();
    const countCalls = vi.fn(async () => 4);
    app.fake.api.unreadMessageCount = countCalls;
    await calls.settle('listMessages', { value: sampleMessageList(three, { unreadCount: 12 }) });
    await waitFor(() => expect(messagesLink()).toHaveAccessibleName('Messages, 12 unread'));
    expect(screen.getByTestId('unread-badge')).toHaveTextContent('9+');
    expect(screen.getByText(T.unreadCount(12))).toBeInTheDocument();

    await user.click(messageItem(three[0]!.uuid).getByRole('button', { name: T.markRead }));
    await calls.settle('updateMessage', { value: withData(three[0]!, { read: true }) });
    await calls.settle('listMessages', { value: sampleMessageList(three, { unreadCount: 11 }) });
    await waitFor(() => expect(messagesLink()).toHaveAccessibleName('Messages, 11 unread'));

    // Opening marks it read first (the screen is left, so the count is asked again), then goes.
    await user.click(messageItem(three[2]!.uuid).getByRole('link', { name: T.openAsset }));
    expect(app.location().pathname).toBe(APP_PATHS.messages);
    await calls.settle('updateMessage', { value: withData(three[2]!, { read: true }) });
    await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.asset(three[2]!.targetId)));
    expect(calls.bodies('updateMessage')).toEqual([
      { uuid: three[0]!.uuid, read: true },
      { uuid: three[2]!.uuid, read: true },
    ]);
    await waitFor(() => expect(messagesLink()).toHaveAccessibleName('Messages, 4 unread'));
    expect(countCalls).toHaveBeenCalled();
  });

  it('moves the focus to the row now in place of one archived out of the view, and to the answer that replaces Confirm', async () => {
    const actionable = sampleMessage(4, { messageData: { isActionable: true } });
    const { calls } = await openWith([...three, actionable]);
    const archive = messageItem(three[1]!.uuid).getByRole('button', { name: T.archive });
    await user.click(archive);
    await calls.settle('updateMessage', { value: withData(three[1]!, { archived: true }) });
    expect(await screen.findByText('1 message(s) archived')).toBeInTheDocument();
    await calls.settle('listMessages', { value: sampleMessageList([three[0]!, three[2]!, actionable]) });
    await waitFor(() => expect(document.getElementById(`message-row-${three[1]!.uuid}`)).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(document.getElementById(`message-row-${three[2]!.uuid}`)));

    await user.click(messageItem(actionable.uuid).getByRole('button', { name: T.confirm }));
    await calls.settle('updateMessage', { value: withData(actionable, { response: true, read: true }) });
    await waitFor(() => expect(document.activeElement).toHaveTextContent(T.answeredConfirmed));
    expect(toastTexts()).toContain('Message confirmed');
  });

  it("a 409 (answered meanwhile) says 'Unable to reject message' and loads the page again, which shows the answer", async () => {
    const actionable = sampleMessage(4, { messageData: { isActionable: true } });
    const { calls } = await openWith([actionable]);
    await user.click(messageItem(actionable.uuid).getByRole('button', { name: T.reject }));
    await calls.settle('updateMessage', {
      error: new HttpError(409, JSON.stringify({ message: 'This message has already been answered' })),
    });
    await waitFor(() => expect(toastTexts()).toContain('Unable to reject message'));
    await calls.settle('listMessages', { value: sampleMessageList([withData(actionable, { response: true, read: true })]) });
    expect(await messageItem(actionable.uuid).findByText(T.answeredConfirmed)).toBeInTheDocument();
    expect(messageItem(actionable.uuid).queryByRole('button', { name: T.reject })).not.toBeInTheDocument();
  });

  it('the Archived filter lists archived messages too, marked Archived, and goes back to page 1', async () => {
    const { app, calls } = await openWith(three, { totalCount: 30 }, `${APP_PATHS.messages}?page=2&limit=10`);
    await user.click(archivedSwitch());
    expect(app.location().search).toBe('?page=1&limit=10&archived=true');
    const archived = sampleMessage(9, { messageData: { archived: true, read: true } });
    await calls.settle('listMessages', { value: sampleMessageList([archived, ...three]) });
    expect(await messageItem(archived.uuid).findByText(T.archivedBadge)).toBeInTheDocument();
    expect(messageItem(archived.uuid).getByRole('button', { name: T.unarchive })).toBeInTheDocument();
    expect(calls.bodies('listMessages').at(-1)).toEqual({ limit: 10, offset: 0, archived: 'true' });
    // Back: archived hidden again, page 2.
    await act(() => app.router.navigate(-1));
    await calls.settle('listMessages', { value: sampleMessageList(three, { totalCount: 30 }) });
    await waitFor(() => expect(archivedSwitch()).not.toBeChecked());
    expect(calls.bodies('listMessages').at(-1)).toEqual({ limit: 10, offset: 10, archived: 'false' });
  });
});

describe('messages screen over the real client', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
  });

  /** The app over HTTP with a fake fetch: signed in with two organizations; /messages answers `messages(request)`. */
  function renderOverHttp(messages: (request: Request) => Response) {
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const organizations = [sampleOrganization(1, true), sampleOrganization(2)];
    const requests: Request[] = [];
    let signedIn = true;
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      requests.push(request);
      const path = new URL(request.url).pathname;
      if (!signedIn) return json(401, { message: 'Authentication required' });
      if (path === PATHS.figureInfo) return json(200, sampleIdentity);
      if (path === PATHS.usersMe) return json(200, { user: sampleUser, participant: null });
      if (path === PATHS.userParticipants(sampleUser.id)) return json(200, organizations);
      if (path === PATHS.messagesUnreadCount) return json(200, { unreadCount: 0 });
      if (path === PATHS.messages) {
        const answer = messages(request);
        if (answer.status === 401) signedIn = false;
        return answer;
      }
      return json(200, { loans: [], totalCount: 0 });
    });
    const platform = createHttpPlatform({
      baseUrl: 'http://registry.test',
      ky: ky.create({ fetch }),
      startHostedLogin: vi.fn(),
      download: vi.fn(),
    });
    const router = createMemoryRouter(createRoutes(platform), { initialEntries: [APP_PATHS.messages] });
    render(<RouterProvider router={router} />);
    return { router, requests, json };
  }

  it('401: goes to login with the not-registered notice', async () => {
    const app = renderOverHttp(() => new Response(JSON.stringify({ message: 'Authentication required' }), { status: 401 }));
    expect(await screen.findByRole('heading', { name: TEXTS.notRegisteredTitle }, { timeout: 10_000 })).toBeInTheDocument();
    expect(app.router.state.location.pathname).toBe(APP_PATHS.login);
  });

  it("403 'Invalid participant': the stored organization dropped, the toast, the dashboard", async () => {
    localStorage.setItem(STORAGE_KEYS.participantId, sampleOrganization(2).participant.id);
    const app = renderOverHttp(
      (request) =>
        new Response(
          JSON.stringify({
            message: request.headers.get('x-participant-id') === sampleOrganization(2).participant.id ? TEXTS.invalidParticipantBody : 'ok',
          }),
          {
            status: request.headers.get('x-participant-id') === sampleOrganization(2).participant.id ? 403 : 200,
          },
        ),
    );
    expect(await screen.findByText(TEXTS.invalidParticipantToast, undefined, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(app.router.state.location.pathname).toBe(APP_PATHS.dashboard));
    expect(localStorage.getItem(STORAGE_KEYS.participantId)).toBe(sampleOrganization(1).participant.id);
  });
});
