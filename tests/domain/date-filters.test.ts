import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_FILTER_LABELS, dateFilterStart, isDateFilter } from '../../src/domain/date-filters';

// The browser's zone decides the day: pin one with daylight saving time.
const originalZone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  process.env.TZ = originalZone;
});

describe('date filters (SPEC section 9), in the local time zone', () => {
  const now = new Date('2026-11-16T20:15:00-05:00');

  it('starts today at local midnight, sent with its offset', () => {
    expect(dateFilterStart('today', now)).toBe('2026-11-16T00:00:00-05:00');
  });

  it('goes back 7 days for last week and 30 days for last 30 days, across a DST change', () => {
    expect(dateFilterStart('lastWeek', now)).toBe('2026-11-09T00:00:00-05:00');
    expect(dateFilterStart('last30Days', now)).toBe('2026-10-17T00:00:00-04:00');
  });

  it('goes back one calendar month for the pools filter', () => {
    expect(dateFilterStart('last30Days', new Date('2026-03-31T09:00:00-04:00'), 'month')).toBe('2026-02-28T00:00:00-05:00');
  });

  it('uses the local day, not the UTC one, late in the evening', () => {
    // 23:30 in New York is already the next day in UTC.
    expect(dateFilterStart('today', new Date('2026-11-16T23:30:00-05:00'))).toBe('2026-11-16T00:00:00-05:00');
  });

  it('names its filters and refuses others', () => {
    expect(DATE_FILTER_LABELS).toEqual({ today: 'Today', lastWeek: 'Last week', last30Days: 'Last 30 days' });
    expect(isDateFilter('today')).toBe(true);
    expect(isDateFilter('yesterday')).toBe(false);
  });
});
