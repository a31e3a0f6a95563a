// The messages screen's actors over the app's services and router. The screen runs as a child of
// the app root (useScreenActor), so it and its per-message actors reach the toasts and the unread
// count with `system.get`; `sendTo` delivers after the machine's step.
import { fromPromise, sendTo } from 'xstate';
import { messageMachine, type NotifyParams } from '../../../../machines/message';
import { messageListQueryOf, messagesMachine, type MessagesView } from '../../../../machines/messages';
import { pagedListOf } from '../../../../machines/paged-list';
import { toastShow } from '../../../../machines/toasts';
import type { AppServices } from '../../app/services';

export function messagesLogic({ api }: Pick<AppServices, 'api'>, navigate: (to: string) => void) {
  const toast = (_: unknown, { variant, message }: NotifyParams) => toastShow(variant, message);
  const message = messageMachine.provide({
    actors: { updateMessage: fromPromise(({ input, signal }) => api.updateMessage(input, signal)) },
    actions: {
      notify: sendTo(({ system }) => system.get('toasts'), toast),
      openTarget: (_, { path }) => navigate(path),
      refreshUnreadCount: sendTo(({ system }) => system.get('messageCount'), { type: 'messageCount.refresh' }),
    },
  });
  return messagesMachine.provide({
    actors: {
      list: pagedListOf(async (view, signal) => {
        const { messages, totalCount, unreadCount } = await api.listMessages(messageListQueryOf(view as MessagesView), signal);
        return { items: messages, totalCount, unreadCount };
      }),
      updateMessages: fromPromise(({ input, signal }) => api.updateMessages(input, signal)),
      message,
    },
    actions: {
      notify: sendTo(({ system }) => system.get('toasts'), toast),
      reportUnreadCount: sendTo(
        ({ system }) => system.get('messageCount'),
        (_, { unreadCount }: { unreadCount: number }) => ({
          type: 'messageCount.changed' as const,
          unreadCount,
        }),
      ),
    },
  });
}
