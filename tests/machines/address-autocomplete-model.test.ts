// Model-based test of the address-autocomplete machine: every transition walked on a running actor
// whose debounce runs on a fake clock and whose requests the test answers, with what the street
// field shows asserted in every state (suggestions, loading, empty, failed, the address chosen).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  addressAutocompleteMachine,
  selectChosen,
  selectHasFailed,
  selectIsEmpty,
  selectIsLoading,
  selectSuggestions,
} from '../../machines/address-autocomplete';
import type { AddressSuggestion } from '../../src/contract/address-lookup';
import { createModelWalker } from './support/model-coverage';
import { MAPLE, walk } from './walks/address-autocomplete';

const walker = createModelWalker(addressAutocompleteMachine, walk);

interface Request {
  query: string;
  signal: AbortSignal;
  settled?: boolean;
  resolve(value: AddressSuggestion[]): void;
  reject(error: unknown): void;
}

const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('address-autocomplete machine (model)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const requests: Request[] = [];
      const chosen: AddressSuggestion[] = [];
      const actor = createActor(
        addressAutocompleteMachine.provide({
          actors: {
            fetchSuggestions: fromPromise(
              ({ input, signal }) =>
                new Promise<AddressSuggestion[]>((resolve, reject) => requests.push({ query: input.query, signal, resolve, reject })),
            ),
          },
          actions: {
            reportChosen: ({ event }) => {
              if (event.type === 'suggestion.choose') chosen.push(event.suggestion);
            },
          },
        }),
        { input: {} },
      ).start();
      const live = () => requests.filter((request) => !request.signal.aborted && !request.settled);
      await path.test({
        states: {
          idle: (snapshot) => {
            expect(live()).toEqual([]);
            expect(selectIsLoading(snapshot)).toBe(false);
            if (selectChosen(snapshot)) {
              expect(chosen.at(-1)).toEqual(MAPLE);
              expect(snapshot.context.query).toBe(MAPLE.street1);
            }
            expect(selectSuggestions(snapshot)).toEqual([]);
          },
          debouncing: () => {
            // Nothing asked while typing goes on; an earlier request was aborted.
            expect(live()).toEqual([]);
          },
          loading: (snapshot) => {
            expect(selectIsLoading(snapshot)).toBe(true);
            expect(live().map((request) => request.query)).toEqual([snapshot.context.query]);
          },
          listed: (snapshot) => expect(selectSuggestions(snapshot)).toEqual([MAPLE]),
          empty: (snapshot) => {
            expect(selectIsEmpty(snapshot)).toBe(true);
            expect(selectSuggestions(snapshot)).toEqual([]);
          },
          failed: (snapshot) => {
            expect(selectHasFailed(snapshot)).toBe(true);
            expect(selectSuggestions(snapshot)).toEqual([]);
          },
        },
        events: {
          'query.change': ({ event }) => actor.send(event),
          'suggestion.choose': ({ event }) => actor.send(event),
          'suggestions.dismiss': ({ event }) => actor.send(event),
          'after: debounce': () => vi.advanceTimersByTime(300),
          'done: fetchSuggestions': async ({ event }) => {
            const request = live().at(-1);
            if (request) request.settled = true;
            request?.resolve((event as unknown as { output: AddressSuggestion[] }).output);
            await flush();
          },
          'error: fetchSuggestions': async () => {
            const request = live().at(-1);
            if (request) request.settled = true;
            request?.reject(new Error('503'));
            await flush();
          },
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
