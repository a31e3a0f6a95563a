// The app's one actor system (ARCHITECTURE.md section 4): the root spawns the app-wide actors for
// the life of the app, each under a systemId, so that any machine of the system reaches them with
// `system.get(...)` (a toast: `sendTo(({ system }) => system.get('toasts'), toastShow(...))`).
// The actors that hold one organization's data (the unread count, the batch download) follow the
// session's organization themselves (followOrganization in machines/session.ts). The web app
// provides each actor's implementations by name (`appRootMachine.provide({ actors })`).
// Each open screen's machine is a child of the root too (`screen.open`, `screen.close`; the web
// app's useScreenActor), so that it reaches the app-wide actors the same way.
import {
  assign,
  enqueueActions,
  setup,
  stopChild,
  type ActorRefFrom,
  type ActorSystem,
  type AnyActorLogic,
  type AnyActorRef,
  type SnapshotFrom,
} from 'xstate';
import { THIS_BANNER_APP } from '../src/domain/banners';
import { bannersMachine, type BannersInput } from './banners';
import { batchDownloadMachine } from './batch-download';
import { messageCountMachine } from './message-count';
import { navigationMachine, type NavigationInput } from './navigation';
import { sessionMachine, type SessionInput } from './session';
import { toastsMachine } from './toasts';

export interface AppRootInput {
  readonly session: SessionInput;
  readonly navigation: NavigationInput;
  /** The banners' app and the dismissals the browser kept (default: this app, none). */
  readonly banners?: BannersInput;
}

export interface AppRootContext extends AppRootInput {
  /** The ids of the open screens' machines, the root's children beside the app-wide actors. */
  readonly screens: readonly string[];
}

/** The app-wide actors by systemId. */
export type AppActors = {
  readonly toasts: ActorRefFrom<typeof toastsMachine>;
  readonly session: ActorRefFrom<typeof sessionMachine>;
  readonly navigation: ActorRefFrom<typeof navigationMachine>;
  readonly batchDownload: ActorRefFrom<typeof batchDownloadMachine>;
  readonly messageCount: ActorRefFrom<typeof messageCountMachine>;
  readonly banners: ActorRefFrom<typeof bannersMachine>;
};

export type AppSystemId = keyof AppActors;
export type AppSystem = ActorSystem<{ actors: AppActors }>;

/** One of the app-wide actors; they live as long as the root, so a running root always has them. */
export function appActor<K extends AppSystemId>(system: AppSystem, systemId: K): AppActors[K] {
  const actor = system.get(systemId);
  if (!actor) throw new Error(`no app-wide actor '${systemId}' in this actor system`);
  return actor;
}

/** The prefix of a screen's child id: its errors are told apart from the app-wide actors' by it. */
export const SCREEN_ID_PREFIX = 'screen.';

/** A screen's machine starts as the root's child `id` (a SCREEN_ID_PREFIX id, one per mounted screen). */
export interface ScreenOpen {
  readonly type: 'screen.open';
  readonly id: string;
  readonly logic: AnyActorLogic;
  readonly input?: unknown;
}

/** The screen's machine stops; closing one that is not open does nothing (a remount may close twice). */
export interface ScreenClose {
  readonly type: 'screen.close';
  readonly id: string;
}

export const appRootMachine = setup({
  types: { input: {} as AppRootInput, context: {} as AppRootContext, events: {} as ScreenOpen | ScreenClose },
  actors: {
    toasts: toastsMachine,
    session: sessionMachine,
    navigation: navigationMachine,
    batchDownload: batchDownloadMachine,
    messageCount: messageCountMachine,
    banners: bannersMachine,
  },
}).createMachine({
  id: 'appRoot',
  context: ({ input }) => ({ ...input, screens: [] }),
  // In this order: the toasts before anyone can toast, the session before its followers.
  invoke: [
    { id: 'toasts', systemId: 'toasts', src: 'toasts' },
    { id: 'session', systemId: 'session', src: 'session', input: ({ context }) => context.session },
    { id: 'navigation', systemId: 'navigation', src: 'navigation', input: ({ context }) => context.navigation },
    { id: 'batchDownload', systemId: 'batchDownload', src: 'batchDownload' },
    { id: 'messageCount', systemId: 'messageCount', src: 'messageCount' },
    {
      id: 'banners',
      systemId: 'banners',
      src: 'banners',
      input: ({ context }) => context.banners ?? { app: THIS_BANNER_APP, dismissed: [] },
    },
  ],
  initial: 'running',
  states: {
    /** The app's life: the actors above run until the root stops. */
    running: {
      on: {
        'screen.open': {
          // Spawned while the event is processed, so the sender reads the child right after `send`.
          guard: ({ context, event }) => !context.screens.includes(event.id),
          actions: [
            enqueueActions(({ enqueue, event }) => enqueue.spawnChild(event.logic as never, { id: event.id, input: event.input })),
            assign({ screens: ({ context, event }) => [...context.screens, event.id] }),
          ],
        },
        'screen.close': {
          actions: [
            stopChild(({ event }) => event.id),
            assign({ screens: ({ context, event }) => context.screens.filter((id) => id !== event.id) }),
          ],
        },
        // A screen's machine that fails stays failed on its own, as a screen's actor did before it
        // had a parent; without this the failure would stop the root and every app-wide actor.
        'xstate.error.actor.screen.*': {},
      },
    },
  },
});

export type AppRootRef = ActorRefFrom<typeof appRootMachine>;

/** The open screen's machine `id`, if it is open. */
export const selectScreen = (snapshot: SnapshotFrom<typeof appRootMachine>, id: string): AnyActorRef | undefined =>
  (snapshot.children as Readonly<Record<string, AnyActorRef | undefined>>)[id];
