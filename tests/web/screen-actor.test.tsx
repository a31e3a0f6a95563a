// @vitest-environment jsdom
// useScreenActor: a screen's machine is the root's child while the component is mounted, through
// StrictMode's double render and simulated remount, and stops when it unmounts.
import { useSelector } from '@xstate/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import { appRootMachine, selectScreen } from '../../machines/app-root';
import { ScreenHostProvider, useScreenActor } from '../../src/web/app/screen-actor';

const counter = setup({
  types: { input: {} as { start: number }, context: {} as { count: number }, events: {} as { type: 'add' } },
}).createMachine({
  context: ({ input }) => ({ count: input.start }),
  on: { add: { actions: assign({ count: ({ context }) => context.count + 1 }) } },
});

function Counter({ label }: { label: string }) {
  const actor = useScreenActor(counter, { input: { start: 10 } });
  const count = useSelector(actor, (snapshot) => snapshot.context.count);
  return (
    <button type="button" onClick={() => actor.send({ type: 'add' })}>
      {label} {count}
    </button>
  );
}

function startRoot() {
  return createActor(appRootMachine, { input: { session: { storedParticipantId: null }, navigation: { collapsed: false } } }).start();
}

const openScreens = (root: ReturnType<typeof startRoot>) =>
  root.getSnapshot().context.screens.map((id) => selectScreen(root.getSnapshot(), id)?.getSnapshot().status);

describe('useScreenActor', () => {
  afterEach(cleanup);

  it('runs one child of the root per mounted component under StrictMode, and stops it on unmount', () => {
    const root = startRoot();
    const view = render(
      <StrictMode>
        <ScreenHostProvider root={root}>
          <Counter label="A" />
          <Counter label="B" />
        </ScreenHostProvider>
      </StrictMode>,
    );
    expect(openScreens(root)).toEqual(['active', 'active']);
    act(() => screen.getByRole('button', { name: 'A 10' }).click());
    expect(screen.getByRole('button', { name: 'A 11' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'B 10' })).toBeInTheDocument();

    const [first, second] = root.getSnapshot().context.screens.map((id) => selectScreen(root.getSnapshot(), id));
    view.unmount();
    expect(root.getSnapshot().context.screens).toEqual([]);
    expect(first?.getSnapshot().status).toBe('stopped');
    expect(second?.getSnapshot().status).toBe('stopped');
    expect(root.getSnapshot().status).toBe('active');
  });

  it('gives a remounted component (a new key) a new machine', () => {
    const root = startRoot();
    const tree = (key: string) => (
      <StrictMode>
        <ScreenHostProvider root={root}>
          <Counter key={key} label="A" />
        </ScreenHostProvider>
      </StrictMode>
    );
    const view = render(tree('one'));
    act(() => screen.getByRole('button', { name: 'A 10' }).click());
    view.rerender(tree('two'));
    expect(screen.getByRole('button', { name: 'A 10' })).toBeInTheDocument();
    expect(openScreens(root)).toEqual(['active']);
  });
});
