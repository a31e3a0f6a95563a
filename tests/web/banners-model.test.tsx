// @vitest-environment jsdom
// Model-based test of the app-wide banners machine through the banners above the page: the page
// waits for the first read (and shows once it failed or took 3 s), the valid active banners of
// this app newest first within the placement's limit, a dismissal (the button) that is kept and
// forgotten when the banner is edited, and the authoring screen's reload (a stand-in sends it).
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { bannersMachine, selectVisibleBanners } from '../../machines/banners';
import { APP_PATHS } from '../../src/domain/app-paths';
import { BANNER_TEXTS } from '../../src/domain/banners';
import { AppSystemProvider } from '../../src/web/app/actor-contexts';
import { BannersFrame } from '../../src/web/app/banners-region';
import { createModelWalker } from '../machines/support/model-coverage';
import { walk } from '../machines/walks/banners';
import { NEWEST } from '../support/banner-fixtures';

const walker = createModelWalker(bannersMachine, walk);

interface Load {
  readonly signal: AbortSignal;
  resolve(file: unknown): void;
  reject(error: unknown): void;
}

const PAGE = 'The page';

function renderFrame() {
  const loads: Load[] = [];
  const stored: string[][] = [];
  const actor = createActor(
    bannersMachine.provide({
      actors: { loadBannerFile: fromPromise(({ signal }) => new Promise((resolve, reject) => loads.push({ signal, resolve, reject }))) },
      actions: { reportInvalid: () => {}, rememberDismissals: (_, { keys }) => stored.push([...keys]) },
    }),
    { systemId: 'banners', input: { app: 'registry', dismissed: [] } },
  ).start();
  render(
    <MemoryRouter initialEntries={[APP_PATHS.login]}>
      <AppSystemProvider system={actor.system}>
        <BannersFrame>
          <h1>{PAGE}</h1>
        </BannersFrame>
      </AppSystemProvider>
    </MemoryRouter>,
  );
  /** The reads not given up (a reload aborts the one under way). */
  const live = () => loads.filter((load) => !load.signal.aborted);
  return { actor, loads, live, stored };
}

const region = () => screen.getByRole('region', { name: BANNER_TEXTS.region });
const shownMessages = () =>
  within(region())
    .queryAllByRole('listitem')
    .map((item) => item.querySelector('p')?.lastChild?.textContent);

describe('banners machine, driven through the banners above the page', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { actor, loads, live, stored } = renderFrame();
      const settle = async (outcome: { value: unknown } | { error: unknown }) => {
        const load = live().at(-1);
        if (load) loads.splice(loads.indexOf(load), 1);
        await act(async () => {
          if ('error' in outcome) load?.reject(outcome.error);
          else load?.resolve(outcome.value);
          await vi.advanceTimersByTimeAsync(0);
        });
      };
      await path.test({
        states: {
          loading: () => {
            // The live region is there before any banner, the page is not yet.
            expect(within(region()).getByRole('list')).toHaveAttribute('aria-live', 'polite');
            expect(screen.queryByRole('heading', { name: PAGE })).toBeNull();
          },
          ready: () => {
            expect(screen.getByRole('heading', { name: PAGE })).toBeInTheDocument();
            const expected = selectVisibleBanners(actor.getSnapshot(), 'default');
            expect(expected.length).toBeLessThanOrEqual(2);
            expect(shownMessages()).toEqual(expected.map((banner) => banner.message));
            const dismissed = actor.getSnapshot().context.dismissed;
            if (dismissed.length > 0) expect(stored.at(-1)).toEqual(dismissed);
            // Only dismissable banners have the (labelled) button.
            expect(within(region()).queryAllByRole('button', { name: BANNER_TEXTS.dismiss })).toHaveLength(
              expected.filter((banner) => banner.dismissable).length,
            );
          },
          // The banners shown stay while the file is read again.
          'ready.reloading': () => expect(live()).toHaveLength(1),
          'ready.idle': () => expect(live()).toHaveLength(0),
          failed: () => {
            expect(screen.getByRole('heading', { name: PAGE })).toBeInTheDocument();
            expect(shownMessages()).toEqual([]);
          },
        },
        events: {
          'done: loadBannerFile': ({ event }) => settle({ value: (event as unknown as { output: unknown }).output }),
          'error: loadBannerFile': () => settle({ error: new Error('502') }),
          'after: loadTimeout': async () => {
            await act(async () => {
              await vi.advanceTimersByTimeAsync(3000);
            });
          },
          'banner.dismiss': () => {
            const item = within(region())
              .queryAllByRole('listitem')
              .find((candidate) => candidate.textContent?.includes(NEWEST.message) || candidate.textContent?.includes('Maintenance'));
            if (item) fireEvent.click(within(item).getByRole('button', { name: BANNER_TEXTS.dismiss }));
            else act(() => actor.send({ type: 'banner.dismiss', uuid: NEWEST.uuid }));
          },
          // The authoring screen's reload after a save (a stand-in: the screen has its own test).
          'banners.reload': () => act(() => actor.send({ type: 'banners.reload' })),
        },
      });
      actor.stop();
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
