import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { organizationSwitcherMachine } from '../../machines/organization-switcher';

describe('organization switcher machine', () => {
  it('filters on a non-blank query and clears', () => {
    const actor = createActor(organizationSwitcherMachine).start();
    actor.send({ type: 'filter.change', query: '   ' });
    expect(actor.getSnapshot().matches('unfiltered')).toBe(true);
    actor.send({ type: 'filter.change', query: 'cap' });
    expect(actor.getSnapshot().context.query).toBe('cap');
    actor.send({ type: 'filter.change', query: '' });
    expect(actor.getSnapshot().matches('unfiltered')).toBe(true);
    actor.send({ type: 'filter.change', query: 'b' });
    actor.send({ type: 'filter.clear' });
    expect(actor.getSnapshot().context.query).toBe('');
  });
});
