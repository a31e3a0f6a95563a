// The root of the app: the app-wide actors (toasts, navigation, session) and the services bound
// to the session. Side effects enter the machines only through `provide` (ARCHITECTURE.md
// section 4); nothing here is module state, so each render of the root has its own.
import { useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { fromPromise } from 'xstate';
import type { RegistryApi } from '../../client/api';
import { APP_PATHS } from '../../domain/app-paths';
import { TEXTS } from '../../domain/texts';
import { navigationMachine } from '../../../machines/navigation';
import { selectParticipantId, sessionMachine, type Account } from '../../../machines/session';
import { NavigationActorContext, SessionActorContext, ToastsActorContext } from './actor-contexts';
import { BatchDownloadProvider } from './batch-download';
import { storedNavigationCollapsed, storedParticipant } from './browser-storage';
import { MessageCountProvider } from './message-count';
import { AppServicesProvider, type AppPlatform, type AppServices } from './services';

async function loadAccount(api: RegistryApi, participantId: string | null, signal?: AbortSignal): Promise<Account> {
  const me = await api.usersMe(participantId, signal);
  const organizations = await api.userParticipants(me.user.id, signal);
  return { user: me.user, organizations };
}

function providedSessionMachine(platform: AppPlatform, deps: { navigate: (path: string) => void; toast: (message: string) => void }) {
  // The session's own calls: they name the organization themselves and handle their own failures.
  const api = platform.createApi();
  return sessionMachine.provide({
    actors: {
      fetchIdentity: fromPromise(({ signal }) => api.figureInfo(signal)),
      fetchAccount: fromPromise(({ input, signal }) => loadAccount(api, input.participantId, signal)),
      logout: fromPromise(({ signal }) => api.logout(signal)),
    },
    actions: {
      storeParticipant: (_, params) => storedParticipant.set(params.participantId),
      clearStoredParticipant: () => storedParticipant.set(null),
      navigateToDashboard: () => deps.navigate(APP_PATHS.dashboard),
      notifyInvalidParticipant: () => deps.toast(TEXTS.invalidParticipantToast),
      startHostedLogin: (_, params) => platform.startHostedLogin(params.returnTo ?? undefined),
    },
  });
}

function SessionProvider({ platform, children }: { platform: AppPlatform; children: ReactNode }) {
  const navigate = useNavigate();
  const toasts = ToastsActorContext.useActorRef();
  // The machine is provided once; navigate and the toasts actor are stable for the app's life.
  const logic = useMemo(
    () =>
      providedSessionMachine(platform, {
        navigate: (path) => void navigate(path),
        // Sent after the session's transition: one actor's action must not run another's step.
        toast: (message) => queueMicrotask(() => toasts.send({ type: 'toast.show', variant: 'error', message })),
      }),
    [platform, navigate, toasts],
  );
  return (
    <SessionActorContext.Provider logic={logic} options={{ input: { storedParticipantId: storedParticipant.get() } }}>
      <SessionServices platform={platform}>{children}</SessionServices>
    </SessionActorContext.Provider>
  );
}

/** Binds the platform to the session actor: product calls act for its organization and report their failures to it. */
function SessionServices({ platform, children }: { platform: AppPlatform; children: ReactNode }) {
  const session = SessionActorContext.useActorRef();
  const services = useMemo<AppServices>(
    () => ({
      api: platform.createApi({
        participantId: () => selectParticipantId(session.getSnapshot()),
        productCallFailed: (error) => session.send({ type: 'session.callFailed', error }),
      }),
      startHostedLogin: (returnTo) => platform.startHostedLogin(returnTo),
      download: (file, fileName) => platform.download(file, fileName),
    }),
    [platform, session],
  );
  return (
    <AppServicesProvider services={services}>
      {/* Issue 6: the app-wide batch download uses the session's services. */}
      <BatchDownloadProvider>
        {/* Issue 7: the app-wide unread message count, for the navigation badge and the dashboard tile. */}
        <MessageCountProvider>{children}</MessageCountProvider>
      </BatchDownloadProvider>
    </AppServicesProvider>
  );
}

const navigationLogic = navigationMachine.provide({
  actions: { rememberCollapsed: (_, params) => storedNavigationCollapsed.set(params.collapsed) },
});

export function AppProviders({ platform, children }: { platform: AppPlatform; children: ReactNode }) {
  return (
    <ToastsActorContext.Provider>
      <NavigationActorContext.Provider logic={navigationLogic} options={{ input: { collapsed: storedNavigationCollapsed.get() } }}>
        <SessionProvider platform={platform}>{children}</SessionProvider>
      </NavigationActorContext.Provider>
    </ToastsActorContext.Provider>
  );
}
