// Shell navigation: desktop side navigation expanded or collapsed (remembered across reloads
// by the provided `rememberCollapsed` action), and the mobile drawer.
import { setup, type SnapshotFrom } from 'xstate';

export interface NavigationInput {
  /** What was remembered from the last visit. */
  readonly collapsed: boolean;
}

export type NavigationEvent =
  { type: 'navigation.toggle' } | { type: 'drawer.open' } | { type: 'drawer.close' } | { type: 'route.changed' };

export const navigationMachine = setup({
  types: { input: {} as NavigationInput, context: {} as NavigationInput, events: {} as NavigationEvent },
  guards: {
    startsCollapsed: ({ context }) => context.collapsed,
  },
  actions: {
    rememberCollapsed: (_, _params: { collapsed: boolean }) => undefined,
  },
}).createMachine({
  id: 'navigation',
  context: ({ input }) => ({ collapsed: input.collapsed }),
  type: 'parallel',
  states: {
    sidebar: {
      initial: 'restoring',
      states: {
        restoring: {
          always: [{ guard: 'startsCollapsed', target: 'collapsed' }, { target: 'expanded' }],
        },
        expanded: {
          on: { 'navigation.toggle': { target: 'collapsed', actions: { type: 'rememberCollapsed', params: { collapsed: true } } } },
        },
        collapsed: {
          on: { 'navigation.toggle': { target: 'expanded', actions: { type: 'rememberCollapsed', params: { collapsed: false } } } },
        },
      },
    },
    drawer: {
      initial: 'closed',
      states: {
        closed: { on: { 'drawer.open': 'open' } },
        open: { on: { 'drawer.close': 'closed', 'route.changed': 'closed' } },
      },
    },
  },
});

export type NavigationSnapshot = SnapshotFrom<typeof navigationMachine>;
export const selectSidebarCollapsed = (snapshot: NavigationSnapshot): boolean => snapshot.matches({ sidebar: 'collapsed' });
export const selectDrawerOpen = (snapshot: NavigationSnapshot): boolean => snapshot.matches({ drawer: 'open' });
