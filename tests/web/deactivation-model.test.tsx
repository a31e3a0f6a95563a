// @vitest-environment jsdom
// Model-based test of the deactivation machine through the signed-in app: every transition of its
// statechart is walked on the rendered form (/assets/asset/:loanId/details/deactivate) by typing,
// choosing files and submitting, over a fake API whose deactivation call the test settles.
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deactivationMachine } from '../../machines/deactivation';
import {
  DEACTIVATION_TEXT_FIELDS,
  INSTRUMENT_FILE_FIELD,
  type DeactivationField,
  type DeactivationTextField,
} from '../../src/contract/deactivation';
import type { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { DEACTIVATION_REASON_LABELS, DEACTIVATION_REASONS } from '../../src/domain/deactivation';
import { ASSET_PAGE_TEXTS } from '../../src/domain/asset-texts';
import { DEACTIVATION_TEXTS as T } from '../../src/domain/deactivation-texts';
import { fieldId } from '../../src/web/screens/deactivation/deactivation-actors';
import { createModelWalker } from '../machines/support/model-coverage';
import {
  accepted,
  goodFile,
  hugeFile,
  loanNotFound,
  organization,
  refused,
  transferPending,
  walk,
  zipRefused,
} from '../machines/walks/deactivation';
import { VALID_VALUES } from '../support/deactivation-fixtures';
import { sampleLoanDetails, sampleLoanId } from '../support/loan-fixtures';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';

const walker = createModelWalker(deactivationMachine, walk);

const user = userEvent.setup();
const control = (field: DeactivationField) => document.getElementById(fieldId(field)) as HTMLInputElement | HTMLSelectElement;
const submitButton = () => screen.getByRole('button', { name: new RegExp(`^(${T.submit}|${T.submitting})$`) });

/** The deactivation route, its loan read by a deferred call: settled with a loan the organization may deactivate unless `readLoan` is false. */
async function openForm({ readLoan = true } = {}) {
  const app = await renderSignedIn([organization]);
  const calls = deferProductCalls(app.fake.api, ['requestDeactivation', 'listLoans', 'loanDetails']);
  await act(() => app.router.navigate(APP_PATHS.deactivate(sampleLoanId)));
  await screen.findByRole('heading', { level: 1, name: T.title });
  if (readLoan) {
    await calls.settle('loanDetails', { value: sampleLoanDetails() });
    await screen.findByRole('button', { name: T.submit });
  }
  return { app, calls };
}

/** Types (or picks) each value as a user would: selects by option, the date as the picker sets it, text pasted. */
async function fill(values: Partial<Record<DeactivationTextField, string>>) {
  for (const field of DEACTIVATION_TEXT_FIELDS) {
    const value = values[field];
    if (value === undefined) continue;
    const element = control(field);
    if (!element) continue; // the assignee is not on screen for a payoff
    if (element instanceof HTMLSelectElement) await user.selectOptions(element, value);
    else if (element.type === 'date') fireEvent.change(element, { target: { value } });
    else {
      await user.clear(element);
      if (value) {
        element.focus();
        await user.paste(value);
      }
    }
  }
}

/** Every filled field shows the value typed (the assignee is not on screen for a payoff). */
function expectValues(values: Partial<Record<DeactivationTextField, string>>) {
  for (const [field, value] of Object.entries(values) as [DeactivationTextField, string][]) {
    const element = control(field);
    if (field === 'assignee' && values.reason === 'payoff') expect(element).toBeNull();
    else expect(element, field).toHaveValue(value);
  }
}

/** The field shows this error (tied to it), or none. */
function expectError(field: DeactivationField, error: string | undefined) {
  const element = control(field);
  if (error) {
    expect(element, field).toHaveAttribute('aria-invalid', 'true');
    expect(element, field).toHaveAccessibleDescription(expect.stringContaining(error));
  } else {
    expect(element, field).not.toHaveAttribute('aria-invalid');
  }
}

/** The controls showing an error, in form order. */
const invalidControls = () => [...document.querySelectorAll('form [aria-invalid="true"]')];

// The lazy routes' modules, loaded once up front so no path waits on a cold import.
beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/deactivation/deactivation-screen'),
    import('../../src/web/screens/assets/assets-screen'),
    import('../../src/web/screens/asset/asset-screen'),
  ]);
});

describe('deactivation machine, driven through the deactivation form', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { app, calls } = await openForm({ readLoan: false });
      await path.test({
        // State identity is the machine's state and whether the fields and the file pass the rules
        // (serializeState): what each state shows follows from those; what one step changes on
        // screen is checked by that step's executor below.
        states: {
          checking: () => {
            expect(screen.getByText(ASSET_PAGE_TEXTS.loading)).toBeInTheDocument();
            expect(screen.queryByRole('button', { name: T.submit })).not.toBeInTheDocument();
          },
          unavailable: async () => {
            const reason = await screen.findByText(new RegExp(`^(${T.transferPending}|${ASSET_PAGE_TEXTS.notFoundBody})$`));
            expect(reason).toHaveAttribute('role', 'alert');
            expect(screen.queryByRole('button', { name: T.submit })).not.toBeInTheDocument();
            expect(screen.queryByText(ASSET_PAGE_TEXTS.loading)).not.toBeInTheDocument();
          },
          editing: () => {
            expect(submitButton()).toHaveTextContent(T.submit);
            expect(submitButton()).not.toHaveAttribute('aria-disabled', 'true');
            expect(control('address.city')).toBeEnabled();
          },
          submitting: async () => {
            await waitFor(() => expect(submitButton()).toHaveTextContent(T.submitting));
            // The fields are disabled; the button is only aria-disabled, so it keeps the focus.
            expect(submitButton()).toHaveAttribute('aria-disabled', 'true');
            expect(control('address.city')).toBeDisabled();
            await waitFor(() => expect(document.activeElement).toBe(submitButton()));
            const [loanId, draft, file] = calls.calls('requestDeactivation').at(-1) ?? [];
            expect(loanId).toBe(sampleLoanId);
            expect(draft).toMatchObject({ reason: 'foreclosure', address: expect.objectContaining({ city: 'Oakland', zip: '94607' }) });
            expect(file).toBe(goodFile);
          },
          submitted: async () => {
            await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.assets));
            const toasts = within(screen.getByRole('region', { name: 'Notifications' }));
            expect((await toasts.findAllByRole('listitem')).some((element) => element.textContent?.includes(T.submitted))).toBe(true);
          },
          failed: async () => {
            const alerts = await screen.findAllByRole('alert');
            expect(alerts.at(-1)).toHaveTextContent(T.submitFailed);
            expect(app.location().pathname).toBe(APP_PATHS.deactivate(sampleLoanId));
            await waitFor(() => expect(submitButton()).toHaveTextContent(T.submit));
            // The form keeps what was typed (only the valid draft is ever submitted).
            expectValues(VALID_VALUES);
            expect(screen.getByTestId('deactivation-file')).toHaveTextContent(goodFile.name);
          },
        },
        events: {
          'form.change': async ({ event }) => {
            const { values } = event as { values: Partial<Record<DeactivationTextField, string>> };
            await fill(values);
            expectValues(values);
            // A changed field loses what the server said of it.
            if (values['address.zip'] !== undefined && values['address.zip'] !== '946') expectError('address.zip', undefined);
          },
          'form.file': async ({ event }) => {
            const { file } = event as { file: File };
            await user.upload(control(INSTRUMENT_FILE_FIELD) as HTMLInputElement, file);
            expect(screen.getByTestId('deactivation-file')).toHaveTextContent(file.name);
            // Judged at once: over 10 MB is refused before any submit.
            expectError(INSTRUMENT_FILE_FIELD, file === hugeFile ? T.fileTooLarge : undefined);
          },
          'form.submit': async ({ state }) => {
            await user.click(submitButton());
            if (!state.matches('editing')) return;
            // Refused by the rules: errors show and the focus moves to the first invalid field.
            await waitFor(() => expect(invalidControls().length).toBeGreaterThan(0));
            await waitFor(() => expect(document.activeElement).toBe(invalidControls()[0]));
            expect(document.activeElement).toHaveAccessibleDescription(expect.stringMatching(/\S/));
          },
          'done: loadLoan': async ({ event }) => {
            const { output } = event as unknown as { output: ReturnType<typeof sampleLoanDetails> };
            await calls.settle('loanDetails', { value: output });
            if (output === transferPending) await screen.findByText(T.transferPending);
            else await screen.findByRole('button', { name: T.submit });
          },
          'error: loadLoan': async ({ event }) => {
            const { error } = event as unknown as { error: HttpError };
            await calls.settle('loanDetails', { error });
            if (error === loanNotFound) await screen.findByText(ASSET_PAGE_TEXTS.notFoundBody);
            // Any other failure leaves the decision to the server: the form is offered.
            else await screen.findByRole('button', { name: T.submit });
          },
          'done: submitDeactivation': () => calls.settle('requestDeactivation', { value: accepted }),
          'error: submitDeactivation': async ({ event }) => {
            const { error } = event as unknown as { error: HttpError };
            await calls.settle('requestDeactivation', { error });
            // A 400 naming a field: its text under that field, and the focus there.
            if (error === zipRefused) {
              await waitFor(() => expectError('address.zip', T.invalidZip));
              await waitFor(() => expect(document.activeElement).toBe(control('address.zip')));
            } else {
              await waitFor(() => expect(submitButton()).not.toHaveAttribute('aria-disabled', 'true'));
              expect(invalidControls()).toEqual([]);
              expect(screen.queryByText(refused.serverMessage)).not.toBeInTheDocument();
            }
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});

describe('deactivation form', () => {
  afterEach(cleanup);

  it('offers SPEC section 5 reasons with their labels, and the assignee only when the reason is not payoff', async () => {
    await openForm();
    const reason = screen.getByRole('combobox', { name: T.reason });
    expect(
      within(reason)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      T.choose,
      'Payoff/Charge-off',
      'remove the product as mortgagee',
      'remove the asset from the product and from the ledger',
      'Foreclosure/Enforcement',
    ]);
    expect(DEACTIVATION_REASONS.map((value) => DEACTIVATION_REASON_LABELS[value])).toHaveLength(4);
    expect(screen.getByRole('textbox', { name: T.assignee })).toBeInTheDocument();
    await user.selectOptions(reason, 'payoff');
    expect(screen.queryByRole('textbox', { name: T.assignee })).not.toBeInTheDocument();
    await user.selectOptions(reason, 'removeAsset');
    expect(screen.getByRole('textbox', { name: T.assignee })).toBeInTheDocument();
  });

  it('marks the required fields and offers the 55 state codes', async () => {
    await openForm();
    const required = [...document.querySelectorAll('[aria-required="true"]')].map((element) => element.id);
    expect(required).toEqual(
      ['reason', 'effectiveDate', 'entityType', 'statePostalCode', 'address.street1', 'address.city', 'address.state', 'address.zip']
        .map((field) => fieldId(field as DeactivationField))
        .concat(fieldId(INSTRUMENT_FILE_FIELD)),
    );
    expect(screen.getByLabelText(`${T.city}*`)).toBe(control('address.city'));
    const states = within(control('statePostalCode') as HTMLSelectElement).getAllByRole('option');
    expect(states).toHaveLength(56);
    expect(document.querySelectorAll('#deactivation-state-codes option')).toHaveLength(55);
  });

  it('says "Please enter a valid state" for a typed state that is not one of the codes', async () => {
    await openForm();
    await fill({ ...VALID_VALUES, 'address.state': 'Cal' });
    await user.upload(control(INSTRUMENT_FILE_FIELD) as HTMLInputElement, goodFile);
    await user.click(submitButton());
    expect(control('address.state')).toHaveAccessibleDescription('Please enter a valid state');
    await waitFor(() => expect(document.activeElement).toBe(control('address.state')));
  });

  it('says a refusal that names no field above the form and moves the focus there; the button keeps it meanwhile', async () => {
    const { calls } = await openForm();
    await fill(VALID_VALUES);
    await user.upload(control(INSTRUMENT_FILE_FIELD) as HTMLInputElement, goodFile);
    await user.click(submitButton());
    await waitFor(() => expect(document.activeElement).toBe(submitButton()));
    await calls.settle('requestDeactivation', { error: refused });
    expect((await screen.findAllByRole('alert')).at(-1)).toHaveTextContent(T.submitFailed);
    const refusal = await screen.findByText(refused.serverMessage);
    expect(refusal).toHaveAttribute('role', 'alert');
    await waitFor(() => expect(document.activeElement).toBe(refusal));
    expect(invalidControls()).toEqual([]);
    expectValues(VALID_VALUES);
  });

  it('puts a 400 under the field it names, moves the focus there, and toasts the failure', async () => {
    const { calls } = await openForm();
    await fill(VALID_VALUES);
    await user.upload(control(INSTRUMENT_FILE_FIELD) as HTMLInputElement, goodFile);
    await user.click(submitButton());
    await calls.settle('requestDeactivation', { error: zipRefused });
    expect((await screen.findAllByRole('alert')).at(-1)).toHaveTextContent(T.submitFailed);
    await waitFor(() => expectError('address.zip', T.invalidZip));
    await waitFor(() => expect(document.activeElement).toBe(control('address.zip')));
    expectValues(VALID_VALUES);
    await fill({ 'address.zip': '94608' });
    expectError('address.zip', undefined);
  });

  it('is reached from the asset page of an active loan, and not offered once the loan is deactivated', async () => {
    for (const [details, offered] of [
      [sampleLoanDetails(), true],
      [sampleLoanDetails({ status: 'Inactive', deactivated: true }), false],
    ] as const) {
      const app = await renderSignedIn([sampleOrganization(1, true)]);
      const calls = deferProductCalls(app.fake.api, ['loanDetails', 'loanEvents']);
      await act(() => app.router.navigate(APP_PATHS.asset(sampleLoanId)));
      await calls.settle('loanEvents', { value: [] });
      await calls.settle('loanDetails', { value: details });
      await screen.findByText('Loan number');
      const link = screen.queryByRole('link', { name: T.deactivateAsset });
      if (offered) {
        await user.click(link as HTMLElement);
        expect(await screen.findByRole('heading', { level: 1, name: T.title })).toBeInTheDocument();
        expect(app.location().pathname).toBe(APP_PATHS.deactivate(sampleLoanId));
      } else {
        expect(link).toBeNull();
      }
      cleanup();
    }
  });

  it('refuses a file over 10 MB as soon as it is chosen', async () => {
    await openForm();
    await user.upload(control(INSTRUMENT_FILE_FIELD) as HTMLInputElement, hugeFile);
    expect(control(INSTRUMENT_FILE_FIELD)).toHaveAccessibleDescription(`${T.fileHint} File size cannot be more than 10MB`);
  });
});
