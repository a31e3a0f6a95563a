// The app-wide unread message count (machines/message-count.ts): provided once under the
// session's services, told when the organization is known or changes (it then loads that
// organization's count), and read by the Messages entry of the navigation and the dashboard's
// Messages tile. The messages screen reports to it through MessageCountActorContext:
// `{ type: 'messageCount.changed', unreadCount }` after every list load and message action.
import { useEffect, useMemo, type ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { messageCountMachine } from '../../../machines/message-count';
import { selectSignedInOrganization } from '../../../machines/session';
import { MessageCountActorContext, SessionActorContext } from './actor-contexts';
import { useAppServices } from './services';

export function MessageCountProvider({ children }: { children: ReactNode }) {
  // Product calls of these services act for the current organization; their 401 and
  // 'Invalid participant' reach the session (services.tsx).
  const { api } = useAppServices();
  const logic = useMemo(
    () => messageCountMachine.provide({ actors: { fetchUnreadCount: fromPromise(({ signal }) => api.unreadMessageCount(signal)) } }),
    [api],
  );
  return (
    <MessageCountActorContext.Provider logic={logic} options={{ systemId: 'messageCount' }}>
      <FollowOrganization />
      {children}
    </MessageCountActorContext.Provider>
  );
}

/** Tells the count which organization it serves: a switch loads the new organization's count. */
function FollowOrganization() {
  const organization = SessionActorContext.useSelector(selectSignedInOrganization);
  const count = MessageCountActorContext.useActorRef();
  useEffect(() => {
    count.send(organization ? { type: 'messageCount.load' } : { type: 'messageCount.reset' });
  }, [organization, count]);
  return null;
}
