import { describe, expect, it } from 'vitest';
import { FACTOR_TEXTS, factorRemovalRefusal, maskEmail, maskPhone, type FactorRuleView } from '../../src/domain/security-factors';

const factor = (id: string, type: FactorRuleView['type'], editable = true, required = false): FactorRuleView => ({
  id,
  type,
  editable,
  required,
});

describe('factorRemovalRefusal (SPEC section 6)', () => {
  const account = factor('e', 'Email', false, true);
  it('allows an editable, not required, existing factor while one of requireAtLeastOneOf stays', () => {
    expect(factorRemovalRefusal('p', [account, factor('p', 'Phone')], ['Email', 'Phone'])).toBeNull();
    expect(factorRemovalRefusal('k', [factor('m', 'Email'), factor('k', 'SecurityKey')], ['Email', 'Phone'])).toBeNull();
  });
  it('refuses a missing, a not editable and a required factor, each with its reason', () => {
    expect(factorRemovalRefusal('x', [account], ['Email'])).toBe(FACTOR_TEXTS.factorNotFound);
    expect(factorRemovalRefusal('e', [account], ['Email'])).toBe(FACTOR_TEXTS.notEditable);
    expect(factorRemovalRefusal('r', [factor('r', 'Phone', true, true), account], ['Email'])).toBe(FACTOR_TEXTS.required);
  });
  it('refuses the last factor of requireAtLeastOneOf', () => {
    expect(factorRemovalRefusal('p', [factor('p', 'Phone'), factor('k', 'SecurityKey')], ['Email', 'Phone'])).toBe(
      'Your account must keep at least one Email or Phone factor.',
    );
    expect(factorRemovalRefusal('p', [factor('p', 'Phone')], [])).toBeNull();
  });
});

describe('masking', () => {
  it('shows an address by its first character and domain, a number by its last four digits', () => {
    expect(maskEmail('jane.doe@registry.test')).toBe('j***@registry.test');
    expect(maskEmail('nonsense')).toBe('***');
    expect(maskPhone('+14155550123')).toBe('(***) ***-0123');
    expect(maskPhone('12')).toBe('(***) ***-**12');
  });
});
