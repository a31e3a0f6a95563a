import { describe, expect, it } from 'vitest';
import { deriveAssetStatus, isHelocType, loanTypeLabel, LOAN_TYPES } from '../../src/domain/loan';
import { chooseParticipantId, filterOrganizations, needsOrganizationSearch } from '../../src/domain/organizations';
import { applicationLinks, isRegistryAdmin } from '../../src/domain/roles';
import { isUsStateCode, US_STATE_CODES } from '../../src/domain/us-states';
import { sampleOrganization } from '../support/session-fixtures';

describe('loan vocabulary', () => {
  it('labels every loan type as SPEC section 3 says', () => {
    expect(LOAN_TYPES.map(loanTypeLabel)).toEqual(['Crypto HELOC', 'DSCR', 'HELOC', 'Piggyback HELOC', 'RTL', 'Mortgage', 'Mortgage']);
    expect(loanTypeLabel('SECOND_MORTGAGE_LIEN')).toBe('Mortgage');
    expect(isHelocType('PIGGYBACK_HELOC')).toBe(true);
    expect(isHelocType('DSCR')).toBe(false);
  });

  it('derives the asset status in SPEC order', () => {
    expect(deriveAssetStatus('Inactive', ['PENDING'])).toBe('Deactivated');
    expect(deriveAssetStatus('Active', ['CONFIRMED', 'REJECTED', 'PENDING'])).toBe('Pending Update');
    expect(deriveAssetStatus('Active', ['CONFIRMED', 'REJECTED'])).toBe('Rejected Update');
    expect(deriveAssetStatus('Active', ['CONFIRMED', undefined])).toBe('Active');
    expect(deriveAssetStatus('Active', ['REQUESTED'])).toBeUndefined();
  });
});

describe('states list', () => {
  it('has the 55 codes: states, DC, AS, GU, PR, VI', () => {
    expect(US_STATE_CODES).toHaveLength(55);
    for (const code of ['DC', 'AS', 'GU', 'PR', 'VI', 'CA', 'WY']) expect(isUsStateCode(code)).toBe(true);
    expect(isUsStateCode('XX')).toBe(false);
  });
});

describe('organizations', () => {
  const organizations = [sampleOrganization(1), sampleOrganization(2, true), sampleOrganization(3)];

  it('chooses the stored organization, else the default, else the first', () => {
    expect(chooseParticipantId(organizations, organizations[2]?.participant.id ?? null)).toBe(organizations[2]?.participant.id);
    expect(chooseParticipantId(organizations, 'not-a-member')).toBe(organizations[1]?.participant.id);
    expect(chooseParticipantId([sampleOrganization(4)], null)).toBe(sampleOrganization(4).participant.id);
    expect(chooseParticipantId([], null)).toBeNull();
  });

  it('offers search above 8 organizations and filters by name', () => {
    expect(needsOrganizationSearch(8)).toBe(false);
    expect(needsOrganizationSearch(9)).toBe(true);
    expect(filterOrganizations(organizations, ' organization 2 ').map((entry) => entry.participant.name)).toEqual(['Organization 2']);
    expect(filterOrganizations(organizations, '')).toHaveLength(3);
  });
});

describe('roles', () => {
  it('lists applications by role', () => {
    expect(applicationLinks({}).map((link) => link.label)).toEqual(['Portfolio Manager', 'Admin Pricing']);
    expect(applicationLinks({ 'lead-portal': ['X'], csp: ['Y'] }).map((link) => link.label)).toEqual([
      'Lead Portal',
      'Customer Service Portal',
      'Portfolio Manager',
      'Admin Pricing',
    ]);
  });

  it('links each application to its configured address', () => {
    const urls = {
      leadPortal: 'https://leads.example.test/',
      customerServicePortal: 'https://csp.example.test/',
      portfolioManager: 'https://portfolio.example.test/',
      adminPricing: 'https://pricing.example.test/',
    };
    expect(applicationLinks({ 'lead-portal': ['X'], csp: ['Y'] }, urls).map((link) => link.href)).toEqual(Object.values(urls));
  });

  it('recognises registry administrators in the service-dart group only', () => {
    expect(isRegistryAdmin({ 'service-dart': ['ROLE_DART_OPS'] })).toBe(true);
    expect(isRegistryAdmin({ csp: ['ROLE_DART_ADMIN'] })).toBe(false);
  });
});
