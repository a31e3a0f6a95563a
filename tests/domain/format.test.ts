import { describe, expect, it } from 'vitest';
import { formatCurrency, formatDate, formatPhone } from '../../src/domain/format';

describe('display formats (SPEC section 9)', () => {
  it('formats dates as MM-dd-yyyy without shifting a date-only value', () => {
    expect(formatDate('2026-01-05')).toBe('01-05-2026');
    expect(formatDate('2025-12-31')).toBe('12-31-2025');
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });

  it('formats currency with a $ prefix and no decimals', () => {
    expect(formatCurrency(1234567.89)).toBe('$1,234,568');
    expect(formatCurrency(0)).toBe('$0');
    expect(formatCurrency(undefined)).toBe('');
  });

  it('formats a 10-digit phone as (###) ###-####', () => {
    expect(formatPhone('4155550100')).toBe('(415) 555-0100');
    expect(formatPhone('14155550100')).toBe('(415) 555-0100');
    expect(formatPhone('+1 (415) 555-0100')).toBe('(415) 555-0100');
    expect(formatPhone('12345')).toBe('12345');
  });
});
