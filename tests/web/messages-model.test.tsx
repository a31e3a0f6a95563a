// @vitest-environment jsdom
// Model-based test of the messages machine through the signed-in app: every transition of its
// statechart is walked on /messages (a page loaded, a message acted on, its change reloading the
// page, bulk actions with and without a selection) over a fake API whose message calls the test
// settles. The list itself (paging, filter, selection) is walked in paged-list-model.test.tsx;
// the screen's other behaviour (every bulk text, the badge, focus, times) follows.
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { messagesMachine } from '../../machines/messages';
import type { HttpError } from '../../src/contract/http-error';
import type { Message, MessageBulkPatch } from '../../src/contract/messages';
import { APP_PATHS } from '../../src/domain/app-paths';
import { MESSAGES_TEXTS as T, messagePreview } from '../../src/domain/messages';
import { createModelWalker } from '../machines/support/model-coverage';
import { first, pageOfThree, walk } from '../machines/walks/messages';
import { withData } from './support/message-fixtures';
import { archivedSwitch, bulkGroup, messageItem, messageList, openMessagesScreen, toastTexts } from './support/messages-screen';

const walker = createModelWalker(messagesMachine, walk);

const user = userEvent.setup();
const outputOf = (event: unknown) => (event as { output: unknown }).output;
const errorOf = (event: unknown) => (event as { error: HttpError }).error;
const checkbox = (message: Message) =>
  screen.getByRole('checkbox', { name: T.selectOne(messagePreview(message.messageData.message).text) });

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/messages/messages-screen')]);
});

describe('messages machine, driven through the messages screen', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { calls } = await openMessagesScreen(APP_PATHS.messages);
      await path.test({
        states: {
          idle: async ({ context }) => {
            expect(screen.getByRole('heading', { level: 1, name: T.title })).toBeInTheDocument();
            if (context.unreadCount !== null) expect(await screen.findByText(T.unreadCount(context.unreadCount))).toBeInTheDocument();
            for (const button of bulkGroup().getAllByRole('button', { name: /^(Mark read|Mark unread|Archive|Unarchive)$/ })) {
              expect(button).toHaveAttribute('aria-busy', 'false');
            }
            expect(calls.pendingCount('updateMessages')).toBe(0);
          },
          updating: async ({ context }) => {
            await waitFor(() => expect(calls.pendingCount('updateMessages')).toBe(1));
            const body = calls.pendingBodies('updateMessages')[0] as MessageBulkPatch;
            expect(body).toEqual({ uuids: context.bulk?.uuids, archived: true });
            expect(bulkGroup().getByRole('button', { name: T.archive })).toHaveAttribute('aria-busy', 'true');
          },
        },
        events: {
          // A later load: Refresh.
          'list.loaded': async ({ event }) => {
            if (calls.pendingCount('listMessages') === 0) await user.click(screen.getByRole('button', { name: T.refresh }));
            await calls.settle('listMessages', {
              value: { ...pageOfThree, unreadCount: (outputOf(event) as { unreadCount: number }).unreadCount },
            });
            await waitFor(() => expect(messageList()).toHaveAttribute('aria-busy', 'false'));
          },
          'message.act': async () => {
            await user.click(messageItem(first.uuid).getByRole('button', { name: T.readMore }));
            expect(messageItem(first.uuid).getByText(first.messageData.message)).toBeInTheDocument();
          },
          // A change of the message went through: its read toggle, answered by the server; the page comes again.
          'message.changed': async () => {
            await user.click(messageItem(first.uuid).getByRole('button', { name: T.markRead }));
            await calls.settle('updateMessage', { value: withData(first, { read: true }) });
            await waitFor(() => expect(toastTexts()).toContain('1 message(s) marked as read'));
            await waitFor(() => expect(calls.pendingCount('listMessages')).toBe(1));
          },
          'bulk.apply': async ({ event }) => {
            const { uuids } = event as unknown as { uuids: readonly string[] };
            if (uuids.length > 0) await user.click(checkbox(first));
            await user.click(bulkGroup().getByRole('button', { name: T.archive }));
            if (uuids.length === 0) {
              await waitFor(() => expect(toastTexts()).toContain('Must select at least one message!'));
              expect(calls.pendingCount('updateMessages')).toBe(0);
            }
          },
          'done: updateMessages': async ({ event }) => {
            await calls.settle('updateMessages', { value: outputOf(event) });
            await waitFor(() => expect(toastTexts()).toContain('1 message(s) archived'));
            // The page again, the selection cleared.
            await waitFor(() => expect(calls.pendingCount('listMessages')).toBe(1));
            expect(checkbox(first)).not.toBeChecked();
          },
          'error: updateMessages': async ({ event }) => {
            await calls.settle('updateMessages', { error: errorOf(event) });
            await waitFor(() => expect(toastTexts()).toContain(T.bulkFailed));
            // The selection stays, to try again.
            expect(checkbox(first)).toBeChecked();
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

describe('messages screen', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('opens on page 1, 10 per page, archived hidden; a malformed URL is corrected in place', async () => {
    const { app, calls } = await openMessagesScreen();
    await calls.settle('listMessages', { value: pageOfThree });
    await screen.findByRole('list', { name: T.tableLabel });
    // The default view needs nothing written: the URL says it by leaving it out.
    expect(app.location().search).toBe('');
    expect(calls.bodies('listMessages')).toEqual([{ limit: 10, offset: 0, archived: 'false' }]);
    expect(archivedSwitch()).not.toBeChecked();
    cleanup();

    const other = await openMessagesScreen(`${APP_PATHS.messages}?page=0&limit=7&archived=maybe`);
    await other.calls.settle('listMessages', { value: pageOfThree });
    await screen.findByRole('list', { name: T.tableLabel });
    expect(other.app.location().search).toBe('?page=1&limit=10');
  });
});
