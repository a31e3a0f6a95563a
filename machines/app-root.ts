// The app's one actor system (ARCHITECTURE.md section 4): the root spawns the app-wide actors for
// the life of the app, each under a systemId, so that any machine of the system reaches them with
// `system.get(...)` (a toast: `sendTo(({ system }) => system.get('toasts'), toastShow(...))`).
// The actors that hold one organization's data (the unread count, the batch download) follow the
// session's organization themselves (followOrganization in machines/session.ts). The web app
// provides each actor's implementations by name (`appRootMachine.provide({ actors })`).
import { setup, type ActorRefFrom, type ActorSystem } from 'xstate';
import { batchDownloadMachine } from './batch-download';
import { messageCountMachine } from './message-count';
import { navigationMachine, type NavigationInput } from './navigation';
import { sessionMachine, type SessionInput } from './session';
import { toastsMachine } from './toasts';

export interface AppRootInput {
  readonly session: SessionInput;
  readonly navigation: NavigationInput;
}

/** The app-wide actors by systemId. The banners of SPEC section 9 join them here. */
export type AppActors = {
  readonly toasts: ActorRefFrom<typeof toastsMachine>;
  readonly session: ActorRefFrom<typeof sessionMachine>;
  readonly navigation: ActorRefFrom<typeof navigationMachine>;
  readonly batchDownload: ActorRefFrom<typeof batchDownloadMachine>;
  readonly messageCount: ActorRefFrom<typeof messageCountMachine>;
};

export type AppSystemId = keyof AppActors;
export type AppSystem = ActorSystem<{ actors: AppActors }>;

/** One of the app-wide actors; they live as long as the root, so a running root always has them. */
export function appActor<K extends AppSystemId>(system: AppSystem, systemId: K): AppActors[K] {
  const actor = system.get(systemId);
  if (!actor) throw new Error(`no app-wide actor '${systemId}' in this actor system`);
  return actor;
}

export const appRootMachine = setup({
  types: { input: {} as AppRootInput, context: {} as AppRootInput },
  actors: {
    toasts: toastsMachine,
    session: sessionMachine,
    navigation: navigationMachine,
    batchDownload: batchDownloadMachine,
    messageCount: messageCountMachine,
  },
}).createMachine({
  id: 'appRoot',
  context: ({ input }) => input,
  // In this order: the toasts before anyone can toast, the session before its followers.
  invoke: [
    { id: 'toasts', systemId: 'toasts', src: 'toasts' },
    { id: 'session', systemId: 'session', src: 'session', input: ({ context }) => context.session },
    { id: 'navigation', systemId: 'navigation', src: 'navigation', input: ({ context }) => context.navigation },
    { id: 'batchDownload', systemId: 'batchDownload', src: 'batchDownload' },
    { id: 'messageCount', systemId: 'messageCount', src: 'messageCount' },
  ],
  initial: 'running',
  states: {
    /** The app's life: the actors above run until the root stops. */
    running: {},
  },
});

export type AppRootRef = ActorRefFrom<typeof appRootMachine>;
