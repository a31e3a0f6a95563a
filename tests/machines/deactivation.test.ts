import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  deactivationMachine,
  selectDraft,
  selectHasFailed,
  selectIsChecking,
  selectIsSubmitting,
  selectIsUnavailable,
  selectRefusal,
  selectShowsAssignee,
  selectVisibleErrors,
  type DeactivationSubmission,
} from '../../machines/deactivation';
import type { DeactivationAccepted } from '../../src/contract/deactivation';
import type { LoanDetails } from '../../src/contract/loans';
import { HttpError } from '../../src/contract/http-error';
import { ASSET_PAGE_TEXTS } from '../../src/domain/asset-texts';
import { DEACTIVATION_TEXTS as T } from '../../src/domain/deactivation-texts';
import { MB, pdfFile, VALID_VALUES } from '../support/deactivation-fixtures';
import { sampleLoanDetails } from '../support/loan-fixtures';

const loanId = '5f0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f';
const accepted: DeactivationAccepted = { id: '9a0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f', loanId, status: 'SUBMITTED' };

/** The organization of sampleLoanDetails' owner. */
const ownerId = '00000000-0000-4000-8000-000000000001';

/** The machine over fake calls, once it has read the loan (by default one its organization may deactivate). */
async function start(
  submit: (submission: DeactivationSubmission) => Promise<DeactivationAccepted> = async () => accepted,
  load: () => Promise<LoanDetails> = async () => sampleLoanDetails(),
) {
  const submissions: DeactivationSubmission[] = [];
  const focused: (string | undefined)[] = [];
  const notifySubmitted = vi.fn();
  const notifyFailed = vi.fn();
  const goToAssets = vi.fn();
  const logic = deactivationMachine.provide({
    actors: {
      loadLoan: fromPromise(load),
      submitDeactivation: fromPromise(({ input }) => {
        submissions.push(input);
        return submit(input);
      }),
    },
    actions: {
      focusField: (_, { field }) => void focused.push(field),
      focusFailure: (_, { field }) => void focused.push(field ?? 'refusal'),
      focusSubmit: () => void focused.push('submit'),
      notifySubmitted,
      notifyFailed,
      goToAssets,
    },
  });
  const actor = createActor(logic, { input: { loanId, participantId: ownerId } }).start();
  await waitFor(actor, (snapshot) => !selectIsChecking(snapshot));
  return { actor, submissions, focused, notifySubmitted, notifyFailed, goToAssets };
}

describe('deactivation machine', () => {
  it('starts editing an empty draft, with no error shown yet', async () => {
    const { actor } = await start();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('editing')).toBe(true);
    expect(selectDraft(snapshot).reason).toBe('');
    expect(selectVisibleErrors(snapshot)).toEqual({});
    expect(selectIsSubmitting(snapshot)).toBe(false);
  });

  it('refuses an incomplete form on submit: every error shows and the first invalid field gets the focus', async () => {
    const { actor, focused, submissions } = await start();
    actor.send({ type: 'form.submit' });
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('editing')).toBe(true);
    expect(selectVisibleErrors(snapshot)).toEqual({
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
    expect(focused).toEqual(['reason']);
    expect(submissions).toEqual([]);

    // After a submit the errors follow every change; the focus goes to the first one left.
    actor.send({ type: 'form.change', values: { reason: 'payoff', effectiveDate: '2026-02-01' } });
    expect(selectVisibleErrors(actor.getSnapshot()).reason).toBeUndefined();
    actor.send({ type: 'form.change', values: { 'address.state': 'Cali' } });
    expect(selectVisibleErrors(actor.getSnapshot())['address.state']).toBe('Please enter a valid state');
    actor.send({ type: 'form.submit' });
    expect(focused).toEqual(['reason', 'entityType']);
  });

  it('judges a chosen file at once: more than 10 MB, not a PDF, or fine', async () => {
    const { actor } = await start();
    actor.send({ type: 'form.file', file: pdfFile(10 * MB + 1) });
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({ securityInstrumentAndAssignment: 'File size cannot be more than 10MB' });
    actor.send({ type: 'form.file', file: pdfFile(100, 'notes.txt', 'text/plain') });
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({ securityInstrumentAndAssignment: T.fileNotPdf });
    actor.send({ type: 'form.file', file: pdfFile(10 * MB) });
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({});
    // A PDF by its name when the browser gives no type.
    actor.send({ type: 'form.file', file: pdfFile(100, 'scan.PDF', '') });
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({});
  });

  it('shows the assignee only when the reason is not payoff', async () => {
    const { actor } = await start();
    expect(selectShowsAssignee(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'form.change', values: { reason: 'payoff' } });
    expect(selectShowsAssignee(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'form.change', values: { reason: 'removeAsset' } });
    expect(selectShowsAssignee(actor.getSnapshot())).toBe(true);
  });

  it('submits a valid form, then toasts and goes back to the assets', async () => {
    let resolve: (value: DeactivationAccepted) => void = () => undefined;
    const { actor, submissions, notifySubmitted, goToAssets } = await start(() => new Promise((done) => (resolve = done)));
    const file = pdfFile();
    actor.send({ type: 'form.change', values: VALID_VALUES });
    actor.send({ type: 'form.file', file });
    actor.send({ type: 'form.submit' });
    expect(selectIsSubmitting(actor.getSnapshot())).toBe(true);
    expect(submissions).toEqual([{ loanId, draft: selectDraft(actor.getSnapshot()), file }]);
    expect(submissions[0]?.draft.address).toEqual({ street1: '500 Harbor Blvd', street2: '', city: 'Oakland', state: 'CA', zip: '94607' });
    resolve(accepted);
    const done = await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(done.matches('submitted')).toBe(true);
    expect(notifySubmitted).toHaveBeenCalledTimes(1);
    expect(goToAssets).toHaveBeenCalledTimes(1);
  });

  it('keeps what was typed on failure, says so, and submits again', async () => {
    let attempts = 0;
    const { actor, notifyFailed, submissions } = await start(async () => {
      attempts += 1;
      if (attempts === 1) throw new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');
      return accepted;
    });
    actor.send({ type: 'form.change', values: VALID_VALUES });
    actor.send({ type: 'form.file', file: pdfFile() });
    actor.send({ type: 'form.submit' });
    const failed = await waitFor(actor, selectHasFailed);
    expect(notifyFailed).toHaveBeenCalledTimes(1);
    expect(selectDraft(failed).address.city).toBe('Oakland');
    expect(selectVisibleErrors(failed)).toEqual({});
    actor.send({ type: 'form.submit' });
    await waitFor(actor, (snapshot) => snapshot.matches('submitted'));
    expect(submissions).toHaveLength(2);
  });

  it('puts what the server said under each field it names, focuses the first, and clears it when the field changes', async () => {
    const { actor, focused } = await start(async () => {
      throw new HttpError(
        400,
        JSON.stringify({
          statusCode: 400,
          error: 'Bad Request',
          message: 'address.zipCode: Zip code must be 5 or 9 digits; bookNumber: Nope',
        }),
      );
    });
    actor.send({ type: 'form.change', values: VALID_VALUES });
    actor.send({ type: 'form.file', file: pdfFile() });
    actor.send({ type: 'form.submit' });
    const failed = await waitFor(actor, selectHasFailed);
    expect(selectVisibleErrors(failed)).toEqual({ 'address.zip': T.invalidZip, bookNumber: 'Nope' });
    expect(focused).toEqual(['submit', 'address.zip']);
    actor.send({ type: 'form.change', values: { 'address.zip': '94608' } });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({ bookNumber: 'Nope' });
  });

  it('shows a 413 or 415 under the file, and forgets it when another file is chosen', async () => {
    for (const [status, message] of [
      [413, 'securityInstrumentAndAssignment: File size cannot be more than 10MB'],
      [415, `securityInstrumentAndAssignment: ${T.fileNotPdf}`],
    ] as const) {
      const { actor } = await start(async () => {
        throw new HttpError(status, JSON.stringify({ statusCode: status, error: 'Refused', message }));
      });
      actor.send({ type: 'form.change', values: VALID_VALUES });
      actor.send({ type: 'form.file', file: pdfFile() });
      actor.send({ type: 'form.submit' });
      const failed = await waitFor(actor, selectHasFailed);
      expect(selectVisibleErrors(failed)).toEqual({ securityInstrumentAndAssignment: message.split(': ')[1] });
      actor.send({ type: 'form.file', file: pdfFile(4096) });
      expect(selectVisibleErrors(actor.getSnapshot())).toEqual({});
    }
  });

  it('goes from failed back to editing, errors shown, when a submit finds the form invalid', async () => {
    const { actor, focused } = await start(async () => {
      throw new HttpError(409, '{"message":"A deactivation request for this asset is already pending."}');
    });
    actor.send({ type: 'form.change', values: VALID_VALUES });
    actor.send({ type: 'form.file', file: pdfFile() });
    actor.send({ type: 'form.submit' });
    await waitFor(actor, selectHasFailed);
    expect(focused).toEqual(['submit', 'refusal']);
    actor.send({ type: 'form.file', file: null });
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(selectVisibleErrors(actor.getSnapshot())).toEqual({ securityInstrumentAndAssignment: T.fileRequired });
  });

  it('says a refusal that names no field above the form, focuses it, and clears it when the form is sent again', async () => {
    const transferPending = 'A role transfer of this asset awaits an answer: the asset can be deactivated once it is answered.';
    let attempts = 0;
    const { actor, focused, notifyFailed } = await start(async () => {
      attempts += 1;
      if (attempts === 1) throw new HttpError(409, JSON.stringify({ statusCode: 409, error: 'Conflict', message: transferPending }));
      throw new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');
    });
    actor.send({ type: 'form.change', values: VALID_VALUES });
    actor.send({ type: 'form.file', file: pdfFile() });
    actor.send({ type: 'form.submit' });
    expect(selectRefusal(actor.getSnapshot())).toBeNull();
    const failed = await waitFor(actor, selectHasFailed);
    expect(selectRefusal(failed)).toBe(transferPending);
    expect(selectVisibleErrors(failed)).toEqual({});
    expect(notifyFailed).toHaveBeenCalledTimes(1);
    expect(focused).toEqual(['submit', 'refusal']);
    // A change keeps the reason in view; a new submit clears it, and a 500 says no more than the toast.
    actor.send({ type: 'form.change', values: { bookNumber: '12' } });
    expect(selectRefusal(actor.getSnapshot())).toBe(transferPending);
    actor.send({ type: 'form.submit' });
    expect(selectIsSubmitting(actor.getSnapshot())).toBe(true);
    expect(selectRefusal(actor.getSnapshot())).toBeNull();
    await waitFor(actor, selectHasFailed);
    expect(selectRefusal(actor.getSnapshot())).toBeNull();
    expect(notifyFailed).toHaveBeenCalledTimes(2);
  });

  it('reads the loan first: one the organization may not deactivate now shows why instead of the form', async () => {
    const servicedElsewhere = sampleLoanDetails();
    const notOurs = { ...servicedElsewhere, parties: servicedElsewhere.parties.filter((party) => party.role !== 'OWNER') };
    for (const [details, reason] of [
      [notOurs, T.notOwnerOrServicer],
      [sampleLoanDetails({ status: 'Inactive', deactivated: true }), T.alreadyInactive],
      [sampleLoanDetails({ pendingOwner: true }), T.transferPending],
    ] as const) {
      const { actor, submissions } = await start(undefined, async () => details);
      expect(selectIsUnavailable(actor.getSnapshot())).toBe(true);
      expect(selectRefusal(actor.getSnapshot())).toBe(reason);
      actor.send({ type: 'form.submit' });
      expect(submissions).toEqual([]);
    }
  });

  it('says an unknown loan is not found, and leaves any other failure to read it to the server', async () => {
    const missing = await start(undefined, async () => {
      throw new HttpError(404, '{"statusCode":404,"error":"Not Found","message":"Loan not found."}');
    });
    expect(selectIsUnavailable(missing.actor.getSnapshot())).toBe(true);
    expect(selectRefusal(missing.actor.getSnapshot())).toBe(ASSET_PAGE_TEXTS.notFoundBody);
    const down = await start(undefined, async () => {
      throw new HttpError(503, '{"statusCode":503,"error":"Service Unavailable","message":"Service Unavailable"}');
    });
    expect(down.actor.getSnapshot().matches('editing')).toBe(true);
    expect(selectRefusal(down.actor.getSnapshot())).toBeNull();
  });
});
