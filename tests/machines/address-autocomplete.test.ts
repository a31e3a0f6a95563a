// The address autocomplete: nothing asked before the typing pauses (each keystroke starts the wait
// over), a request in flight aborted by more typing, loading/empty/failed told apart, and a chosen
// address filling the servicer lookup's street, city, state and zip.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  addressAutocompleteMachine,
  isSearchableQuery,
  reportChosenToParent,
  selectHasFailed,
  selectIsEmpty,
  selectIsLoading,
  selectSuggestions,
} from '../../machines/address-autocomplete';
import { selectAddressAutocomplete, selectDraft, servicerLookupMachine } from '../../machines/servicer-lookup';
import type { AddressSuggestion } from '../../src/contract/address-lookup';

const MAPLE: AddressSuggestion = {
  fullAddress: '1542 Maple Ave, Albany, NY 12203',
  street1: '1542 Maple Ave',
  city: 'Albany',
  state: 'NY',
  zip: '12203',
};
const DEBOUNCE_MS = 300;
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** A fetch the test answers: each call's query and signal kept. */
function fakeFetch(answer: (query: string) => Promise<AddressSuggestion[]> = async () => [MAPLE]) {
  const calls: { query: string; signal: AbortSignal }[] = [];
  const actor = fromPromise<AddressSuggestion[], { query: string }>(({ input, signal }) => {
    calls.push({ query: input.query, signal });
    return answer(input.query);
  });
  return { calls, actor };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('address-autocomplete machine', () => {
  it('asks once, after typing pauses, for the last thing typed', async () => {
    const fetch = fakeFetch();
    const actor = createActor(addressAutocompleteMachine.provide({ actors: { fetchSuggestions: fetch.actor } }), { input: {} }).start();
    for (const value of ['154', '1542', '1542 M', '1542 Ma']) {
      actor.send({ type: 'query.change', value });
      vi.advanceTimersByTime(DEBOUNCE_MS - 1);
    }
    expect(fetch.calls).toEqual([]);
    expect(actor.getSnapshot().matches('debouncing')).toBe(true);
    vi.advanceTimersByTime(1);
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
    await flush();
    expect(fetch.calls.map((call) => call.query)).toEqual(['1542 Ma']);
    expect(actor.getSnapshot().matches('listed')).toBe(true);
    expect(selectSuggestions(actor.getSnapshot())).toEqual([MAPLE]);
  });

  it('aborts the request in flight when more is typed, and asks nothing for too short a query', async () => {
    const fetch = fakeFetch(() => new Promise(() => undefined));
    const actor = createActor(addressAutocompleteMachine.provide({ actors: { fetchSuggestions: fetch.actor } }), { input: {} }).start();
    actor.send({ type: 'query.change', value: '1542 Ma' });
    vi.advanceTimersByTime(DEBOUNCE_MS);
    expect(fetch.calls).toHaveLength(1);
    expect(fetch.calls[0]?.signal.aborted).toBe(false);
    actor.send({ type: 'query.change', value: '1542 Map' });
    expect(fetch.calls[0]?.signal.aborted).toBe(true);
    actor.send({ type: 'query.change', value: '15' });
    vi.advanceTimersByTime(DEBOUNCE_MS * 2);
    expect(fetch.calls).toHaveLength(1);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(isSearchableQuery('1 ,')).toBe(false);
    expect(isSearchableQuery('154')).toBe(true);
  });

  it('tells an empty answer from a failure', async () => {
    let fail = false;
    const fetch = fakeFetch(async () => {
      if (fail) throw new Error('503');
      return [];
    });
    const actor = createActor(addressAutocompleteMachine.provide({ actors: { fetchSuggestions: fetch.actor } }), { input: {} }).start();
    actor.send({ type: 'query.change', value: '99999 Nowhere' });
    vi.advanceTimersByTime(DEBOUNCE_MS);
    await flush();
    expect(selectIsEmpty(actor.getSnapshot())).toBe(true);
    fail = true;
    actor.send({ type: 'query.change', value: '99999 Nowhere Ln' });
    vi.advanceTimersByTime(DEBOUNCE_MS);
    await flush();
    expect(selectHasFailed(actor.getSnapshot())).toBe(true);
    expect(selectSuggestions(actor.getSnapshot())).toEqual([]);
    actor.send({ type: 'suggestions.dismiss' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('fills the lookup’s street, city, state and zip with the address chosen, and leaves the rest', async () => {
    const fetch = fakeFetch();
    const lookup = createActor(
      servicerLookupMachine.provide({
        actors: {
          addressAutocomplete: addressAutocompleteMachine.provide({
            actors: { fetchSuggestions: fetch.actor },
            actions: { reportChosen: reportChosenToParent },
          }),
        },
      }),
      { input: {} },
    ).start();
    lookup.send({ type: 'form.change', values: { borrowerLastName: 'Okafor', street2: 'Apt 4' } });
    lookup.send({ type: 'address.type', value: '1542 Ma' });
    expect(selectDraft(lookup.getSnapshot()).street1).toBe('1542 Ma');
    vi.advanceTimersByTime(DEBOUNCE_MS);
    await flush();
    const autocomplete = selectAddressAutocomplete(lookup.getSnapshot());
    expect(autocomplete && selectSuggestions(autocomplete.getSnapshot())).toEqual([MAPLE]);
    autocomplete?.send({ type: 'suggestion.choose', suggestion: MAPLE });
    expect(selectDraft(lookup.getSnapshot())).toEqual({
      borrowerLastName: 'Okafor',
      street1: '1542 Maple Ave',
      street2: 'Apt 4',
      city: 'Albany',
      state: 'NY',
      zip: '12203',
    });
    expect(autocomplete?.getSnapshot().matches('idle')).toBe(true);
    // The autocomplete lives with the form only: a submit leaves it.
    lookup.send({ type: 'form.submit' });
    expect(selectAddressAutocomplete(lookup.getSnapshot())).toBeUndefined();
  });
});
