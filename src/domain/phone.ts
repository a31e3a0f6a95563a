// The phone field's rules (SPEC sections 3, 5 and 9): the country list with calling codes, the
// national-format length of a country, the as-you-type display and the conversion between the
// field's value and the text a form sends. Every table comes from libphonenumber-js and the
// country names from Intl.DisplayNames: nothing here is hand-written per country.
import {
  AsYouType,
  getCountries,
  getCountryCallingCode,
  getExampleNumber,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';
import examples from 'libphonenumber-js/examples.mobile.json';

export type { CountryCode };

/** SPEC section 3's country entry. */
export interface PhoneCountry {
  readonly country: string;
  readonly countryCode: CountryCode;
  readonly callingCode: string;
}

/** The field's value: the chosen country and the digits typed (national form, no punctuation). */
export interface PhoneValue {
  readonly countryCode: CountryCode;
  readonly digits: string;
}

export const DEFAULT_PHONE_COUNTRY: CountryCode = 'US';
export const EMPTY_PHONE: PhoneValue = { countryCode: DEFAULT_PHONE_COUNTRY, digits: '' };
/** SPEC section 5: the input's length when the country's national format is not known. */
export const FALLBACK_PHONE_LENGTH = 19;

const countryCache = new Map<string, readonly PhoneCountry[]>();

/** Every country libphonenumber-js knows (about 240), named in `locale`, sorted by name. */
export function phoneCountries(locale = 'en-US'): readonly PhoneCountry[] {
  const cached = countryCache.get(locale);
  if (cached) return cached;
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  const collator = new Intl.Collator(locale);
  const list = getCountries()
    .map((countryCode) => ({
      country: names.of(countryCode) ?? countryCode,
      countryCode,
      callingCode: getCountryCallingCode(countryCode),
    }))
    .sort((a, b) => collator.compare(a.country, b.country));
  countryCache.set(locale, list);
  return list;
}

export function isPhoneCountry(code: string): code is CountryCode {
  return (getCountries() as readonly string[]).includes(code);
}

function exampleNational(countryCode: CountryCode): string | undefined {
  return getExampleNumber(countryCode, examples)?.formatNational();
}

/** The national format's length in characters ((201) 555-0123 is 14), else 19. */
export function phoneMaxLength(countryCode: CountryCode): number {
  return exampleNational(countryCode)?.length ?? FALLBACK_PHONE_LENGTH;
}

/** How many digits the national format holds (10 for the US), else 19. */
export function phoneMaxDigits(countryCode: CountryCode): number {
  const example = exampleNational(countryCode);
  return example ? example.replace(/\D/g, '').length : FALLBACK_PHONE_LENGTH;
}

/** The digits as shown while typing: (###) ###-#### for the US, the country's format elsewhere. */
export function formatPhoneDigits(value: PhoneValue): string {
  if (!value.digits) return '';
  return new AsYouType(value.countryCode).input(value.digits);
}

/**
 * The digits after an edit of the shown text: punctuation dropped, capped at the country's
 * length. Deleting only punctuation (the ')' of '(201)') removes the digit before it, so
 * backspace never gets stuck on a character the formatter puts back.
 */
export function nextPhoneDigits(previous: PhoneValue, typed: string): string {
  const max = phoneMaxDigits(previous.countryCode);
  const digits = typed.replace(/\D/g, '').slice(0, max);
  const shown = formatPhoneDigits(previous);
  if (digits === previous.digits && typed.length < shown.length && typed === shown.slice(0, typed.length)) {
    return digits.slice(0, -1);
  }
  return digits;
}

/** The text a form sends: (###) ###-#### for a US number, else the international format. */
export function phoneValueToText(value: PhoneValue): string {
  if (!value.digits) return '';
  if (value.countryCode === 'US') return formatPhoneDigits(value);
  const parsed = parsePhoneNumberFromString(value.digits, value.countryCode);
  return parsed ? parsed.formatInternational() : `+${getCountryCallingCode(value.countryCode)} ${value.digits}`;
}

/** The field's value for a stored text: a US number in any punctuation, or an international one. */
export function phoneValueFromText(text: string | null | undefined): PhoneValue {
  const trimmed = (text ?? '').trim();
  if (!trimmed) return EMPTY_PHONE;
  if (trimmed.startsWith('+')) {
    const parsed = parsePhoneNumberFromString(trimmed);
    if (parsed?.country) {
      const national = parsed.formatNational().replace(/\D/g, '');
      return { countryCode: parsed.country, digits: national.slice(0, phoneMaxDigits(parsed.country)) };
    }
  }
  const digits = trimmed.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return { countryCode: DEFAULT_PHONE_COUNTRY, digits: national.slice(0, FALLBACK_PHONE_LENGTH) };
}
