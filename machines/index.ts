// The registry of every statechart, keyed by kebab-case name (the diagram file names):
// the visualizer and the coverage tests read it.
import { assetCountMachine } from './asset-count';
import { assetPageMachine } from './asset-page';
import { navigationMachine } from './navigation';
import { organizationSwitcherMachine } from './organization-switcher';
import { poolsListMachine } from './pools-list';
import { sessionMachine } from './session';
import { toastsMachine } from './toasts';

export const machines = {
  session: sessionMachine,
  toasts: toastsMachine,
  navigation: navigationMachine,
  'organization-switcher': organizationSwitcherMachine,
  'asset-page': assetPageMachine,
  'pools-list': poolsListMachine,
  'asset-count': assetCountMachine,
} as const;

export type MachineName = keyof typeof machines;
