// Date filters of SPEC section 9: today, last week (7 days) and last 30 days (one month on the
// pools filter), computed in the browser's time zone and sent as an instant with its offset,
// e.g. 2026-11-16T00:00:00-05:00 for the start of that local day.
import { formatISO, startOfDay, subDays, subMonths } from 'date-fns';

export const DATE_FILTERS = ['today', 'lastWeek', 'last30Days'] as const;
export type DateFilter = (typeof DATE_FILTERS)[number];

export const DATE_FILTER_LABELS: Record<DateFilter, string> = {
  today: 'Today',
  lastWeek: 'Last week',
  last30Days: 'Last 30 days',
};

export const isDateFilter = (value: unknown): value is DateFilter => (DATE_FILTERS as readonly unknown[]).includes(value);

/** How far back 'last 30 days' reaches: 30 days on assets, one calendar month on pools. */
export type Last30DaysSpan = 'days' | 'month';

/**
 * The first instant a filter covers: the start of the local day, 0, 7 or 30 days (or one month)
 * before `now`, as an ISO date-time with the local offset (`Z` at UTC).
 */
export function dateFilterStart(filter: DateFilter, now: Date, last30Days: Last30DaysSpan = 'days'): string {
  const today = startOfDay(now);
  const start =
    filter === 'today'
      ? today
      : filter === 'lastWeek'
        ? subDays(today, 7)
        : last30Days === 'month'
          ? subMonths(today, 1)
          : subDays(today, 30);
  return formatISO(start);
}
