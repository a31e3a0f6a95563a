// The Messages tile's count: the current organization's unread messages, read from the app-wide
// message-count actor (src/web/app/message-count.tsx), so opening the dashboard fetches nothing
// (SPEC section 9: no refetch on mount) and a switch shows the new organization's count only.
import { MESSAGES_TEXTS } from '../../../domain/messages';
import { selectHasFailed, selectIsLoading, selectUnreadCount } from '../../../../machines/message-count';
import { MessageCountActorContext } from '../../app/actor-contexts';

/** The count line inside the tile's link: one line high in every state (no layout shift). */
export function MessageCountText() {
  const loading = MessageCountActorContext.useSelector(selectIsLoading);
  const failed = MessageCountActorContext.useSelector(selectHasFailed);
  const count = MessageCountActorContext.useSelector(selectUnreadCount);
  return (
    <span className="flex h-8 items-center text-2xl font-semibold text-slate-900" data-testid="unread-count">
      {loading && (
        <>
          <span aria-hidden="true" className="h-6 w-24 animate-pulse rounded bg-slate-200" />
          <span className="sr-only">{MESSAGES_TEXTS.unreadCountLoading}</span>
        </>
      )}
      {failed && <span className="text-sm font-normal text-red-900">{MESSAGES_TEXTS.unreadCountFailed}</span>}
      {count !== null && !loading && MESSAGES_TEXTS.unreadCount(count)}
    </span>
  );
}

/** Shown beside the tile (a button cannot sit inside its link) only when the count failed. */
export function MessageCountRetry() {
  const failed = MessageCountActorContext.useSelector(selectHasFailed);
  const count = MessageCountActorContext.useActorRef();
  if (!failed) return null;
  return (
    <button
      type="button"
      className="mt-2 rounded-md border border-brand-700 px-3 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50"
      onClick={() => count.send({ type: 'messageCount.refresh' })}
    >
      {MESSAGES_TEXTS.unreadCountRetry}
    </button>
  );
}
