// The public servicer lookup (SPEC sections 2, 5 and 8): its texts, written once here and used by
// the form (machines/servicer-lookup.ts) and the server (src/contract/servicer-lookup.ts) alike,
// and the pure rules both sides share: how a last name is compared and how a loan number is masked.

export const SERVICER_LOOKUP_TEXTS = {
  /** SPEC section 5: last name, street and city. */
  required: 'Required',
  invalidState: 'Please select a valid state.',
  invalidZip: 'Please enter a valid 5 or 9-digit zip code.',
  /** SPEC section 8: an empty result or an error. */
  noMatches: 'No matches found',
  /** Ours: what the results page says while it asks. */
  searching: 'Searching…',
  /** Ours: the proof-of-work challenge was missing, invalid, expired or already used. */
  challengeRequired: 'Please complete the verification before searching.',
  challengeInvalid: 'The verification failed or has expired. Please verify again.',
  challengeUsed: 'This verification has already been used. Please verify again.',
  /** Ours: 429. */
  tooManyLookups: 'Too many lookups. Please try again later.',
  returnLink: 'Return to servicer lookup',
} as const;

/** Zip: 5 digits, or 5+4 (with or without the hyphen). */
export const LOOKUP_ZIP_PATTERN = /^\d{5}(?:-?\d{4})?$/;
/** SPEC section 9: zip max length 10; names 128 characters; our bound on the address lines. */
export const LOOKUP_ZIP_MAX = 10;
export const LOOKUP_NAME_MAX = 128;
export const LOOKUP_TEXT_MAX = 200;

/**
 * A last name as the lookup compares it: case, accents and spacing ignored ('De la Peña' is
 * 'delapena'). The comparison is exact on this key, never fuzzy.
 */
export const lastNameKey = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/\s+/g, '')
    .toLowerCase();

/** Our privacy decision: a loan number is shown masked but for its last 4 characters. */
export const maskLoanNumber = (loanNumber: string): string =>
  loanNumber.length <= 4 ? loanNumber : '*'.repeat(loanNumber.length - 4) + loanNumber.slice(-4);

/** The ZIP of a ZIP+4 (the lookup's limits and record count a property by its 5-digit ZIP). */
export const zip5 = (zip: string): string => zip.replace(/\D/g, '').slice(0, 5);

/** Ours: the street field's address autocomplete. */
export const ADDRESS_AUTOCOMPLETE_TEXTS = {
  hint: 'Type the start of the address, then choose it from the list to fill city, state and zip.',
  searching: 'Searching addresses…',
  /** The listbox's announcement: how many addresses it offers. */
  count: (count: number) => `${count} ${count === 1 ? 'address' : 'addresses'} found. Use the up and down arrows to choose.`,
  none: 'No matching address. Type the rest of it.',
  failed: 'Address suggestions are unavailable. Type the address in full.',
  listLabel: 'Address suggestions',
} as const;
