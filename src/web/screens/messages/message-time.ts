// Message times (SPEC sections 2 and 9): relative, in minutes, hours and days ('5 minutes ago',
// '3 hours ago', '2 days ago'; never months or years), with the absolute time beside it for the
// time element's title.
import { differenceInMinutes, format, formatDistanceStrict, parseISO } from 'date-fns';
import { DATE_FORMAT } from '../../../domain/constants';

const MINUTES_PER_HOUR = 60;
const MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR;

/** '5 minutes ago', '3 hours ago', '2 days ago' (whole units, rounded down); under a minute (or a clock ahead) '0 minutes ago'. */
export function relativeTime(created: string, now: Date): string {
  const date = parseISO(created);
  const minutes = Math.max(0, differenceInMinutes(now, date));
  const unit = minutes < MINUTES_PER_HOUR ? 'minute' : minutes < MINUTES_PER_DAY ? 'hour' : 'day';
  // A time ahead of this clock is shown as now, never as 'in 2 minutes'.
  const shown = date.getTime() > now.getTime() ? now : date;
  return formatDistanceStrict(shown, now, { addSuffix: true, unit, roundingMethod: 'floor' });
}

/** The absolute time, MM-dd-yyyy and the local clock time: '06-01-2025 12:00 PM'. */
export function absoluteTime(created: string): string {
  return format(parseISO(created), `${DATE_FORMAT} h:mm a`);
}
