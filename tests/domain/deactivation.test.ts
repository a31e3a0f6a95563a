// The deactivation rules of SPEC section 5, as the form and the server both apply them.
import { describe, expect, it } from 'vitest';
import {
  DEACTIVATION_FIELDS,
  deactivationErrors,
  deactivationFieldsSchema,
  declaredInstrument,
  describeDeactivationErrors,
  draftOf,
  firstInvalidField,
  parseDeactivationErrors,
} from '../../src/contract/deactivation';
import {
  asksForAssignee,
  DEACTIVATION_REASON_LABELS,
  DEACTIVATION_REASONS,
  hasPdfSignature,
  isDeclaredPdf,
  ZIP_CODE_PATTERN,
} from '../../src/domain/deactivation';
import { DEACTIVATION_TEXTS as T } from '../../src/domain/deactivation-texts';
import { US_STATE_CODES } from '../../src/domain/us-states';
import { MB, VALID_VALUES } from '../support/deactivation-fixtures';

const pdf = { size: 1000, type: 'application/pdf' };

describe('deactivation rules', () => {
  it('offers the four reasons of SPEC section 5 with their labels, word for word', () => {
    expect(DEACTIVATION_REASONS.map((reason) => [reason, DEACTIVATION_REASON_LABELS[reason]])).toEqual([
      ['payoff', 'Payoff/Charge-off'],
      ['removeAsMortgage', 'remove the product as mortgagee'],
      ['removeAsset', 'remove the asset from the product and from the ledger'],
      ['foreclosure', 'Foreclosure/Enforcement'],
    ]);
  });

  it('accepts a complete request and normalizes it', () => {
    expect(deactivationErrors(draftOf(VALID_VALUES), pdf)).toEqual({});
    const parsed = deactivationFieldsSchema.parse(draftOf({ ...VALID_VALUES, 'address.state': ' ca ', 'address.street2': '  ' }));
    expect(parsed.address).toEqual({ street1: '500 Harbor Blvd', street2: null, city: 'Oakland', state: 'CA', zip: '94607' });
    expect(parsed.bookNumber).toBeNull();
  });

  it("uses SPEC's texts: 'Please enter a valid state' and 'File size cannot be more than 10MB'", () => {
    expect(deactivationErrors(draftOf({ ...VALID_VALUES, 'address.state': 'XX' }), pdf)).toEqual({
      'address.state': 'Please enter a valid state',
    });
    expect(deactivationErrors(draftOf(VALID_VALUES), { size: 10 * MB + 1, type: 'application/pdf' })).toEqual({
      securityInstrumentAndAssignment: 'File size cannot be more than 10MB',
    });
    expect(deactivationErrors(draftOf(VALID_VALUES), { size: 10 * MB, type: 'application/pdf' })).toEqual({});
  });

  it('requires reason, effective date, entity type, state postal code, street, city, state, zip and the file', () => {
    const errors = deactivationErrors(draftOf({}), null);
    expect(errors).toEqual({
      reason: T.reasonRequired,
      effectiveDate: T.effectiveDateRequired,
      entityType: T.entityTypeRequired,
      statePostalCode: T.statePostalCodeRequired,
      'address.street1': T.street1Required,
      'address.city': T.cityRequired,
      'address.state': T.invalidState,
      'address.zip': T.invalidZip,
      securityInstrumentAndAssignment: T.fileRequired,
    });
    expect(firstInvalidField(errors)).toBe('reason');
    expect(firstInvalidField({ 'address.zip': T.invalidZip, bookNumber: 'x' })).toBe('address.zip');
  });

  it('checks the effective date is a real ISO date', () => {
    for (const date of ['2026-02-30', '2026-13-01', '02/01/2026', 'tomorrow']) {
      expect(deactivationErrors(draftOf({ ...VALID_VALUES, effectiveDate: date }), pdf)).toEqual({ effectiveDate: T.invalidDate });
    }
    expect(deactivationErrors(draftOf({ ...VALID_VALUES, effectiveDate: '2024-02-29' }), pdf)).toEqual({});
  });

  it('takes 5 or 9 digit zips', () => {
    for (const zip of ['94607', '94607-1234', '946071234']) expect(ZIP_CODE_PATTERN.test(zip)).toBe(true);
    for (const zip of ['9460', '946071', '94607-12', 'ABCDE', '94607 1234']) expect(ZIP_CODE_PATTERN.test(zip)).toBe(false);
  });

  it('knows the 55 state codes for both state fields', () => {
    for (const code of US_STATE_CODES) {
      expect(deactivationErrors(draftOf({ ...VALID_VALUES, statePostalCode: code, 'address.state': code }), pdf)).toEqual({});
    }
    expect(deactivationErrors(draftOf({ ...VALID_VALUES, statePostalCode: 'ZZ' }), pdf)).toEqual({ statePostalCode: T.invalidState });
  });

  it('asks for the assignee only when the reason is not payoff, and drops it for a payoff', () => {
    expect(DEACTIVATION_REASONS.filter(asksForAssignee)).toEqual(['removeAsMortgage', 'removeAsset', 'foreclosure']);
    expect(deactivationFieldsSchema.parse(draftOf({ ...VALID_VALUES, reason: 'payoff' })).assignee).toBeNull();
    expect(deactivationFieldsSchema.parse(draftOf(VALID_VALUES)).assignee).toBe('Harbor Capital Trust');
  });

  it('judges a chosen file by its declared type or name, the server by its first bytes', () => {
    expect(isDeclaredPdf({ name: 'scan.PDF', type: '' })).toBe(true);
    expect(isDeclaredPdf({ name: 'scan.bin', type: 'application/pdf' })).toBe(true);
    expect(isDeclaredPdf({ name: 'notes.txt', type: 'text/plain' })).toBe(false);
    expect(declaredInstrument({ name: 'notes.txt', size: 10, type: 'text/plain' })).toEqual({ size: 10, type: 'text/plain' });
    expect(deactivationErrors(draftOf(VALID_VALUES), { size: 10, type: 'text/plain' })).toEqual({
      securityInstrumentAndAssignment: T.fileNotPdf,
    });
    expect(hasPdfSignature(Buffer.from('%PDF-1.4\n'))).toBe(true);
    expect(hasPdfSignature(Buffer.from('PK\u0003\u0004'))).toBe(false);
    expect(hasPdfSignature(Buffer.from('%PD'))).toBe(false);
  });

  it('names fields by their wire names in a 400, and reads them back', () => {
    const errors = { 'address.zip': T.invalidZip, 'address.state': T.invalidState, reason: T.reasonRequired };
    const message = describeDeactivationErrors(errors);
    expect(message).toBe(`reason: ${T.reasonRequired}; address.statePostalCode: ${T.invalidState}; address.zipCode: ${T.invalidZip}`);
    expect(parseDeactivationErrors(message)).toEqual(errors);
    expect(parseDeactivationErrors('A deactivation request for this asset is already pending.')).toEqual({});
    expect(DEACTIVATION_FIELDS).toHaveLength(14);
  });
});
