// A RegistryApi whose calls stay pending until the test settles them, so a test decides
// when and how each call of the session ends (as the model-based paths require).
import { vi } from 'vitest';
import type { RegistryApi } from '../../../src/client/api';
import type { FigureInfo } from '../../../src/contract/identity';
import type { UserParticipant } from '../../../src/contract/participants';
import type { UsersMe } from '../../../src/contract/users';

interface Pending<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

type CallName = 'figureInfo' | 'usersMe' | 'logout';

export function createFakeRegistryApi(initialOrganizations: readonly UserParticipant[]) {
  let organizations = initialOrganizations;
  const pending: { [K in CallName]: Pending<never>[] } = { figureInfo: [], usersMe: [], logout: [] };
  const defer = <T>(name: CallName) =>
    new Promise<T>((resolve, reject) => {
      pending[name].push({ resolve: resolve as (value: never) => void, reject });
    });
  const usersMe = vi.fn((_participantId: string | null) => defer<UsersMe>('usersMe'));
  const api: RegistryApi = {
    figureInfo: () => defer<FigureInfo>('figureInfo'),
    usersMe,
    userParticipants: async () => [...organizations],
    logout: () => defer<void>('logout'),
    // Product calls this fake does not model fail loudly, so a test that needs one provides it.
    ...(Object.fromEntries(
      (['listLoans', 'loansCsv', 'poolAssetsCsv', 'loanDetails', 'loanEvents', 'listPools', 'pool'] as const).map((name) => [
        name,
        () => Promise.reject(new Error(`${name} is not modelled by this fake`)),
      ]),
    ) as unknown as Pick<RegistryApi, 'listLoans' | 'loansCsv' | 'poolAssetsCsv' | 'loanDetails' | 'loanEvents' | 'listPools' | 'pool'>),
    // Deactivation: not modelled either (its screen test defers it).
    requestDeactivation: () => Promise.reject(new Error('requestDeactivation is not modelled by this fake')),
    // Batch download: no jobs by default (the app-wide batch-download actor asks once per
    // organization); starting one and its zip are not modelled (the batch-download screen test defers them).
    listJobs: async () => [],
    // Reconciliation: none by default; the rest is not modelled here.
    listReconciliations: async () => [],
    uploadTape: () => Promise.reject(new Error('uploadTape is not modelled by this fake')),
    reconciliationDifferences: () => Promise.reject(new Error('reconciliationDifferences is not modelled by this fake')),
    reconciliationCsv: () => Promise.reject(new Error('reconciliationCsv is not modelled by this fake')),
    startJob: () => Promise.reject(new Error('startJob is not modelled by this fake')),
    documentsZip: () => Promise.reject(new Error('documentsZip is not modelled by this fake')),
    // Documents: not modelled (the document-viewer screen test defers them).
    loanDocuments: () => Promise.reject(new Error('loanDocuments is not modelled by this fake')),
    loanDocumentPdf: () => Promise.reject(new Error('loanDocumentPdf is not modelled by this fake')),
    // No unread messages by default (the shell's badge asks); the rest is not modelled.
    unreadMessageCount: async () => 0,
    listMessages: () => Promise.reject(new Error('listMessages is not modelled by this fake')),
    updateMessage: () => Promise.reject(new Error('updateMessage is not modelled by this fake')),
    updateMessages: () => Promise.reject(new Error('updateMessages is not modelled by this fake')),
    participantDirectory: () => Promise.reject(new Error('participantDirectory is not modelled by this fake')),
    requestRoleTransfer: () => Promise.reject(new Error('requestRoleTransfer is not modelled by this fake')),
    // Organizations: not modelled (their screen tests defer them).
    ...(Object.fromEntries(
      (
        [
          'listOrganizations',
          'organization',
          'createOrganization',
          'updateOrganization',
          'setOrganizationActive',
          'organizationActivity',
          'organizationActivityCsv',
        ] as const
      ).map((name) => [name, () => Promise.reject(new Error(`${name} is not modelled by this fake`))]),
    ) as unknown as Pick<
      RegistryApi,
      | 'listOrganizations'
      | 'organization'
      | 'createOrganization'
      | 'updateOrganization'
      | 'setOrganizationActive'
      | 'organizationActivity'
      | 'organizationActivityCsv'
    >),
    // An organization's users: not modelled (the organization-users screen tests defer them).
    ...(Object.fromEntries(
      (
        [
          'organizationUsers',
          'organizationUser',
          'addOrganizationUser',
          'addExistingUser',
          'updateUserRoles',
          'removeOrganizationUser',
          'resendInvitation',
          'revokeInvitation',
          'searchUsers',
          'suggestUsers',
        ] as const
      ).map((name) => [name, () => Promise.reject(new Error(`${name} is not modelled by this fake`))]),
    ) as unknown as Pick<
      RegistryApi,
      | 'organizationUsers'
      | 'organizationUser'
      | 'addOrganizationUser'
      | 'addExistingUser'
      | 'updateUserRoles'
      | 'removeOrganizationUser'
      | 'resendInvitation'
      | 'revokeInvitation'
      | 'searchUsers'
      | 'suggestUsers'
    >),
    servicerLookup: () => Promise.reject(new Error('servicerLookup is not modelled by this fake')),
    // The banner file: empty by default (the app-wide banners actor reads it once); staff's calls not modelled.
    bannerFile: async () => [],
    listBanners: () => Promise.reject(new Error('listBanners is not modelled by this fake')),
    createBanner: () => Promise.reject(new Error('createBanner is not modelled by this fake')),
    updateBanner: () => Promise.reject(new Error('updateBanner is not modelled by this fake')),
    // The contact profile and the partner view: not modelled (their screen tests provide them).
    updateProfile: () => Promise.reject(new Error('updateProfile is not modelled by this fake')),
    listRelationships: () => Promise.reject(new Error('listRelationships is not modelled by this fake')),
    relationship: () => Promise.reject(new Error('relationship is not modelled by this fake')),
    partnerProfile: () => Promise.reject(new Error('partnerProfile is not modelled by this fake')),
    // The audit trail: not modelled (its screen tests defer it).
    loanActivity: () => Promise.reject(new Error('loanActivity is not modelled by this fake')),
    auditLog: () => Promise.reject(new Error('auditLog is not modelled by this fake')),
    auditLogCsv: () => Promise.reject(new Error('auditLogCsv is not modelled by this fake')),
    // Sign-in security: not modelled (the profile screen's tests defer them).
    authenticationFactors: () => Promise.reject(new Error('authenticationFactors is not modelled by this fake')),
    addAuthenticationFactor: () => Promise.reject(new Error('addAuthenticationFactor is not modelled by this fake')),
    removeAuthenticationFactor: () => Promise.reject(new Error('removeAuthenticationFactor is not modelled by this fake')),
    startPasswordChange: () => Promise.reject(new Error('startPasswordChange is not modelled by this fake')),
  };

  /** Waits for the call to be made, then settles the oldest pending one. */
  async function settle(name: CallName, outcome: { value?: unknown; error?: unknown }) {
    // Long enough for a cold first render: the router loads the lazy shell and screen before the root mounts.
    await vi.waitFor(
      () => {
        if (pending[name].length === 0) throw new Error(`no pending ${name} call`);
      },
      { timeout: 10_000 },
    );
    const call = pending[name].shift();
    if (outcome.error !== undefined) call?.reject(outcome.error);
    else call?.resolve(outcome.value as never);
  }

  /** The organizations the next account loads answer (e.g. none: all of them deactivated). */
  const setOrganizations = (next: readonly UserParticipant[]) => {
    organizations = next;
  };

  return { api, usersMe, settle, setOrganizations, pendingCount: (name: CallName) => pending[name].length };
}
