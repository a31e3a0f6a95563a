// The address autocomplete's one call: GET partialAddress from the address-lookup service, ours
// (/address-lookup/api/v1/addresses) or an external provider of the same answer (ADDRESS_LOOKUP_URL,
// src/web/config.ts). Cookies go to our own origin only: a provider gets none.
import ky, { type KyInstance } from 'ky';
import { addressSuggestionsSchema, type AddressSuggestion } from '../contract/address-lookup';
import { HttpError } from '../contract/http-error';

export type AddressLookup = (partialAddress: string, signal?: AbortSignal) => Promise<AddressSuggestion[]>;

/** The suggestions for a partial address from the service at `url` (its items, parsed by the contract). */
export function createAddressLookup(url: string, kyInstance: KyInstance = ky): AddressLookup {
  const http = kyInstance.extend({ credentials: 'same-origin', retry: 0, throwHttpErrors: false, timeout: 10_000 });
  return async (partialAddress, signal) => {
    const response = await http.get(url, { searchParams: { partialAddress }, signal, headers: { accept: 'application/json' } });
    if (!response.ok) throw new HttpError(response.status, await response.text());
    return addressSuggestionsSchema.parse(await response.json()).items;
  };
}
