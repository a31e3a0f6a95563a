// Any path no screen has: SPEC's public 'Page Not Found', and for a signed-in user the same message
// inside the shell, so the navigation stays at hand. Until the session knows, it says it is loading.
import { lazy, Suspense } from 'react';
import { NotFoundMessage, NotFoundScreen } from '../screens/not-found/not-found-screen';
import { selectSessionSettling } from '../../../machines/session';
import { SessionActorContext } from './actor-contexts';
import { LoadingPage } from './loading-page';

// The shell is the signed-in chunk: a signed-out visitor never loads it.
const AuthenticatedShell = lazy(async () => ({ default: (await import('./authenticated-shell')).AuthenticatedShell }));

export function NotFoundRoute() {
  const signedIn = SessionActorContext.useSelector((snapshot) => snapshot.matches('signedIn'));
  const settling = SessionActorContext.useSelector(selectSessionSettling);
  if (signedIn) {
    return (
      <Suspense fallback={<LoadingPage />}>
        <AuthenticatedShell>
          <NotFoundMessage />
        </AuthenticatedShell>
      </Suspense>
    );
  }
  return settling ? <LoadingPage /> : <NotFoundScreen />;
}
