import { describe, expect, it } from 'vitest';
import { eventTypeLabel, historyDateLabel, historyEvents, isShownInHistory } from '../../src/domain/loan-history';
import { detailStatus, partyRoleLabel, stateLabel } from '../../src/domain/loan';

const event = (state: string, eventType: string, effectiveDate: string | null = null, requestedDate: string | null = null) => ({
  state,
  eventType,
  effectiveDate,
  requestedDate,
});

describe('asset history (SPEC section 4)', () => {
  it('hides events in state Requested unless the event type is DEACTIVATION_REQUESTED', () => {
    expect(isShownInHistory(event('Requested', 'TRANSFER_OF_OWNERSHIP'))).toBe(false);
    expect(isShownInHistory(event('Requested', 'DEACTIVATION_REQUESTED'))).toBe(true);
    for (const state of ['Pending', 'Confirmed', 'Rejected', 'Canceled']) {
      expect(isShownInHistory(event(state, 'TRANSFER_OF_OWNERSHIP'))).toBe(true);
    }
    const events = [
      event('Confirmed', 'REGISTRATION'),
      event('Requested', 'TRANSFER_OF_SERVICING'),
      event('Requested', 'DEACTIVATION_REQUESTED'),
    ];
    expect(historyEvents(events).map((e) => e.eventType)).toEqual(['REGISTRATION', 'DEACTIVATION_REQUESTED']);
    expect(historyEvents([])).toEqual([]);
  });

  it('dates an event by its effective date, else its requested date (MM-dd-yyyy), else its state name', () => {
    expect(historyDateLabel(event('Confirmed', 'REGISTRATION', '2024-03-20', '2024-03-18'))).toBe('03-20-2024');
    expect(historyDateLabel(event('Requested', 'DEACTIVATION_REQUESTED', null, '2025-01-06'))).toBe('01-06-2025');
    expect(historyDateLabel(event('Canceled', 'TRANSFER_OF_CONTROL'))).toBe('Canceled');
  });

  it('labels event types for people', () => {
    expect(eventTypeLabel('DEACTIVATION_REQUESTED')).toBe('Deactivation requested');
    expect(eventTypeLabel('REGISTRATION')).toBe('Registration');
    expect(eventTypeLabel('')).toBe('');
  });
});

describe('detail status (SPEC section 4)', () => {
  it('shows Pending Update, Deactivated, or the raw status, in that order', () => {
    expect(detailStatus({ status: 'Active', deactivated: false }, ['CONFIRMED', 'PENDING'])).toBe('Pending Update');
    expect(detailStatus({ status: 'Inactive', deactivated: true }, ['PENDING'])).toBe('Pending Update');
    expect(detailStatus({ status: 'Inactive', deactivated: true }, ['CONFIRMED'])).toBe('Deactivated');
    expect(detailStatus({ status: 'Active', deactivated: false }, ['CONFIRMED', 'REJECTED', 'REQUESTED'])).toBe('Active');
    expect(detailStatus({ status: 'Deleted', deactivated: false }, [])).toBe('Deleted');
    expect(detailStatus({ status: 'Inactive', deactivated: false }, [null])).toBe('Inactive');
  });

  it('labels roles and states for people', () => {
    expect(['OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY', 'ORIGINATOR'].map(partyRoleLabel)).toEqual([
      'Owner',
      'Servicer',
      'Controller',
      'Sub-servicer',
      'Secured party',
      'Originator',
    ]);
    expect(partyRoleLabel('SOMETHING_ELSE')).toBe('SOMETHING_ELSE');
    expect(stateLabel('PENDING')).toBe('Pending');
    expect(stateLabel('Confirmed')).toBe('Confirmed');
  });
});
