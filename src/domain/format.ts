// Display formats of SPEC section 9: dates MM-dd-yyyy, currency with $ and no decimals,
// phone (###) ###-####, and the relative times of messages (SPEC section 2). Used by the screens
// and the CSV alike.
import { differenceInMinutes, format, formatDistanceStrict, parseISO } from 'date-fns';
import { DATE_FORMAT } from './constants';

/** An ISO date (`2026-01-15`) or date-time as MM-dd-yyyy; a date-only value is never shifted by time zone. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.exec(value);
  if (dateOnly) {
    const [year, month, day] = value.split('-');
    return `${month}-${day}-${year}`;
  }
  const parsed = parseISO(value);
  return Number.isNaN(parsed.getTime()) ? '' : format(parsed, DATE_FORMAT);
}

const currencyFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
  minimumFractionDigits: 0,
});

/** $1,234,568: a $ prefix and no decimals (rounded to the dollar). */
export function formatCurrency(amount: number | null | undefined): string {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return '';
  return currencyFormat.format(amount);
}

/** (415) 555-0100 for a 10-digit US number (an 11-digit one starting with 1 drops the 1); else as given. */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const digits = value.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length !== 10) return value;
  return `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
}

const MINUTES_PER_HOUR = 60;
const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;
/** What a time under a minute old reads, in the words of date-fns' formatDistance. */
export const LESS_THAN_A_MINUTE_AGO = 'less than a minute ago';

/**
 * A message time relative to now, in minutes, hours and days (SPEC sections 2 and 9): '5 minutes
 * ago', '3 hours ago', '2 days ago' (whole units, rounded down; never months or years). Under a
 * minute, or a clock ahead of this one, reads 'less than a minute ago': '0 minutes ago' reads as
 * a bug, and a time ahead is shown as now, never as 'in 2 minutes'.
 */
export function formatRelativeTime(created: string, now: Date): string {
  const date = parseISO(created);
  const minutes = differenceInMinutes(now, date);
  if (minutes < 1) return LESS_THAN_A_MINUTE_AGO;
  const unit = minutes < MINUTES_PER_HOUR ? 'minute' : minutes < MINUTES_PER_DAY ? 'hour' : 'day';
  return formatDistanceStrict(date, now, { addSuffix: true, unit, roundingMethod: 'floor' });
}

/** The absolute time beside a relative one, MM-dd-yyyy and the local clock time: '06-01-2025 12:00 PM'. */
export function formatDateTime(created: string): string {
  return format(parseISO(created), `${DATE_FORMAT} h:mm a`);
}
