// Display formats of SPEC section 9: dates MM-dd-yyyy, currency with $ and no decimals,
// phone (###) ###-####. Used by the screens and the CSV alike.
import { format, parseISO } from 'date-fns';
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
