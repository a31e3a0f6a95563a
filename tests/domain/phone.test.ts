import { describe, expect, it } from 'vitest';
import {
  EMPTY_PHONE,
  FALLBACK_PHONE_LENGTH,
  formatPhoneDigits,
  isPhoneCountry,
  nextPhoneDigits,
  phoneCountries,
  phoneMaxDigits,
  phoneMaxLength,
  phoneValueFromText,
  phoneValueToText,
} from '../../src/domain/phone';

describe('phone field rules (SPEC sections 3, 5 and 9)', () => {
  it('lists about 240 countries with a name, a two-letter code and a calling code, sorted by name', () => {
    const countries = phoneCountries();
    expect(countries.length).toBeGreaterThanOrEqual(230);
    expect(countries.length).toBeLessThanOrEqual(260);
    expect(countries).toContainEqual({ country: 'United States', countryCode: 'US', callingCode: '1' });
    expect(countries).toContainEqual({ country: 'United Kingdom', countryCode: 'GB', callingCode: '44' });
    for (const entry of countries) {
      expect(entry.countryCode).toMatch(/^[A-Z]{2}$/);
      expect(entry.callingCode).toMatch(/^\d{1,3}$/);
      expect(entry.country).not.toBe(entry.countryCode);
    }
    const names = countries.map((entry) => entry.country);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en-US')));
    expect(new Set(countries.map((entry) => entry.countryCode)).size).toBe(countries.length);
  });

  it('names the countries in the locale asked for', () => {
    expect(phoneCountries('de').find((entry) => entry.countryCode === 'DE')?.country).toBe('Deutschland');
  });

  it('defaults to the US with an empty number', () => {
    expect(EMPTY_PHONE).toEqual({ countryCode: 'US', digits: '' });
    expect(formatPhoneDigits(EMPTY_PHONE)).toBe('');
    expect(phoneValueToText(EMPTY_PHONE)).toBe('');
  });

  it("limits the input to the country's national-format length", () => {
    expect(phoneMaxLength('US')).toBe('(201) 555-0123'.length);
    expect(phoneMaxDigits('US')).toBe(10);
    expect(phoneMaxDigits('GB')).toBe(11);
    expect(FALLBACK_PHONE_LENGTH).toBe(19);
    expect(nextPhoneDigits(EMPTY_PHONE, '201555012399')).toBe('2015550123');
  });

  it('shows US numbers as (###) ###-#### while typing', () => {
    expect(formatPhoneDigits({ countryCode: 'US', digits: '20' })).toBe('20');
    expect(formatPhoneDigits({ countryCode: 'US', digits: '201555' })).toBe('(201) 555');
    expect(formatPhoneDigits({ countryCode: 'US', digits: '2015550123' })).toBe('(201) 555-0123');
    expect(formatPhoneDigits({ countryCode: 'GB', digits: '07400123456' })).toBe('07400 123456');
  });

  it('keeps digits only and lets backspace through the punctuation the formatter adds', () => {
    expect(nextPhoneDigits(EMPTY_PHONE, 'a2b0-1')).toBe('201');
    // '(201)' with its ')' deleted: the 1 goes, not the parenthesis coming back.
    expect(nextPhoneDigits({ countryCode: 'US', digits: '201' }, '(201')).toBe('20');
    expect(nextPhoneDigits({ countryCode: 'US', digits: '2015' }, '(201) 5')).toBe('2015');
    expect(nextPhoneDigits({ countryCode: 'US', digits: '2015' }, '(201) ')).toBe('201');
  });

  it('converts between the field value and the text a form sends', () => {
    expect(phoneValueToText({ countryCode: 'US', digits: '2015550123' })).toBe('(201) 555-0123');
    expect(phoneValueToText({ countryCode: 'GB', digits: '07400123456' })).toBe('+44 7400 123456');
    expect(phoneValueFromText('(201) 555-0123')).toEqual({ countryCode: 'US', digits: '2015550123' });
    expect(phoneValueFromText('12015550123')).toEqual({ countryCode: 'US', digits: '2015550123' });
    expect(phoneValueFromText('+44 7400 123456')).toEqual({ countryCode: 'GB', digits: '07400123456' });
    expect(phoneValueFromText(null)).toEqual(EMPTY_PHONE);
  });

  it('knows which codes are countries', () => {
    expect(isPhoneCountry('US')).toBe(true);
    expect(isPhoneCountry('ZZ')).toBe(false);
  });
});
