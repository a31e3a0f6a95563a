// The one rule that decides whether an organization may ask for a loan's deactivation now, read
// by the asset page (from the details) and the asset list (from a list item) alike.
import { describe, expect, it } from 'vitest';
import { deactivationSubjectOf, deactivationSubjectOfItem } from '../../src/contract/deactivation';
import type { LoanDetails } from '../../src/contract/loans';
import { deactivationBlocker, type DeactivationSubject } from '../../src/domain/deactivation';
import { DEACTIVATION_TEXTS } from '../../src/domain/deactivation-texts';
import { sampleLoanListItem } from '../support/loan-list-fixtures';

const ours = '30000000-0000-4000-8000-000000000001';
const theirs = '30000000-0000-4000-8000-000000000002';
const allowed: DeactivationSubject = { active: true, heldRoles: ['OWNER'], roleStates: ['CONFIRMED'], requestPending: false };

describe('deactivation rule', () => {
  it('lets the owner or the servicer of an active loan with nothing waiting ask', () => {
    expect(deactivationBlocker(allowed)).toBeNull();
    expect(deactivationBlocker({ ...allowed, heldRoles: ['SERVICER', 'CONTROLLER'] })).toBeNull();
  });

  it('refuses, in the server words and order: not owner or servicer, inactive, a request pending, a transfer pending', () => {
    expect(deactivationBlocker({ ...allowed, heldRoles: ['CONTROLLER', 'SECURED_PARTY'] })).toBe(DEACTIVATION_TEXTS.notOwnerOrServicer);
    expect(deactivationBlocker({ ...allowed, heldRoles: [] })).toBe(DEACTIVATION_TEXTS.notOwnerOrServicer);
    expect(deactivationBlocker({ ...allowed, active: false })).toBe(DEACTIVATION_TEXTS.alreadyInactive);
    expect(deactivationBlocker({ ...allowed, requestPending: true })).toBe(DEACTIVATION_TEXTS.alreadyRequested);
    expect(deactivationBlocker({ ...allowed, roleStates: ['CONFIRMED', 'PENDING'] })).toBe(DEACTIVATION_TEXTS.transferPending);
    // Several at once: the first the server checks.
    expect(deactivationBlocker({ active: false, heldRoles: ['CONTROLLER'], roleStates: ['PENDING'], requestPending: true })).toBe(
      DEACTIVATION_TEXTS.notOwnerOrServicer,
    );
    expect(deactivationBlocker({ ...allowed, active: false, requestPending: true })).toBe(DEACTIVATION_TEXTS.alreadyInactive);
    expect(deactivationBlocker({ ...allowed, requestPending: true, roleStates: ['PENDING'] })).toBe(DEACTIVATION_TEXTS.alreadyRequested);
  });

  it("reads a list item: the organization's roles, the status, the role states and a waiting request", () => {
    const item = sampleLoanListItem(1, { heldRoles: ['OWNER'], securedParty: null });
    expect(deactivationBlocker(deactivationSubjectOfItem(item))).toBeNull();
    expect(deactivationBlocker(deactivationSubjectOfItem({ ...item, heldRoles: ['CONTROLLER'] }))).toBe(
      DEACTIVATION_TEXTS.notOwnerOrServicer,
    );
    expect(deactivationBlocker(deactivationSubjectOfItem({ ...item, status: 'Inactive' }))).toBe(DEACTIVATION_TEXTS.alreadyInactive);
    expect(deactivationBlocker(deactivationSubjectOfItem({ ...item, deactivationPending: true }))).toBe(
      DEACTIVATION_TEXTS.alreadyRequested,
    );
    expect(deactivationBlocker(deactivationSubjectOfItem({ ...item, servicer: { state: 'PENDING', currentValue: 'X' } }))).toBe(
      DEACTIVATION_TEXTS.transferPending,
    );
  });

  it("reads the details: the roles held by the organization's own parties", () => {
    const party = (role: string, participantId: string | null, state = 'CONFIRMED') => ({
      role,
      state,
      participantId,
      currentValue: null,
      profileInfo: null,
    });
    const details = {
      loan: { loanData: { status: 'Active' }, deactivated: false },
      parties: [party('OWNER', theirs), party('SERVICER', ours), party('CONTROLLER', null)],
    } as unknown as LoanDetails;
    expect(deactivationBlocker(deactivationSubjectOf(details, ours))).toBeNull();
    expect(deactivationBlocker(deactivationSubjectOf(details, '30000000-0000-4000-8000-000000000003'))).toBe(
      DEACTIVATION_TEXTS.notOwnerOrServicer,
    );
    const deactivated = { ...details, loan: { ...details.loan, deactivated: true } } as LoanDetails;
    expect(deactivationBlocker(deactivationSubjectOf(deactivated, ours))).toBe(DEACTIVATION_TEXTS.alreadyInactive);
    const transfer = { ...details, parties: [...details.parties, party('SECURED_PARTY', null, 'PENDING')] } as LoanDetails;
    expect(deactivationBlocker(deactivationSubjectOf(transfer, ours))).toBe(DEACTIVATION_TEXTS.transferPending);
  });
});
