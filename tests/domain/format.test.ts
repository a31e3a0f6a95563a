import { describe, expect, it } from 'vitest';
import { formatCurrency, formatDate, formatDateTime, formatPhone, formatRelativeTime } from '../../src/domain/format';

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

  describe('relative message times (SPEC sections 2 and 9)', () => {
    const now = new Date('2025-06-10T12:00:00Z');
    const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

    it('reads less than a minute ago for a message seconds old, never 0 minutes ago', () => {
      expect(formatRelativeTime(ago(0), now)).toBe('less than a minute ago');
      expect(formatRelativeTime(ago(20_000), now)).toBe('less than a minute ago');
      expect(formatRelativeTime(ago(59_999), now)).toBe('less than a minute ago');
    });

    it('shows a time ahead of this clock as now, never in the future', () => {
      expect(formatRelativeTime(new Date(now.getTime() + 60_000).toISOString(), now)).toBe('less than a minute ago');
    });

    it('counts whole minutes, hours and days, rounded down, never months', () => {
      expect(formatRelativeTime(ago(60_000), now)).toBe('1 minute ago');
      expect(formatRelativeTime(ago(59 * 60_000 + 59_000), now)).toBe('59 minutes ago');
      expect(formatRelativeTime(ago(3 * 3_600_000 + 59 * 60_000), now)).toBe('3 hours ago');
      expect(formatRelativeTime(ago(86_400_000), now)).toBe('1 day ago');
      expect(formatRelativeTime(ago(90 * 86_400_000), now)).toBe('90 days ago');
    });

    it('gives the absolute time as MM-dd-yyyy and the clock time', () => {
      expect(formatDateTime('2025-06-10T12:00:00Z')).toMatch(/^06-10-2025 \d{1,2}:00 (AM|PM)$/);
    });
  });
});
