// The app-wide actors (machines/app-root.ts), one actor system under the root actor that
// app-providers.tsx starts, reached by components through the system's React context. Each has
// `useActorRef()` and `useSelector(selector)`. Named *ActorContext: a machine's data type keeps
// the name *Context (machines/session.ts SessionContext).
import { useSelector } from '@xstate/react';
import { createContext, createElement, useContext, type ReactNode } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import { appActor, type AppActors, type AppSystem, type AppSystemId } from '../../../machines/app-root';

const AppSystemContext = createContext<AppSystem | null>(null);

/** Makes an actor system's app-wide actors reachable below (the root's, or a test's). */
export function AppSystemProvider({ system, children }: { system: AppSystem; children: ReactNode }) {
  return createElement(AppSystemContext, { value: system }, children);
}

function appActorContext<K extends AppSystemId>(systemId: K) {
  function useActorRef(): AppActors[K] {
    const system = useContext(AppSystemContext);
    if (!system) throw new Error(`the app-wide actor '${systemId}' is used outside the app root`);
    return appActor(system, systemId);
  }
  function useAppActorSelector<T>(selector: (snapshot: SnapshotFrom<AppActors[K]>) => T, compare?: (a: T, b: T) => boolean): T {
    // The ref's own type is not narrowed through K here; its snapshot is SnapshotFrom<AppActors[K]>.
    return useSelector(useActorRef() as AnyActorRef, selector as (snapshot: unknown) => T, compare);
  }
  return { useActorRef, useSelector: useAppActorSelector };
}

export const SessionActorContext = appActorContext('session');
export const ToastsActorContext = appActorContext('toasts');
export const NavigationActorContext = appActorContext('navigation');
/** The batch download of assignment documents (its progress: batch-download.tsx). */
export const BatchDownloadActorContext = appActorContext('batchDownload');
/** The unread message count (the messages screen tells it `messageCount.changed`). */
export const MessageCountActorContext = appActorContext('messageCount');
/** The banners of the banner file (banners-region.tsx shows them; the authoring screen asks for a reload). */
export const BannersActorContext = appActorContext('banners');
