import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { navigationMachine } from '../../machines/navigation';

describe('navigation machine', () => {
  it('restores the remembered collapsed state', () => {
    expect(
      createActor(navigationMachine, { input: { collapsed: true } })
        .start()
        .getSnapshot()
        .matches({ sidebar: 'collapsed' }),
    ).toBe(true);
    expect(
      createActor(navigationMachine, { input: { collapsed: false } })
        .start()
        .getSnapshot()
        .matches({ sidebar: 'expanded' }),
    ).toBe(true);
  });

  it('remembers each toggle', () => {
    const rememberCollapsed = vi.fn();
    const machine = navigationMachine.provide({ actions: { rememberCollapsed: (_, params) => rememberCollapsed(params.collapsed) } });
    const actor = createActor(machine, { input: { collapsed: false } }).start();
    actor.send({ type: 'navigation.toggle' });
    expect(actor.getSnapshot().matches({ sidebar: 'collapsed' })).toBe(true);
    actor.send({ type: 'navigation.toggle' });
    expect(rememberCollapsed.mock.calls).toEqual([[true], [false]]);
  });

  it('opens the drawer and closes it on close or route change', () => {
    const actor = createActor(navigationMachine, { input: { collapsed: false } }).start();
    actor.send({ type: 'drawer.open' });
    expect(actor.getSnapshot().matches({ drawer: 'open' })).toBe(true);
    actor.send({ type: 'route.changed' });
    expect(actor.getSnapshot().matches({ drawer: 'closed' })).toBe(true);
    actor.send({ type: 'drawer.open' });
    actor.send({ type: 'drawer.close' });
    expect(actor.getSnapshot().matches({ drawer: 'closed' })).toBe(true);
  });
});
