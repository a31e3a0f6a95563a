// The servicer lookup's actors (machines/servicer-lookup.ts) over the app's services: the lookup
// through the API, the ALTCHA widget's solution, the focus and the way to the results page.
import { fromPromise } from 'xstate';
import { addressAutocompleteMachine, reportChosenToParent } from '../../../../machines/address-autocomplete';
import { servicerLookupMachine } from '../../../../machines/servicer-lookup';
import { createAddressLookup, type AddressLookup } from '../../../client/address-lookup';
import { SERVICER_LOOKUP_WIRE_NAMES_URL, type ServicerLookupDraft, type ServicerLookupField } from '../../../contract/servicer-lookup';
import { APP_PATHS } from '../../../domain/app-paths';
import type { AppServices } from '../../app/services';
import { ADDRESS_LOOKUP_URL } from '../../config';

/** The id of a field's control: `servicer-lookup-zip`. */
export const fieldId = (field: ServicerLookupField): string => `servicer-lookup-${field}`;
export const WIDGET_ID = 'servicer-lookup-altcha';

interface AltchaElement extends HTMLElement {
  verify?: () => Promise<{ payload: string } | null>;
  reset?: () => void;
}
const widget = () => document.getElementById(WIDGET_ID) as AltchaElement | null;

/** The results page's URL: SPEC section 2's query parameters. */
export function resultsPath(draft: ServicerLookupDraft): string {
  const params = new URLSearchParams();
  for (const [field, name] of Object.entries(SERVICER_LOOKUP_WIRE_NAMES_URL) as [ServicerLookupField, string][]) {
    const value = draft[field].trim();
    if (value) params.set(name, value);
  }
  return `${APP_PATHS.servicerLookupResults}?${params.toString()}`;
}

/** The query of the results URL as a draft (absent parameters empty). */
export function draftOfSearch(search: URLSearchParams): ServicerLookupDraft {
  const draft = {} as Record<ServicerLookupField, string>;
  for (const [field, name] of Object.entries(SERVICER_LOOKUP_WIRE_NAMES_URL) as [ServicerLookupField, string][]) {
    draft[field] = search.get(name) ?? '';
  }
  return draft;
}

/** The street field's autocomplete over an address-lookup service (by default the configured one). */
export function addressAutocompleteActors(lookupAddresses: AddressLookup = createAddressLookup(ADDRESS_LOOKUP_URL)) {
  return addressAutocompleteMachine.provide({
    actors: { fetchSuggestions: fromPromise(({ input, signal }) => lookupAddresses(input.query, signal)) },
    actions: { reportChosen: reportChosenToParent },
  });
}

export function servicerLookupActors(services: AppServices, lookupAddresses?: AddressLookup) {
  return servicerLookupMachine.provide({
    actors: {
      addressAutocomplete: addressAutocompleteActors(lookupAddresses),
      lookup: fromPromise(({ input, signal }) => services.api.servicerLookup(input.draft, input.payload, signal)),
      // The solution the widget already has, else the widget solves one now (it may still be loading).
      solveChallenge: fromPromise(async ({ input }) => {
        if (input.payload) return input.payload;
        for (let tries = 0; tries < 50 && !widget()?.verify; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
        const solved = await widget()?.verify?.();
        if (!solved?.payload) throw new Error('the proof of work was not solved');
        return solved.payload;
      }),
    },
    actions: {
      focusField: (_, { field }) => {
        if (field) setTimeout(() => document.getElementById(fieldId(field))?.focus(), 0);
      },
      resetChallenge: () => widget()?.reset?.(),
      showResults: (_, { draft }) => {
        const path = resultsPath(draft);
        if (`${window.location.pathname}${window.location.search}`.endsWith(path)) return;
        services.navigate(path);
      },
    },
  });
}
