// A deactivation request the rules accept, and files for the form's tests.
import type { DeactivationFields, DeactivationTextField } from '../../src/contract/deactivation';

export const MB = 1024 * 1024;

/** Every field of the form, filled so the rules accept them (the optional ones left empty). */
export const VALID_VALUES: Readonly<Record<DeactivationTextField, string>> = {
  reason: 'foreclosure',
  effectiveDate: '2026-02-01',
  assignee: 'Harbor Capital Trust',
  entityType: 'Corporation',
  statePostalCode: 'DE',
  'address.street1': '500 Harbor Blvd',
  'address.street2': '',
  'address.city': 'Oakland',
  'address.state': 'CA',
  'address.zip': '94607',
  bookNumber: '',
  pageNumber: '',
  instrumentNumber: '',
};

/** A payoff request's fields as the server stores them (parsed: optional ones null, no assignee). */
export const PAYOFF_FIELDS: DeactivationFields = {
  reason: 'payoff',
  effectiveDate: '2026-02-01',
  assignee: null,
  entityType: 'Corporation',
  statePostalCode: 'IL',
  address: { street1: '1 Main Street', street2: null, city: 'Springfield', state: 'IL', zip: '62701' },
  bookNumber: null,
  pageNumber: null,
  instrumentNumber: null,
};

/** A file as the browser hands it over (its bytes do not matter to the form, only size, name and type). */
export const pdfFile = (size = 2048, name = 'instrument.pdf', type = 'application/pdf') => new File([new Uint8Array(size)], name, { type });
