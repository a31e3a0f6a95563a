// @vitest-environment jsdom
// Model-based test of the role-transfer machine through the signed-in app: every transition of its
// statechart is walked on the asset page's 'Request transfer' dialog by clicking, choosing, typing
// and pressing Escape, over a fake API whose directory, request and asset calls the test settles.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { receiverOptions, roleTransferMachine } from '../../machines/role-transfer';
import type { HttpError } from '../../src/contract/http-error';
import type { LoanDetails } from '../../src/contract/loans';
import { APP_PATHS } from '../../src/domain/app-paths';
import { partyRoleLabel } from '../../src/domain/loan';
import { ROLE_REQUEST_ERRORS, ROLE_TRANSFER_TEXTS as T, type RoleTransferDraft } from '../../src/domain/role-transfer';
import { TEXTS } from '../../src/domain/texts';
import { ASSET_PAGE_TEXTS } from '../../src/domain/asset-texts';
import { roleTransferFieldId } from '../../src/web/screens/asset/role-transfer-form';
import { createModelWalker } from '../machines/support/model-coverage';
import { before, sent, serverError, subject, walk } from '../machines/walks/role-transfer';
import { sampleLoanDetails, sampleLoanId } from '../support/loan-fixtures';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';
import { delta, pendingServicer, roleTransferDirectory as directory, withServicerHeldBy } from './support/role-transfer-fixtures';

const after = pendingServicer(before);
if (!subject) throw new Error('organization 1 may transfer a role of the sample loan');

const walker = createModelWalker(roleTransferMachine, walk);

const user = userEvent.setup();
const openButton = () => screen.getByRole('button', { name: T.open });
const dialog = () => screen.getByRole('dialog', { name: T.title });
const inDialog = () => within(dialog());
const roleSelect = () => document.getElementById(roleTransferFieldId('role')) as HTMLSelectElement;
const receiverInput = () => document.getElementById(roleTransferFieldId('receiverId')) as HTMLInputElement;
/** The organizations the receiver's list shows (none: the list is not there). */
const listedReceivers = () =>
  (inDialog().queryByRole('listbox') ? within(inDialog().getByRole('listbox')).getAllByRole('option') : []).map(
    (option) => option.textContent,
  );
const sendButton = () => inDialog().getByRole('button', { name: new RegExp(`^(${T.submit}|${T.sending})$`) });
const partyRow = (role: string) =>
  within(within(screen.getByRole('table', { name: ASSET_PAGE_TEXTS.parties })).getByRole('row', { name: new RegExp(`^${role}`) }));
const statusField = () => screen.getByText('Status', { selector: 'dt' }).nextElementSibling;
const toastWith = (text: string) =>
  within(screen.getByRole('region', { name: 'Notifications', hidden: true })).queryByText(text, { ignore: false });

async function openAsset(details: LoanDetails = before) {
  const app = await renderSignedIn([sampleOrganization(1, true)]);
  const calls = deferProductCalls(app.fake.api, ['loanDetails', 'loanEvents', 'participantDirectory', 'requestRoleTransfer']);
  await act(() => app.router.navigate(APP_PATHS.asset(sampleLoanId)));
  await calls.settle('loanEvents', { value: [] });
  await calls.settle('loanDetails', { value: details });
  await screen.findByText('Loan number');
  return { app, calls };
}

/** The field shows this error (tied to it), or none. */
function expectError(field: keyof RoleTransferDraft, error: string | undefined) {
  const element = document.getElementById(roleTransferFieldId(field));
  if (error) {
    expect(element, field).toHaveAttribute('aria-invalid', 'true');
    expect(element, field).toHaveAccessibleDescription(error);
  } else {
    expect(element, field).not.toHaveAttribute('aria-invalid');
  }
}

/** The review: role, receiver and the asset's ULI, then Back and Send request. */
function expectReview() {
  const value = (label: string) => inDialog().getByText(label, { selector: 'dt' }).nextElementSibling;
  expect(inDialog().getByText(T.reviewIntro)).toBeInTheDocument();
  expect(value(T.role)).toHaveTextContent(/^Servicer$/);
  expect(value(T.receiver)).toHaveTextContent(new RegExp(`^${delta.name}$`));
  expect(value(T.asset)).toHaveTextContent(before.loan.loanData.loan.uli);
  expect(inDialog().getByRole('button', { name: T.back })).toBeInTheDocument();
}

// The lazy routes' modules, loaded once up front so no path waits on a cold import.
beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/asset/asset-screen')]);
});

describe('role transfer machine, driven through the asset page’s dialog', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { calls } = await openAsset();
      await path.test({
        states: {
          closed: async () => {
            await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
            expect(openButton()).toBeEnabled();
          },
          open: async () => {
            // A modal dialog: titled, the focus inside it, the page behind it out of reach.
            expect(dialog()).toBeInTheDocument();
            expect(inDialog().getByRole('heading', { level: 2, name: T.title })).toBeInTheDocument();
            await waitFor(() => expect(dialog()).toContainElement(document.activeElement as HTMLElement));
            expect(screen.queryByRole('button', { name: T.open })).not.toBeInTheDocument();
          },
          'open.loading': async () => {
            expect(await inDialog().findByRole('status')).toHaveTextContent(T.loadingDirectory);
            expect(roleSelect()).toBeNull();
          },
          'open.directoryFailed': async () => {
            expect(await inDialog().findByRole('alert')).toHaveTextContent(T.directoryFailed);
            expect(inDialog().getByRole('button', { name: TEXTS.tryAgain })).toBeEnabled();
            expect(roleSelect()).toBeNull();
          },
          'open.editing': async (snapshot) => {
            // The draft as the state says (whether the rules' texts show is checked where a review is asked for).
            await waitFor(() => expect(roleSelect()).toBeInTheDocument());
            const { draft } = snapshot.context;
            expect(roleSelect()).toHaveValue(draft.role);
            const name = directory.find((entry) => entry.id === draft.receiverId)?.name ?? '';
            // While a search is typed the input shows it; otherwise the chosen organization.
            if (document.activeElement !== receiverInput()) await waitFor(() => expect(receiverInput()).toHaveValue(name));
            expect(inDialog().getByRole('button', { name: T.review })).toBeEnabled();
            expect(inDialog().queryByRole('alert')).not.toBeInTheDocument();
          },
          'open.reviewing': async () => {
            await waitFor(() => expect(sendButton()).toHaveTextContent(T.submit));
            expectReview();
            expect(inDialog().queryByRole('alert')).not.toBeInTheDocument();
            await waitFor(() => expect(document.activeElement).toBe(sendButton()));
          },
          'open.submitting': async () => {
            await waitFor(() => expect(sendButton()).toHaveTextContent(T.sending));
            expect(sendButton()).toHaveAttribute('aria-disabled', 'true');
            expectReview();
            expect(calls.calls('requestRoleTransfer').at(-1)?.slice(0, 2)).toEqual([
              sampleLoanId,
              { role: 'SERVICER', participantId: delta.id },
            ]);
          },
          'open.failed': async (snapshot) => {
            const refused = snapshot.context.refusal !== null;
            expect(await inDialog().findByRole('alert')).toHaveTextContent(refused ? ROLE_REQUEST_ERRORS.alreadyPending : T.failed);
            await waitFor(() => expect(sendButton()).toHaveTextContent(T.submit));
            expectReview();
            // Other failures are toasted as well; the server's refusal is said in the dialog only.
            if (refused) expect(toastWith(T.failed)).toBeNull();
            else await waitFor(() => expect(toastWith(T.failed)).not.toBeNull());
          },
        },
        events: {
          'transfer.open': async () => {
            await user.click(openButton());
            expect(dialog()).toBeInTheDocument();
          },
          'transfer.close': async ({ state }) => {
            // Cancel on the form (Escape there first closes an open list); Escape elsewhere.
            if (roleSelect()) await user.click(inDialog().getByRole('button', { name: T.cancel }));
            else await user.keyboard('{Escape}');
            if (state.matches('closed')) await waitFor(() => expect(document.activeElement).toBe(openButton()));
            else expect(dialog()).toBeInTheDocument(); // not while the request is on its way
          },
          'directory.retry': () => user.click(inDialog().getByRole('button', { name: TEXTS.tryAgain })),
          'done: loadDirectory': async () => {
            await calls.settle('participantDirectory', { value: directory });
            // The form's first control takes the focus.
            await waitFor(() => expect(document.activeElement).toBe(roleSelect()));
          },
          'error: loadDirectory': () => calls.settle('participantDirectory', { error: serverError }),
          'form.role': async ({ event }) => {
            const { role } = event as { role: string };
            await user.selectOptions(roleSelect(), role);
            expect(roleSelect()).toHaveValue(role);
          },
          'form.search': async ({ event, state }) => {
            const { query } = event as { query: string };
            await user.clear(receiverInput());
            await user.type(receiverInput(), query);
            const shown = receiverOptions({ ...state.context, query }).map((entry) => entry.name);
            await waitFor(() => expect(listedReceivers()).toEqual(shown));
          },
          'form.receiver': async () => {
            await user.clear(receiverInput());
            await user.type(receiverInput(), 'delta');
            await user.click(await inDialog().findByRole('option', { name: delta.name }));
            await waitFor(() => expect(receiverInput()).toHaveValue(delta.name));
          },
          'form.review': async ({ state }) => {
            await user.click(inDialog().getByRole('button', { name: T.review }));
            if (!state.matches({ open: 'editing' })) return;
            // Refused by the rules: the texts show at the fields, the focus on the first one.
            const { draft } = state.context;
            expectError('role', draft.role ? undefined : T.roleRequired);
            expectError('receiverId', draft.receiverId ? undefined : T.receiverRequired);
            const first = draft.role ? receiverInput() : roleSelect();
            await waitFor(() => expect(document.activeElement).toBe(first));
          },
          'form.back': async () => {
            await user.click(inDialog().getByRole('button', { name: T.back }));
            // The form again, the draft kept, the focus on its first control.
            await waitFor(() => expect(document.activeElement).toBe(roleSelect()));
            expect(roleSelect()).toHaveValue('SERVICER');
            expect(receiverInput()).toHaveValue(delta.name);
          },
          'form.submit': () => user.click(sendButton()),
          'done: sendRequest': async () => {
            await calls.settle('requestRoleTransfer', { value: sent });
            await waitFor(() => expect(toastWith(T.sent)).not.toBeNull());
            // The asset page loads the loan again, the loaded one still shown meanwhile.
            expect(screen.getByText('Loan number')).toBeInTheDocument();
            await calls.settle('loanEvents', { value: [] });
            await calls.settle('loanDetails', { value: after });
            await waitFor(() => expect(partyRow('Servicer').getByText(T.pending)).toBeInTheDocument());
            expect(statusField()).toHaveTextContent(/^Pending Update$/);
            expect(calls.calls('loanDetails')).toHaveLength(2);
          },
          'error: sendRequest': async ({ event }) => {
            const { error } = event as unknown as { error: HttpError };
            await calls.settle('requestRoleTransfer', { error });
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

describe('role transfer dialog', () => {
  afterEach(cleanup);

  it('shows a PENDING role disabled with Pending Update, and leaves the organization and the role’s holder out', async () => {
    // Organization 1 owns the loan; Bayside Servicing (organization 2) services it, a transfer of it pending.
    const { calls } = await openAsset(withServicerHeldBy(before, directory[1]!, 'PENDING'));
    expect(partyRow('Servicer').getByText(T.pending)).toBeInTheDocument();
    await user.click(openButton());
    await calls.settle('participantDirectory', { value: directory });
    const options = await within(await inDialog().findByRole('combobox', { name: T.role })).findAllByRole('option');
    expect(options.map((option) => [option.textContent, (option as HTMLOptionElement).disabled])).toEqual([
      [T.chooseRole, false],
      [partyRoleLabel('OWNER'), false],
      [`${partyRoleLabel('SERVICER')} (${T.pending})`, true],
    ]);
    // Only the owner role can be chosen: the receivers are every organization but this one.
    await user.click(receiverInput());
    await waitFor(() => expect(listedReceivers()).toEqual(['Bayside Servicing', 'Copper Trust', delta.name]));
  });

  it('leaves the chosen role’s holder out of the receivers, and says when none matches the search', async () => {
    const { calls } = await openAsset(withServicerHeldBy(before, directory[1]!, 'CONFIRMED'));
    await user.click(openButton());
    await calls.settle('participantDirectory', { value: directory });
    await user.selectOptions(await inDialog().findByRole('combobox', { name: T.role }), 'SERVICER');
    await user.click(receiverInput());
    await waitFor(() => expect(listedReceivers()).toEqual(['Copper Trust', delta.name]));
    expect(inDialog().queryByText(T.noOrganizations)).not.toBeInTheDocument();
    await user.type(receiverInput(), 'zzz');
    await waitFor(() => expect(listedReceivers()).toEqual([]));
    expect(inDialog().getByRole('status')).toHaveTextContent(T.noOrganizations);
    await user.clear(receiverInput());
    await user.type(receiverInput(), 'BAY');
    await waitFor(() => expect(listedReceivers()).toEqual([]));
    await user.selectOptions(roleSelect(), 'OWNER');
    await user.clear(receiverInput());
    await user.type(receiverInput(), 'BAY');
    await waitFor(() => expect(listedReceivers()).toEqual(['Bayside Servicing']));
  });

  it('shows the rules’ texts at the fields, tied to them', async () => {
    const { calls } = await openAsset();
    await user.click(openButton());
    await calls.settle('participantDirectory', { value: directory });
    await user.click(await inDialog().findByRole('button', { name: T.review }));
    expectError('role', T.roleRequired);
    expectError('receiverId', T.receiverRequired);
    await waitFor(() => expect(document.activeElement).toBe(roleSelect()));
    await user.selectOptions(roleSelect(), 'OWNER');
    expectError('role', undefined);
    expectError('receiverId', T.receiverRequired);
  });

  it('is not offered to an organization holding no transferable role, nor on a deactivated asset', async () => {
    for (const details of [
      withServicerHeldBy({ ...before, parties: before.parties.filter((party) => party.role !== 'OWNER') }, directory[1]!, 'CONFIRMED'),
      sampleLoanDetails({ status: 'Inactive', deactivated: true }),
    ]) {
      await openAsset(details);
      expect(screen.getByRole('table', { name: ASSET_PAGE_TEXTS.parties })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: T.open })).not.toBeInTheDocument();
      cleanup();
    }
  });
});
