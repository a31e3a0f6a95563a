// Model-based test of the banners screen's machine: the list (loaded, failed, retried), a new
// banner and an edit through the form (its errors with SPEC section 8's message), the review, the
// save (the toast and the page's banners read again) and a refused save (the server's text).
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  bannerAuthoringMachine,
  EMPTY_BANNER_DRAFT,
  selectBanners,
  selectDraft,
  selectVisibleErrors,
  type BannerSave,
} from '../../machines/banner-authoring';
import type { Banner } from '../../src/contract/banners';
import { BANNER_SCREEN_TEXTS as T } from '../../src/domain/banner-screen-texts';
import { createModelWalker } from './support/model-coverage';
import { refused, STORED, walk } from './walks/banner-authoring';

const walker = createModelWalker(bannerAuthoringMachine, walk);

interface Deferred<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

describe('banner-authoring machine (model)', () => {
  for (const path of walker.paths) {
    it(path.description, async () => {
      const lists: Deferred<readonly Banner[]>[] = [];
      const saves: { input: BannerSave; deferred: Deferred<Banner> }[] = [];
      const notifySaved = vi.fn();
      const reloadBanners = vi.fn();
      const actor = createActor(
        bannerAuthoringMachine.provide({
          actors: {
            listBanners: fromPromise(() => new Promise<readonly Banner[]>((resolve, reject) => lists.push({ resolve, reject }))),
            saveBanner: fromPromise(
              ({ input }) => new Promise<Banner>((resolve, reject) => saves.push({ input, deferred: { resolve, reject } })),
            ),
          },
          actions: { notifySaved, reloadBanners },
        }),
      ).start();
      const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
      await path.test({
        states: {
          loading: () => expect(actor.getSnapshot().hasTag('busy')).toBe(true),
          failed: () => expect(actor.getSnapshot().hasTag('busy')).toBe(false),
          list: () => expect(selectBanners(actor.getSnapshot())).toEqual([STORED]),
          editing: () => {
            const snapshot = actor.getSnapshot();
            const errors = selectVisibleErrors(snapshot);
            if (snapshot.context.showErrors && selectDraft(snapshot).message === '') expect(errors.message).toBe(T.required);
            else expect(errors.message).toBeUndefined();
            if (snapshot.context.editing === null && selectDraft(snapshot).message === '')
              expect(selectDraft(snapshot)).toEqual(EMPTY_BANNER_DRAFT);
          },
          reviewing: () => {
            const snapshot = actor.getSnapshot();
            expect(selectVisibleErrors({ ...snapshot, context: { ...snapshot.context, showErrors: true } } as typeof snapshot)).toEqual({});
            if (snapshot.context.saveError) expect(snapshot.context.saveError).toBe(T.appsRequired);
          },
          saving: () => {
            expect(saves.at(-1)?.input).toEqual({ uuid: actor.getSnapshot().context.editing, input: actor.getSnapshot().context.draft });
          },
        },
        events: {
          'done: listBanners': async () => {
            lists.shift()?.resolve([STORED]);
            await settle();
          },
          'error: listBanners': async () => {
            lists.shift()?.reject(new Error('500'));
            await settle();
          },
          'done: saveBanner': async () => {
            saves.shift()?.deferred.resolve(STORED);
            await settle();
            expect(notifySaved).toHaveBeenCalledTimes(1);
            expect(reloadBanners).toHaveBeenCalledTimes(1);
          },
          'error: saveBanner': async () => {
            saves.shift()?.deferred.reject(refused);
            await settle();
          },
          'banner.new': ({ event }) => actor.send(event),
          'banner.edit': ({ event }) => actor.send(event),
          'form.change': ({ event }) => actor.send(event),
          'form.submit': ({ event }) => actor.send(event),
          'form.cancel': ({ event }) => actor.send(event),
          'review.back': ({ event }) => actor.send(event),
          'review.confirm': ({ event }) => actor.send(event),
          'list.retry': ({ event }) => actor.send(event),
        },
      });
      actor.stop();
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });

  it('says what the server refused, else the screen’s generic text', async () => {
    const actor = createActor(
      bannerAuthoringMachine.provide({
        actors: {
          listBanners: fromPromise(async (): Promise<readonly Banner[]> => [STORED]),
          saveBanner: fromPromise(async (): Promise<Banner> => {
            throw new Error('network');
          }),
        },
        actions: { notifySaved: () => {}, reloadBanners: () => {} },
      }),
    ).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'banner.edit', uuid: STORED.uuid });
    actor.send({ type: 'form.submit' });
    actor.send({ type: 'review.confirm' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().context.saveError).toBe(T.saveFailed);
    // An unknown banner cannot be edited.
    actor.send({ type: 'review.back' });
    actor.send({ type: 'form.cancel' });
    actor.send({ type: 'banner.edit', uuid: '99999999-9999-4999-8999-999999999999' });
    expect(actor.getSnapshot().matches('list')).toBe(true);
  });
});
