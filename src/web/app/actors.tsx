// App-wide actors, created once at the root and reached through actor contexts
// (ARCHITECTURE.md section 4). Side effects enter the machines only through `provide`.
import { createActorContext } from '@xstate/react';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { createHttpClient } from '../../client/http';
import { createRegistryApi, type RegistryApi } from '../../client/api';
import { TEXTS } from '../../domain/texts';
import { navigationMachine } from '../../../machines/navigation';
import { sessionMachine, type Account } from '../../../machines/session';
import { toastsMachine } from '../../../machines/toasts';
import { SERVICE_BASE_URL } from '../config';
import { storedNavigationCollapsed, storedParticipant } from './browser-storage';
import { downloadFile } from './browser-download';
import { startHostedLogin } from './hosted-login';
import { AppServicesProvider, type AppServices } from './services';

export const ToastsContext = createActorContext(toastsMachine);
export const SessionContext = createActorContext(sessionMachine);
export const NavigationContext = createActorContext(navigationMachine);

/** The current organization and the session's reaction to failed product calls. */
const sessionBridge: { participantId: () => string | null; onProductCallError: (error: unknown) => void } = {
  participantId: () => null,
  onProductCallError: () => undefined,
};

/** Where every failed product call is reported; the session decides what it means. */
export const reportProductCallError = (error: unknown): void => sessionBridge.onProductCallError(error);

export const registryApi: RegistryApi = createRegistryApi(
  createHttpClient({
    baseUrl: SERVICE_BASE_URL,
    getParticipantId: () => sessionBridge.participantId(),
    onProductCallError: reportProductCallError,
  }),
);

export async function loadAccount(api: RegistryApi, participantId: string | null, signal?: AbortSignal): Promise<Account> {
  const me = await api.usersMe(participantId, signal);
  const organizations = await api.userParticipants(me.user.id, signal);
  return { user: me.user, organizations };
}

export const browserServices: AppServices = { api: registryApi, startHostedLogin, download: downloadFile };

export function providedSessionMachine(
  services: AppServices,
  deps: { navigate: (path: string) => void; toast: (message: string) => void },
) {
  const { api } = services;
  return sessionMachine.provide({
    actors: {
      fetchIdentity: fromPromise(({ signal }) => api.figureInfo(signal)),
      fetchAccount: fromPromise(({ input, signal }) => loadAccount(api, input.participantId, signal)),
      logout: fromPromise(({ signal }) => api.logout(signal)),
    },
    actions: {
      storeParticipant: (_, params) => storedParticipant.set(params.participantId),
      clearStoredParticipant: () => storedParticipant.set(null),
      navigateToDashboard: () => deps.navigate('/dashboard'),
      notifyInvalidParticipant: () => deps.toast(TEXTS.invalidParticipantToast),
      startHostedLogin: () => services.startHostedLogin(),
    },
  });
}

function SessionProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  const navigate = useNavigate();
  const toasts = ToastsContext.useActorRef();
  // The machine is provided once; navigate and the toasts actor are stable for the app's life.
  const logic = useMemo(
    () =>
      providedSessionMachine(services, {
        navigate: (path) => void navigate(path),
        // Sent after the session's transition: one actor's action must not run another's step.
        toast: (message) => queueMicrotask(() => toasts.send({ type: 'toast.show', variant: 'error', message })),
      }),
    [services, navigate, toasts],
  );
  return (
    <SessionContext.Provider logic={logic} options={{ input: { storedParticipantId: storedParticipant.get() } }}>
      <SessionBridge />
      {children}
    </SessionContext.Provider>
  );
}

/** Connects product calls to the session: current organization out, 401/403 back in. */
function SessionBridge() {
  const session = SessionContext.useActorRef();
  useEffect(() => {
    sessionBridge.participantId = () => session.getSnapshot().context.participantId;
    sessionBridge.onProductCallError = (error) => session.send({ type: 'session.callFailed', error });
    return () => {
      sessionBridge.participantId = () => null;
      sessionBridge.onProductCallError = () => undefined;
    };
  }, [session]);
  return null;
}

const navigationLogic = navigationMachine.provide({
  actions: { rememberCollapsed: (_, params) => storedNavigationCollapsed.set(params.collapsed) },
});

export function AppActors({ services, children }: { services: AppServices; children: ReactNode }) {
  return (
    <ToastsContext.Provider>
      <NavigationContext.Provider logic={navigationLogic} options={{ input: { collapsed: storedNavigationCollapsed.get() } }}>
        <SessionProvider services={services}>
          <AppServicesProvider services={services}>{children}</AppServicesProvider>
        </SessionProvider>
      </NavigationContext.Provider>
    </ToastsContext.Provider>
  );
}
