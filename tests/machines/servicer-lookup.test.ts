// The servicer-lookup machine: SPEC 5's messages on the form, the results page asking only with
// every field it needs (SPEC section 2), and 'No matches found' for an empty answer or an error.
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { isCompleteQuery, selectVisibleErrors, servicerLookupMachine } from '../../machines/servicer-lookup';
import { EMPTY_SERVICER_LOOKUP_DRAFT, type ServicerLookupDraft } from '../../src/contract/servicer-lookup';
import { SERVICER_LOOKUP_TEXTS as T } from '../../src/domain/servicer-lookup';

const VALID: ServicerLookupDraft = {
  borrowerLastName: 'Okafor',
  street1: '123 N Main St',
  street2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62704',
};

const start = (input: { results?: ServicerLookupDraft } = {}, lookup: () => Promise<never[]> = async () => []) => {
  const asked: unknown[] = [];
  const actor = createActor(
    servicerLookupMachine.provide({
      actors: {
        solveChallenge: fromPromise(async ({ input: challenge }) => challenge.payload ?? 'solved'),
        lookup: fromPromise(async ({ input: query }) => {
          asked.push(query);
          return lookup();
        }),
      },
    }),
    { input },
  ).start();
  return { actor, asked };
};

describe('servicer-lookup machine', () => {
  it('shows SPEC 5’s messages after a submit of an empty form, and no lookup', () => {
    const { actor, asked } = start();
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({});
    actor.send({ type: 'form.submit' });
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({
      borrowerLastName: T.required,
      street1: T.required,
      city: T.required,
      state: T.invalidState,
      zip: T.invalidZip,
    });
    actor.send({ type: 'form.change', values: { ...VALID, zip: '1234' } });
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({ zip: T.invalidZip });
    expect(asked).toEqual([]);
  });

  it('looks up a valid form with the widget’s solution and ends empty on an empty answer or an error', async () => {
    const { actor, asked } = start();
    actor.send({ type: 'form.change', values: VALID });
    actor.send({ type: 'challenge.verified', payload: 'widget' });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (snapshot) => snapshot.matches('empty'));
    expect(asked).toEqual([{ draft: VALID, payload: 'widget' }]);
    const failing = start({ results: VALID }, () => Promise.reject(new Error('500')));
    await waitFor(failing.actor, (snapshot) => snapshot.matches('empty'));
    expect(failing.asked).toHaveLength(1);
  });

  it('opened at the results URL asks only with last name, street, city, state and zip', async () => {
    const incomplete = start({ results: { ...VALID, city: '' } });
    expect(incomplete.actor.getSnapshot().matches('empty')).toBe(true);
    expect(incomplete.asked).toEqual([]);
    expect(isCompleteQuery(EMPTY_SERVICER_LOOKUP_DRAFT)).toBe(false);
    expect(isCompleteQuery(VALID)).toBe(true);
    const complete = start({ results: VALID });
    await waitFor(complete.actor, (snapshot) => snapshot.matches('empty'));
    expect(complete.asked).toEqual([{ draft: VALID, payload: 'solved' }]);
  });
});
