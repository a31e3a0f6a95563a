// Model-based test of the servicer-lookup machine: every transition walked on a running actor
// whose proof of work and lookup are settled by the test, with what the screens read asserted in
// every state (the results page, the form's errors, the spent solution).
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  selectAddressAutocomplete,
  selectIsEmpty,
  selectIsFound,
  selectResults,
  selectVisibleErrors,
  servicerLookupMachine,
} from '../../machines/servicer-lookup';
import type { ServicerLookupDraft, ServicerLookupResult } from '../../src/contract/servicer-lookup';
import { SERVICER_LOOKUP_TEXTS as T } from '../../src/domain/servicer-lookup';
import { createModelWalker } from './support/model-coverage';
import { CHOSEN, RESULT, walk } from './walks/servicer-lookup';

const walker = createModelWalker(servicerLookupMachine, walk);

interface Deferred<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

describe('servicer-lookup machine (model)', () => {
  for (const path of walker.paths) {
    it(path.description, async () => {
      const solving: Deferred<string>[] = [];
      const looking: { input: { draft: ServicerLookupDraft; payload: string }; deferred: Deferred<ServicerLookupResult[]> }[] = [];
      const shown: ServicerLookupDraft[] = [];
      let resets = 0;
      const actor = createActor(
        servicerLookupMachine.provide({
          actors: {
            // Settled by the test: the widget's solution comes when the walk says so.
            solveChallenge: fromPromise(() => new Promise<string>((resolve, reject) => solving.push({ resolve, reject }))),
            lookup: fromPromise(
              ({ input }) =>
                new Promise<ServicerLookupResult[]>((resolve, reject) => looking.push({ input, deferred: { resolve, reject } })),
            ),
          },
          actions: {
            resetChallenge: () => {
              resets += 1;
            },
            showResults: (_, { draft }) => {
              shown.push(draft);
            },
          },
        }),
        { input: {} },
      ).start();
      const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
      await path.test({
        states: {
          form: () => {
            // The street field's autocomplete runs while the form shows, and knows what is typed there.
            const autocomplete = selectAddressAutocomplete(actor.getSnapshot());
            expect(autocomplete).toBeDefined();
            if (actor.getSnapshot().context.draft.street1 === '123 N') expect(autocomplete?.getSnapshot().context.query).toBe('123 N');
            if (actor.getSnapshot().context.draft.street1 === CHOSEN.street1 && actor.getSnapshot().context.draft.borrowerLastName === '') {
              expect(actor.getSnapshot().context.draft).toMatchObject({ city: CHOSEN.city, state: CHOSEN.state, zip: CHOSEN.zip });
            }
            const errors = selectVisibleErrors(actor.getSnapshot());
            if (actor.getSnapshot().context.showAll && actor.getSnapshot().context.draft.zip === '1') expect(errors.zip).toBe(T.invalidZip);
            if (!actor.getSnapshot().context.showAll) expect(errors).toEqual({});
          },
          verifying: () => expect(actor.getSnapshot().hasTag('busy')).toBe(true),
          searching: () => {
            expect(shown.at(-1)).toEqual(actor.getSnapshot().context.draft);
            expect(looking.at(-1)?.input.payload).toBe('solved');
            expect(resets).toBeGreaterThan(0);
          },
          found: () => {
            expect(selectIsFound(actor.getSnapshot())).toBe(true);
            expect(selectResults(actor.getSnapshot())).toEqual([RESULT]);
          },
          empty: () => {
            expect(selectIsEmpty(actor.getSnapshot())).toBe(true);
            expect(selectResults(actor.getSnapshot())).toEqual([]);
          },
        },
        events: {
          'form.change': ({ event }) => actor.send(event),
          'address.type': ({ event }) => actor.send(event),
          // As the child does (reportChosenToParent).
          'address.choose': ({ event }) => actor.send(event),
          'form.submit': ({ event }) => actor.send(event),
          'challenge.verified': ({ event }) => actor.send(event),
          'challenge.reset': ({ event }) => actor.send(event),
          'lookup.restart': ({ event }) => actor.send(event),
          'done: solveChallenge': async () => {
            solving.shift()?.resolve('solved');
            await settle();
          },
          'error: solveChallenge': async () => {
            solving.shift()?.reject(new Error('not solved'));
            await settle();
          },
          'done: lookup': async ({ event }) => {
            looking.shift()?.deferred.resolve((event as unknown as { output: ServicerLookupResult[] }).output);
            await settle();
          },
          'error: lookup': async () => {
            looking.shift()?.deferred.reject(new Error('500'));
            await settle();
          },
        },
      });
      actor.stop();
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted({ ignore: ['#servicerLookup.opening'] });
  });
});
