// @vitest-environment jsdom
// Model-based test of the toasts machine through the notifications region: at most five
// visible, the rest queued; each leaves when dismissed or 6000 ms after it became visible.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { MAX_VISIBLE_TOASTS } from '../../src/domain/constants';
import { AppSystemProvider } from '../../src/web/app/actor-contexts';
import { ToastsRegion } from '../../src/web/app/toasts-region';
import { selectVisibleToasts, toastsMachine } from '../../machines/toasts';
import { createModelWalker } from '../machines/support/model-coverage';
import { messageOf, walk } from '../machines/walks/toasts';

const walker = createModelWalker(toastsMachine, walk);

/** The toasts actor under its systemId, as the app root spawns it, and the region over it. */
function renderRegion() {
  const toasts = createActor(toastsMachine, { systemId: 'toasts' }).start();
  render(
    <AppSystemProvider system={toasts.system}>
      <ToastsRegion />
    </AppSystemProvider>,
  );
  return toasts;
}

/** The notifications' polite live list (success and info toasts). */
const politeList = () => within(screen.getByRole('region', { name: 'Notifications' })).getByRole('list');

const shownMessages = () => {
  const region = screen.getByRole('region', { name: 'Notifications' });
  return within(region)
    .queryAllByRole('listitem')
    .map((toast) => toast.textContent);
};

describe('toasts machine, driven through the notifications region', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      const toasts = renderRegion();
      await path.test({
        states: {
          empty: () => {
            expect(shownMessages()).toEqual([]);
            // The live list is there before any toast: screen readers read what is added to it.
            expect(politeList()).toHaveAttribute('aria-live', 'polite');
          },
          // The model merges states by count, so the count comes from the model and the
          // messages from the running actor.
          showing: (snapshot) => {
            const shown = shownMessages();
            expect(shown).toHaveLength(Math.min(snapshot.context.toasts.length, MAX_VISIBLE_TOASTS));
            expect(shown).toEqual(selectVisibleToasts(toasts.getSnapshot()).map((toast) => toast.message));
            expect(within(politeList()).getAllByRole('listitem')).toHaveLength(shown.length);
          },
        },
        events: {
          // Other machines raise toasts; here the test does, one millisecond apart.
          'toast.show': ({ event }) => {
            act(() => toasts.send(event));
            act(() => vi.advanceTimersByTime(1));
          },
          'toast.dismiss': ({ event }) => {
            const id = (event as { id: number }).id;
            const toast = screen.getByText(messageOf(id)).closest('li') as HTMLElement;
            fireEvent.click(within(toast).getByRole('button', { name: 'Dismiss notification' }));
            act(() => vi.advanceTimersByTime(1));
          },
          // The first visible toast is always the one whose timer ends first.
          'toast.expire': ({ event }) => {
            const message = messageOf((event as { id: number }).id);
            expect(screen.getByText(message)).toBeInTheDocument();
            while (screen.queryByText(message)) act(() => vi.advanceTimersToNextTimer());
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
