import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidUli, normalizeUli, uliCheckDigits } from '../../src/domain/uli';

describe('ULI check digits (ISO 7064 mod 97-10)', () => {
  it('accepts the published HMDA example', () => {
    expect(uliCheckDigits('10Bx939c5543TqA1144M999143X')).toBe('38');
    expect(isValidUli('10BX939C5543TQA1144M999143X38')).toBe(true);
  });

  it('rejects a ULI with one character changed', () => {
    expect(isValidUli('10BX939C5543TQA1144M999143X39')).toBe(false);
    expect(isValidUli('10BX939C5543TQA1144M999144X38')).toBe(false);
  });

  // 12 CFR 1003 Appendix C: letters are not case-sensitive; the check digits are those of the uppercased ULI.
  it('accepts a valid ULI in lowercase and in mixed case', () => {
    expect(isValidUli('10bx939c5543tqa1144m999143x38')).toBe(true);
    expect(isValidUli('10Bx939c5543TqA1144M999143x38')).toBe(true);
    expect(uliCheckDigits('10bx939c5543tqa1144m999143x')).toBe('38');
  });

  it('still rejects wrong check digits, a changed character or a non-ASCII letter in lowercase and mixed case', () => {
    expect(isValidUli('10bx939c5543tqa1144m999143x39')).toBe(false);
    expect(isValidUli('10Bx939c5543TqA1144M999144x38')).toBe(false);
    // 'ſ' and 'ı' uppercase to 'S' and 'I' in JavaScript; they are not ULI letters.
    const body = '5493001KJTIIGC8Y1R12SI000000000';
    const uli = body + uliCheckDigits(body);
    expect(isValidUli(uli)).toBe(true);
    expect(isValidUli(uli.replace('S', 'ſ'))).toBe(false);
    expect(isValidUli(uli.replace('I0', 'ı0'))).toBe(false);
    expect(() => uliCheckDigits(body.replace('S', 'ſ'))).toThrow();
    expect(isValidUli('10BX939C5543TQA1144M999143X38 ')).toBe(false);
  });

  it('normalizes a ULI to uppercase letters and leaves digits and other characters alone', () => {
    expect(normalizeUli('10bx939c5543tqa1144m999143x38')).toBe('10BX939C5543TQA1144M999143X38');
    expect(normalizeUli('10BX939C5543TQA1144M999143X38')).toBe('10BX939C5543TQA1144M999143X38');
    expect(normalizeUli('ſß')).toBe('ſß');
  });

  it('makes every generated body valid', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9A-Z]{21,43}$/), (body) => isValidUli(body + uliCheckDigits(body))));
  });

  it('validates any letter case of a valid ULI alike, and of an invalid one alike', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9A-Z]{21,43}$/),
        fc.stringMatching(/^[0-9]{2}$/),
        fc.array(fc.boolean(), { minLength: 45, maxLength: 45 }),
        (body, digits, lower) => {
          const uli = body + digits;
          const mixed = [...uli].map((char, index) => (lower[index] ? char.toLowerCase() : char)).join('');
          return isValidUli(mixed) === isValidUli(uli) && normalizeUli(mixed) === uli;
        },
      ),
    );
  });
});
