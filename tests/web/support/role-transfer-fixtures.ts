// The organization directory, transfer answers and loan parties for the role transfer
// dialog's tests, and the dialog's whole happy path for tests that need its effect on the page.
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { loanDetailsSchema, type LoanDetails } from '../../../src/contract/loans';
import type { DirectoryEntry } from '../../../src/contract/role-requests';
import { ROLE_TRANSFER_TEXTS as T } from '../../../src/domain/role-transfer';
import { delta, roleTransferDirectory, transferRequestOf } from '../../support/role-transfer-directory';
import type { deferProductCalls } from './deferred-api';

// Plain data, shared with the role-transfer walk (which the statechart explorer bundles).
export { delta, roleTransferDirectory, transferRequestOf };

/** The loan with its servicer held by an organization of the directory, in this state. */
export function withServicerHeldBy(details: LoanDetails, holder: DirectoryEntry, state: 'PENDING' | 'CONFIRMED'): LoanDetails {
  return loanDetailsSchema.parse({
    ...details,
    parties: details.parties.map((party) =>
      party.role === 'SERVICER'
        ? { ...party, state, currentValue: { participantName: holder.name, provenanceId: 'BS-1' }, participantId: holder.id }
        : party,
    ),
  });
}

/** The loan once a transfer of its servicer role is asked for: that role PENDING. */
export function pendingServicer(details: LoanDetails): LoanDetails {
  return loanDetailsSchema.parse({
    ...details,
    parties: details.parties.map((party) => (party.role === 'SERVICER' ? { ...party, state: 'PENDING' } : party)),
  });
}

type DeferredCalls = ReturnType<typeof deferProductCalls>;

/**
 * As organization 1 on the sample loan: 'Request transfer', the servicer role to Delta Bank,
 * review, send; the request is answered. Needs `participantDirectory` and `requestRoleTransfer` deferred.
 */
export async function requestServicerTransfer(user: UserEvent, calls: DeferredCalls) {
  await user.click(screen.getByRole('button', { name: T.open }));
  await calls.settle('participantDirectory', { value: roleTransferDirectory });
  const dialog = within(await screen.findByRole('dialog', { name: T.title }));
  await user.selectOptions(await dialog.findByRole('combobox', { name: T.role }), 'SERVICER');
  await user.type(dialog.getByRole('combobox', { name: T.receiver }), 'delta');
  await user.click(await dialog.findByRole('option', { name: delta.name }));
  await user.click(dialog.getByRole('button', { name: T.review }));
  await user.click(await dialog.findByRole('button', { name: T.submit }));
  await calls.settle('requestRoleTransfer', { value: transferRequestOf('SERVICER', delta) });
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}
