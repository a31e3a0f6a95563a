// The messages screen's actors over the app's services, toasts, router and unread count. The
// toasts and the count are actors of the app's system: `sendTo` reaches them after the
// machine's step.
import { fromPromise, sendTo } from 'xstate';
import { messageMachine, type NotifyParams } from '../../../../machines/message';
import { messageListQueryOf, messagesMachine, type MessagesView } from '../../../../machines/messages';
import { pagedListOf } from '../../../../machines/paged-list';
import { toastShow } from '../../../../machines/toasts';
import type { MessageCountActorContext, ToastsActorContext } from '../../app/actor-contexts';
import type { AppServices } from '../../app/services';

type ToastsRef = ReturnType<typeof ToastsActorContext.useActorRef>;
type MessageCountRef = ReturnType<typeof MessageCountActorContext.useActorRef>;

export function messagesLogic(
  { api }: Pick<AppServices, 'api'>,
  toasts: ToastsRef,
  messageCount: MessageCountRef,
  navigate: (to: string) => void,
) {
  const toast = (_: unknown, { variant, message }: NotifyParams) => toastShow(variant, message);
  const message = messageMachine.provide({
    actors: { updateMessage: fromPromise(({ input, signal }) => api.updateMessage(input, signal)) },
    actions: {
      notify: sendTo(toasts, toast),
      openTarget: (_, { path }) => navigate(path),
      refreshUnreadCount: sendTo(messageCount, { type: 'messageCount.refresh' }),
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
      notify: sendTo(toasts, toast),
      reportUnreadCount: sendTo(messageCount, (_, { unreadCount }: { unreadCount: number }) => ({
        type: 'messageCount.changed' as const,
        unreadCount,
      })),
    },
  });
}
