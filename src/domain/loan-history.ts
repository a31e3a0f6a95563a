// The asset page's history (SPEC section 4): which events show and what the date column says.
import { formatDate } from './format';

/** What the history rules read of a loan event (SPEC section 3). */
export interface HistoryEvent {
  readonly state: string;
  readonly eventType: string;
  readonly effectiveDate: string | null;
  readonly requestedDate: string | null;
}

/** A deactivation request is shown while it waits; other requests are not history yet. */
export const DEACTIVATION_REQUESTED = 'DEACTIVATION_REQUESTED';
export const REQUESTED_EVENT_STATE = 'Requested';

/** SPEC section 4: events in state Requested are hidden unless the event type is DEACTIVATION_REQUESTED. */
export function isShownInHistory(event: HistoryEvent): boolean {
  return event.state !== REQUESTED_EVENT_STATE || event.eventType === DEACTIVATION_REQUESTED;
}

/** The events the History tab lists, in the order given. */
export function historyEvents<T extends HistoryEvent>(events: readonly T[]): T[] {
  return events.filter(isShownInHistory);
}

/** SPEC section 4: the effective date, else the requested date (MM-dd-yyyy), else the state name. */
export function historyDateLabel(event: HistoryEvent): string {
  return formatDate(event.effectiveDate) || formatDate(event.requestedDate) || event.state;
}

/** Event types for people: TRANSFER_OF_OWNERSHIP -> Transfer of ownership. */
export function eventTypeLabel(eventType: string): string {
  const words = eventType.toLowerCase().split('_').filter(Boolean).join(' ');
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : eventType;
}
