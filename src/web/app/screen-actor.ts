// A screen's machine as a child of the app's root actor (machines/app-root.ts `screen.open`), so
// that it reaches the app-wide actors with `system.get(...)`. @xstate/react's useActorRef starts
// an actor system of its own, and a child cannot be used there: its cleanup stops the actor, which
// only the parent may do. Here the root spawns and stops the child instead.
import { createContext, createElement, useContext, useEffect, useId, useState, type ReactNode } from 'react';
import type { ActorRefFrom, AnyActorLogic, InputFrom } from 'xstate';
import { SCREEN_ID_PREFIX, selectScreen, type AppRootRef } from '../../../machines/app-root';

const ScreenHostContext = createContext<AppRootRef | null>(null);

/** Makes the root actor the parent of the screens' machines below. */
export function ScreenHostProvider({ root, children }: { root: AppRootRef; children: ReactNode }) {
  return createElement(ScreenHostContext, { value: root }, children);
}

/** The root's child `id`, spawned first if it is not running (its first open, or after a remount closed it). */
function openScreen(root: AppRootRef, id: string, logic: AnyActorLogic, input: unknown) {
  if (!selectScreen(root.getSnapshot(), id)) root.send({ type: 'screen.open', id, logic, input });
  const actor = selectScreen(root.getSnapshot(), id);
  if (!actor) throw new Error(`the screen actor '${id}' did not start`);
  return actor;
}

/**
 * The machine `logic` running for as long as the component is mounted, a child of the root
 * actor. Like useActorRef, later changes of `logic` and `input` are not applied.
 */
export function useScreenActor<TLogic extends AnyActorLogic>(
  logic: TLogic,
  options: { input?: InputFrom<TLogic> } = {},
): ActorRefFrom<TLogic> {
  const root = useContext(ScreenHostContext);
  if (!root) throw new Error('useScreenActor() is used outside the app root');
  // useId differs for every mounted component, and stays the same through StrictMode's remount.
  const id = `${SCREEN_ID_PREFIX}${useId()}`;
  const [actor, setActor] = useState(() => openScreen(root, id, logic, options.input));
  useEffect(() => {
    // StrictMode's simulated unmount closed the child the first render opened: open it again.
    const current = openScreen(root, id, logic, options.input);
    if (current !== actor) setActor(current);
    return () => root.send({ type: 'screen.close', id });
    // Mounted once, as useActorRef: the first logic and input stand for the component's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [root, id]);
  return actor as ActorRefFrom<TLogic>;
}
