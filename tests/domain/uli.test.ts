import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidUli, uliCheckDigits } from '../../src/domain/uli';

describe('ULI check digits (ISO 7064 mod 97-10)', () => {
  it('accepts the published HMDA example', () => {
    expect(uliCheckDigits('10Bx939c5543TqA1144M999143X')).toBe('38');
    expect(isValidUli('10BX939C5543TQA1144M999143X38')).toBe(true);
  });

  it('rejects a ULI with one character changed', () => {
    expect(isValidUli('10BX939C5543TQA1144M999143X39')).toBe(false);
    expect(isValidUli('10BX939C5543TQA1144M999144X38')).toBe(false);
  });

  it('makes every generated body valid', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9A-Z]{21,43}$/), (body) => isValidUli(body + uliCheckDigits(body))));
  });
});
