// The registry of every statechart, keyed by kebab-case name (the diagram file names):
// the visualizer and the coverage tests read it.
import { navigationMachine } from './navigation';
import { organizationSwitcherMachine } from './organization-switcher';
import { sessionMachine } from './session';
import { toastsMachine } from './toasts';

export const machines = {
  session: sessionMachine,
  toasts: toastsMachine,
  navigation: navigationMachine,
  'organization-switcher': organizationSwitcherMachine,
} as const;

export type MachineName = keyof typeof machines;
