// The organization directory and a transfer request's answer for the role transfer tests: plain
// data, free of test libraries, so the role-transfer walk (bundled by the statechart explorer)
// can use it.
import type { DirectoryEntry, RoleRequest } from '../../src/contract/role-requests';
import type { TransferableRole } from '../../src/domain/role-transfer';

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
