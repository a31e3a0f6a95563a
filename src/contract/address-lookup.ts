// The address autocomplete (SPEC section 7, "GET to an address-lookup service"): a partial address
// in, suggestions out. Served by our address-lookup service from its reference table, or by an
// external provider of the same shape (ADDRESS_LOOKUP_URL at build time).
import { z } from 'zod';
import { inputText } from './common';

/** Fewer characters than this suggest nothing (every address would match). */
export const ADDRESS_LOOKUP_MIN_CHARACTERS = 3;
export const ADDRESS_LOOKUP_LIMIT = 10;

export const addressLookupQuerySchema = z.object({
  partialAddress: inputText().trim().max(200, 'must be at most 200 characters'),
});

export const addressSuggestionSchema = z.object({
  fullAddress: z.string(),
  street1: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
});
export type AddressSuggestion = z.infer<typeof addressSuggestionSchema>;
export const addressSuggestionsSchema = z.object({ items: z.array(addressSuggestionSchema) });
export type AddressSuggestions = z.infer<typeof addressSuggestionsSchema>;

/** A partial address as the reference table's search key has it: lower case, commas and runs of spaces one space. */
export const addressSearchKey = (partial: string): string =>
  partial
    .toLowerCase()
    .replace(/[\s,]+/g, ' ')
    .trim();
