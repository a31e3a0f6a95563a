// The organization directory, transfer answers and loan parties for the role transfer
// dialog's tests, and the dialog's whole happy path for tests that need its effect on the page.
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect } from 'vitest';
import { loanDetailsSchema, type LoanDetails } from '../../../src/contract/loans';
import type { DirectoryEntry, RoleRequest } from '../../../src/contract/role-requests';
import { ROLE_TRANSFER_TEXTS as T, type TransferableRole } from '../../../src/domain/role-transfer';
import type { deferProductCalls } from './deferred-api';

const orgId = (index: number) => `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;

/** Active organizations: organization 1 (Harbor Capital, the sample loan's owner) and three others. */
export const roleTransferDirectory: DirectoryEntry[] = [
  { id: orgId(1), name: 'Harbor Capital' },
  { id: orgId(2), name: 'Bayside Servicing' },
  { id: orgId(3), name: 'Copper Trust' },
  { id: orgId(4), name: 'Delta Bank' },
];
export const delta = roleTransferDirectory[3] as DirectoryEntry;

/** The server's answer to a transfer request of `role` to `receiver` on the sample loan. */
export function transferRequestOf(role: TransferableRole, receiver: DirectoryEntry): RoleRequest {
  return {
    id: '9a0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f',
    loanId: '5f0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f',
    role,
    state: 'PENDING',
    receiver,
    created: '2026-01-02T10:00:00.000Z',
  };
}

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
