// @vitest-environment jsdom
// Model-based test of the per-message machine through the messages screen: every transition of
// its regions (read, archived, answer, text) is walked on a row of /messages by clicking its
// buttons and links, reloading the list (which brings the server's state) and settling its PATCH
// over a fake API. The regions are independent, so each is walked from the message's first state
// while the others stay there (the product of the regions would add nothing but paths). The
// message is actionable; a second walker shows one that is not.
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageMachine } from '../../machines/message';
import type { HttpError } from '../../src/contract/http-error';
import type { Message, MessagePatch } from '../../src/contract/messages';
import { APP_PATHS } from '../../src/domain/app-paths';
import { MESSAGES_TEXTS as T, messagePreview } from '../../src/domain/messages';
import { createModelWalker, expectEveryStateAsserted } from '../machines/support/model-coverage';
import type { Flags } from '../machines/walks/message';
import { actionable, flagsOf, plain, plainWalk, walk } from '../machines/walks/message';
import { LONG_TEXT, sampleMessageList, withData } from './support/message-fixtures';
import { messageItem, openMessagesScreen, toastTexts } from './support/messages-screen';

/** Archived messages are listed too, so an archived row stays on the page. */
const SCREEN_PATH = `${APP_PATHS.messages}?page=1&limit=10&archived=true`;

const walker = createModelWalker(messageMachine, walk);

const plainWalker = createModelWalker(messageMachine, plainWalk);

/** The toast after each single action, by the button that asked for it. */
const SUCCESS_TOASTS: Record<string, string> = {
  [T.markRead]: '1 message(s) marked as read',
  [T.markUnread]: '1 message(s) marked as unread',
  [T.archive]: '1 message(s) archived',
  [T.unarchive]: '1 message(s) unarchived',
  [T.confirm]: 'Message confirmed',
  [T.reject]: 'Message rejected',
};

const user = userEvent.setup();
const row = (message: Message = actionable) => messageItem(message.uuid);
const outputOf = (event: unknown) => (event as { output: Message }).output;
const button = (name: string, message: Message = actionable) => row(message).getByRole('button', { name });

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/messages/messages-screen'),
    import('../../src/web/screens/asset/asset-screen'),
  ]);
});

type Calls = Awaited<ReturnType<typeof openMessagesScreen>>['calls'];
type App = Awaited<ReturnType<typeof openMessagesScreen>>['app'];

async function openWith(message: Message) {
  const opened = await openMessagesScreen(SCREEN_PATH);
  await opened.calls.settle('listMessages', { value: sampleMessageList([message]) });
  await screen.findByRole('list', { name: T.tableLabel });
  return opened;
}

/** The pending PATCH of this message. */
async function expectPatch(calls: Calls, patch: MessagePatch) {
  await waitFor(() => expect(calls.pendingCount('updateMessage')).toBe(1));
  expect(calls.pendingBodies('updateMessage')).toEqual([patch]);
}

/** After a change went through, the list reloads: the server has the message as the states say. */
async function settleReload(calls: Calls, flags: Flags) {
  await calls.settle('listMessages', { value: sampleMessageList([withData(actionable, flags)]) });
  await waitFor(() => expect(screen.getByRole('list', { name: T.tableLabel })).toHaveAttribute('aria-busy', 'false'));
}

/** Opening went to the asset page; back on the list, the message is read. */
async function expectOpenedAndComeBack(app: App, calls: Calls, flags: Flags) {
  await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.asset(actionable.targetId)));
  // The asset screen has replaced the list (its lazy route rendered) before going back.
  await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: T.title })).not.toBeInTheDocument());
  await act(() => app.router.navigate(-1));
  await calls.settle('listMessages', { value: sampleMessageList([withData(actionable, flags)]) });
  await screen.findByRole('list', { name: T.tableLabel });
}

describe('message machine, driven through a row of the messages screen', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openWith(actionable);
      await path.test({
        states: {
          read: () => expect(row().getByRole('checkbox', { name: T.selectOne(messagePreview(LONG_TEXT).text) })).toBeInTheDocument(),
          'read.unread': () => {
            // Unread is said in text and weight, not by colour alone.
            expect(row().getByText(T.unread)).toBeVisible();
            expect(document.getElementById(`message-text-${actionable.uuid}`)).toHaveClass('font-semibold');
            expect(button(T.markRead)).toHaveAttribute('aria-busy', 'false');
          },
          'read.markingRead': async () => {
            await expectPatch(calls, { uuid: actionable.uuid, read: true });
            expect(button(T.markRead)).toHaveAttribute('aria-busy', 'true');
          },
          'read.opening': async () => {
            await expectPatch(calls, { uuid: actionable.uuid, read: true });
            expect(row().getByRole('link', { name: T.openAsset })).toHaveAttribute('aria-busy', 'true');
            expect(app.location().pathname).toBe(APP_PATHS.messages);
          },
          'read.read': () => {
            expect(row().queryByText(T.unread)).not.toBeInTheDocument();
            expect(row().getByText(T.read)).toHaveClass('sr-only');
            expect(document.getElementById(`message-text-${actionable.uuid}`)).toHaveClass('font-normal');
            expect(button(T.markUnread)).toHaveAttribute('aria-busy', 'false');
          },
          'read.markingUnread': async () => {
            await expectPatch(calls, { uuid: actionable.uuid, read: false });
            expect(button(T.markUnread)).toHaveAttribute('aria-busy', 'true');
          },
          archive: () => expect(row().getByRole('button', { name: /^(Archive|Unarchive)$/ })).toBeInTheDocument(),
          'archive.unarchived': () => {
            expect(row().queryByText(T.archivedBadge)).not.toBeInTheDocument();
            expect(button(T.archive)).toHaveAttribute('aria-busy', 'false');
          },
          'archive.archiving': async () => {
            await expectPatch(calls, { uuid: actionable.uuid, archived: true });
            expect(button(T.archive)).toHaveAttribute('aria-busy', 'true');
          },
          'archive.archived': () => {
            expect(row().getByText(T.archivedBadge)).toBeVisible();
            expect(button(T.unarchive)).toHaveAttribute('aria-busy', 'false');
          },
          'archive.unarchiving': async () => {
            await expectPatch(calls, { uuid: actionable.uuid, archived: false });
            expect(button(T.unarchive)).toHaveAttribute('aria-busy', 'true');
          },
          answer: () => expect(row().getByText(messagePreview(LONG_TEXT).text.slice(0, 40), { exact: false })).toBeInTheDocument(),
          'answer.unanswered': () => {
            expect(button(T.confirm)).toHaveAttribute('aria-busy', 'false');
            expect(button(T.reject)).toHaveAttribute('aria-busy', 'false');
            expect(row().queryByText(T.answeredConfirmed)).not.toBeInTheDocument();
          },
          'answer.confirming': async () => {
            await expectPatch(calls, { uuid: actionable.uuid, response: true });
            expect(button(T.confirm)).toHaveAttribute('aria-busy', 'true');
          },
          'answer.rejecting': async () => {
            await expectPatch(calls, { uuid: actionable.uuid, response: false });
            expect(button(T.reject)).toHaveAttribute('aria-busy', 'true');
          },
          // Once answered, the buttons give way to the answer.
          'answer.confirmed': () => {
            expect(row().getByText(T.answeredConfirmed)).toBeVisible();
            expect(row().queryByRole('button', { name: T.confirm })).not.toBeInTheDocument();
            expect(row().queryByRole('button', { name: T.reject })).not.toBeInTheDocument();
          },
          'answer.rejected': () => {
            expect(row().getByText(T.answeredRejected)).toBeVisible();
            expect(row().queryByRole('button', { name: T.confirm })).not.toBeInTheDocument();
          },
          text: () => expect(row().getByRole('button', { name: /^(Read more|Show less)$/ })).toBeInTheDocument(),
          'text.collapsed': () => {
            expect(row().getByText(messagePreview(LONG_TEXT).text)).toBeInTheDocument();
            expect(row().queryByText(LONG_TEXT)).not.toBeInTheDocument();
            expect(button(T.readMore)).toHaveAttribute('aria-expanded', 'false');
          },
          'text.expanded': () => {
            expect(row().getByText(LONG_TEXT)).toBeInTheDocument();
            expect(button(T.readLess)).toHaveAttribute('aria-expanded', 'true');
          },
        },
        events: {
          'message.markRead': () => user.click(button(T.markRead)),
          'message.markUnread': () => user.click(button(T.markUnread)),
          'message.archive': () => user.click(button(T.archive)),
          'message.unarchive': () => user.click(button(T.unarchive)),
          'message.confirm': () => user.click(button(T.confirm)),
          'message.reject': () => user.click(button(T.reject)),
          'message.expand': () => user.click(button(T.readMore)),
          'message.collapse': () => user.click(button(T.readLess)),
          'message.open': async ({ state }) => {
            await user.click(row().getByRole('link', { name: T.openAsset }));
            // Already read: it goes there at once, no call.
            if (state.matches({ read: 'read' })) {
              expect(calls.pendingCount('updateMessage')).toBe(0);
              await expectOpenedAndComeBack(app, calls, flagsOf(state));
            }
          },
          'message.sync': async ({ event }) => {
            await user.click(screen.getByRole('button', { name: T.refresh }));
            await calls.settle('listMessages', { value: sampleMessageList([(event as { message: Message }).message]) });
          },
          'done: updateMessage': async ({ event }) => {
            const output = outputOf(event);
            const opening = row().queryByRole('link', { name: T.openAsset })?.getAttribute('aria-busy') === 'true';
            const busy =
              row()
                .queryAllByRole('button')
                .find((each) => each.getAttribute('aria-busy') === 'true')?.textContent ?? '';
            await calls.settle('updateMessage', { value: output });
            if (opening) {
              await expectOpenedAndComeBack(app, calls, output.messageData);
              return;
            }
            await waitFor(() => expect(toastTexts()).toContain(SUCCESS_TOASTS[busy]));
            await settleReload(calls, output.messageData);
          },
          'error: updateMessage': async ({ event }) => {
            await calls.settle('updateMessage', { error: (event as unknown as { error: HttpError }).error });
            await waitFor(() =>
              expect(toastTexts().some((text) => /^(Failed to update message\(s\)|Unable to (confirm|reject) message)$/.test(text))).toBe(
                true,
              ),
            );
            expect(calls.pendingCount('listMessages')).toBe(0);
          },
        },
      });
    });
  }

  it('shows a message that takes no response without Confirm, Reject or an answer', async () => {
    const [path] = plainWalker.paths;
    await openWith(plain);
    await path?.test({
      states: {
        'answer.notActionable': () => {
          expect(row(plain).queryByRole('button', { name: T.confirm })).not.toBeInTheDocument();
          expect(row(plain).queryByText(T.answeredConfirmed)).not.toBeInTheDocument();
          expect(row(plain).queryByText(T.answeredRejected)).not.toBeInTheDocument();
          // A relationship leads nowhere: no link.
          expect(row(plain).queryByRole('link')).not.toBeInTheDocument();
        },
      },
    });
  });

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    plainWalker.expectFullCoverage();
    // The `starting` states are transient (eventless): a snapshot is never in them.
    expectEveryStateAsserted(messageMachine, [...walker.assertedStateIds, ...plainWalker.assertedStateIds], {
      ignore: ['read.starting', 'archive.starting', 'answer.starting'],
    });
  });
});
