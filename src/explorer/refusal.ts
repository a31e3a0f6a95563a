// Why the explorer shows an event's button disabled: no active state takes the event, or every
// transition for it is guarded and the guards refuse (the page asks `snapshot.can(event)` first).
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { formatGuard } from '../../scripts/statechart-diagram';
import { activeStateNodes } from '../../scripts/statechart-introspection';

export function refusal(machine: AnyStateMachine, snapshot: AnyMachineSnapshot, type: string): string {
  if (snapshot.status !== 'active') return 'the machine has stopped';
  const candidates = activeStateNodes(machine, snapshot).flatMap(
    (node) => (node.on as Record<string, Array<{ guard?: unknown }> | undefined>)[type] ?? [],
  );
  const guards = [...new Set(candidates.map((t) => formatGuard(t.guard)).filter(Boolean))];
  if (candidates.length && guards.length) return `refused by ${guards.length > 1 ? 'guards' : 'guard'} ${guards.join(', ')}`;
  return 'not accepted in this state';
}
