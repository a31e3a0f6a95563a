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

const VALID: ServicerLookupDraft = {
  borrowerLastName: 'Okafor',
  street1: '123 N Main St',
  street2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62704',
};
const RESULT: ServicerLookupResult = {
  uli: 'ULI1',
  loanType: 'MORTGAGE',
  loanNumber: '****1234',
  servicerName: 'Lakeside Servicing',
  servicerProfile: { url: null, address: { city: 'Springfield', state: 'IL' }, phoneNumber: null },
};

/** What the address autocomplete reports chosen: the street, city, state and zip of VALID. */
const CHOSEN = {
  fullAddress: '123 N Main St, Springfield, IL 62704',
  street1: '123 N Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62704',
};

const walker = createModelWalker(servicerLookupMachine, {
  input: {},
  events: {
    'form.change': [{ values: VALID }, { values: { zip: '1' } }],
    'address.type': { value: '123 N' },
    'address.choose': { address: CHOSEN },
    'challenge.verified': { payload: 'solved' },
    'done: solveChallenge': { output: 'solved' },
    'error: solveChallenge': { error: new Error('not solved') },
    'done: lookup': [{ output: [RESULT] }, { output: [] }],
    'error: lookup': { error: new Error('500') },
  },
  serializeState: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.draft.zip,
      snapshot.context.draft.street1,
      snapshot.context.showAll,
      snapshot.context.payload !== null,
    ]),
});

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
