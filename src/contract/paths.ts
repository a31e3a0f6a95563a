// Service paths of SPEC section 7. Base URLs are configurable; paths are fixed.
export const IDENTITY_BASE = '/identity-broker/agent';
export const DART_BASE = '/service-dart/secure/api';
/** The pool-asset CSV lives under its own service prefix (SPEC section 7). */
export const DART_FIGURE_BASE = '/service-dart/figure/secure/api';

const segment = (value: string) => encodeURIComponent(value);

export const PATHS = {
  figureInfo: `${IDENTITY_BASE}/secure/api/v3/self/figureinfo`,
  login: `${IDENTITY_BASE}/api/v3/login`,
  signIn: `${IDENTITY_BASE}/sign-in`,
  logout: `${IDENTITY_BASE}/secure/api/v3/logout`,
  /** SPEC section 7: answers 303 to the hosted password page. */
  passwordReset: `${IDENTITY_BASE}/secure/api/v3/self/password-reset`,
  /** The hosted password page (GET the form, POST it); ours, beside the hosted sign-in page. */
  passwordPage: `${IDENTITY_BASE}/secure/password`,
  usersMe: `${DART_BASE}/v1/users/me`,
  userParticipants: (userId: string) => `${DART_BASE}/v1/users/${segment(userId)}/participants`,
  userParticipantsPattern: `${DART_BASE}/v1/users/:userId/participants`,
  loans: `${DART_BASE}/v2/loans`,
  poolAssetsCsv: `${DART_FIGURE_BASE}/v2/loans`,
  loanDetails: (loanId: string) => `${DART_BASE}/v1/loans/${segment(loanId)}/details`,
  loanDetailsPattern: `${DART_BASE}/v1/loans/:id/details`,
  loanEvents: (loanId: string) => `${DART_BASE}/v1/loans/${segment(loanId)}/events`,
  loanEventsPattern: `${DART_BASE}/v1/loans/:id/events`,
  pools: `${DART_BASE}/v1/pools`,
  pool: (poolId: string) => `${DART_BASE}/v1/pools/${segment(poolId)}`,
  poolPattern: `${DART_BASE}/v1/pools/:poolId`,
  // Documents, batch assignment download (jobs) and deactivation.
  loanDocumentsMetadata: (loanId: string) => `${DART_BASE}/v4/loans/${segment(loanId)}/documents/metadata`,
  loanDocumentsMetadataPattern: `${DART_BASE}/v4/loans/:loanId/documents/metadata`,
  loanDocument: (loanId: string, documentIdOrHash: string) =>
    `${DART_BASE}/v4/loans/${segment(loanId)}/documents/${segment(documentIdOrHash)}`,
  loanDocumentPattern: `${DART_BASE}/v4/loans/:loanId/documents/:documentIdOrHash`,
  documentsZip: `${DART_BASE}/v4/loans/documents/zip`,
  jobs: `${DART_BASE}/v4/jobs`,
  loanDeactivate: (loanId: string) => `${DART_BASE}/v1/loans/${segment(loanId)}/deactivate`,
  loanDeactivatePattern: `${DART_BASE}/v1/loans/:loanId/deactivate`,
  // Messages and role transfers.
  messages: `${DART_BASE}/v1/messages`,
  messagesBulk: `${DART_BASE}/v1/messages/bulk`,
  messagesUnreadCount: `${DART_BASE}/v1/messages/unread-count`,
  loanRoleRequests: (loanId: string) => `${DART_BASE}/v1/loans/${segment(loanId)}/role-requests`,
  loanRoleRequestsPattern: `${DART_BASE}/v1/loans/:loanId/role-requests`,
  participantDirectory: `${DART_BASE}/v1/participants/directory`,
  // Administration: organizations, their users, invitations, the contact profile, relationships.
  users: `${DART_BASE}/v2/users`,
  /** The 'Add existing user' suggestions: users by the start of a name or email. */
  userSuggestions: `${DART_BASE}/v2/users/suggestions`,
  userParticipantsV2: (userId: string) => `${DART_BASE}/v2/users/${segment(userId)}/participants`,
  userParticipantsV2Pattern: `${DART_BASE}/v2/users/:userId/participants`,
  participants: `${DART_BASE}/v2/participants`,
  participant: (participantId: string) => `${DART_BASE}/v2/participants/${segment(participantId)}`,
  participantPattern: `${DART_BASE}/v2/participants/:participantId`,
  /** An organization's audit log (the Activity tab): JSON pages, or every row as CSV (Accept: text/csv). */
  participantActivity: (participantId: string) => `${DART_BASE}/v2/participants/${segment(participantId)}/activity`,
  participantActivityPattern: `${DART_BASE}/v2/participants/:participantId/activity`,
  participantUsers: (participantId: string) => `${DART_BASE}/v2/participants/${segment(participantId)}/users`,
  participantUsersPattern: `${DART_BASE}/v2/participants/:participantId/users`,
  participantUser: (participantId: string, userId: string) =>
    `${DART_BASE}/v2/participants/${segment(participantId)}/users/${segment(userId)}`,
  participantUserPattern: `${DART_BASE}/v2/participants/:participantId/users/:userId`,
  /** POST resends a pending invitation (a new link), DELETE revokes it. */
  participantUserInvitation: (participantId: string, userId: string) =>
    `${DART_BASE}/v2/participants/${segment(participantId)}/users/${segment(userId)}/invitation`,
  participantUserInvitationPattern: `${DART_BASE}/v2/participants/:participantId/users/:userId/invitation`,
  participantProfile: `${DART_BASE}/v1/participants/profile`,
  /** The current organization's relationships (its profile page lists them). */
  relationships: `${DART_BASE}/v1/relationships`,
  relationship: (relationshipId: string) => `${DART_BASE}/v1/relationships/${segment(relationshipId)}`,
  relationshipPattern: `${DART_BASE}/v1/relationships/:relationshipId`,
  relationshipPartnerProfile: (relationshipId: string) => `${DART_BASE}/v1/relationships/${segment(relationshipId)}/partnerProfile`,
  relationshipPartnerProfilePattern: `${DART_BASE}/v1/relationships/:relationshipId/partnerProfile`,
  /** The hosted page where an invited person sets a password (GET ?token=..., POST the form). */
  invitationPage: `${IDENTITY_BASE}/invitation`,
  /** A loan's audit rows (the asset page's Activity tab). */
  loanActivity: (loanId: string) => `${DART_BASE}/v1/loans/${segment(loanId)}/activity`,
  loanActivityPattern: `${DART_BASE}/v1/loans/:id/activity`,
  /** The whole audit log, searched by registry staff: JSON pages, or every match as CSV (Accept: text/csv). */
  auditLog: `${DART_BASE}/v2/audit`,
  /** Reconciliation against a loan tape (ours): upload and list, a report's page and its CSV. */
  reconciliations: `${DART_BASE}/v4/reconciliations`,
  reconciliationDifferences: (jobId: string) => `${DART_BASE}/v4/reconciliations/${segment(jobId)}/differences`,
  reconciliationDifferencesPattern: `${DART_BASE}/v4/reconciliations/:jobId/differences`,
  reconciliationCsv: (jobId: string) => `${DART_BASE}/v4/reconciliations/${segment(jobId)}/csv`,
  reconciliationCsvPattern: `${DART_BASE}/v4/reconciliations/:jobId/csv`,
  health: '/healthz',
  /** Registry staff's banners (ours): the list and create, and one banner's edit. */
  banners: `${DART_BASE}/v1/banners`,
  banner: (bannerId: string) => `${DART_BASE}/v1/banners/${segment(bannerId)}`,
  bannerPattern: `${DART_BASE}/v1/banners/:bannerId`,
  // Sign-in security: the factors (SPEC section 7), their hosted page, the sign-in's second step
  // and the development mailbox.
  factors: `${IDENTITY_BASE}/secure/api/v3/self/authentication/factors`,
  factor: (factorId: string) => `${IDENTITY_BASE}/secure/api/v3/self/authentication/factors/${segment(factorId)}`,
  factorPattern: `${IDENTITY_BASE}/secure/api/v3/self/authentication/factors/:id`,
  factorPage: `${IDENTITY_BASE}/secure/factors`,
  signInVerify: `${IDENTITY_BASE}/sign-in/verify`,
  devMailbox: `${IDENTITY_BASE}/dev/mailbox`,
  /** The hosted pages' one script: the WebAuthn ceremonies (@simplewebauthn/browser). */
  webauthnScript: `${IDENTITY_BASE}/webauthn.js`,
} as const;

/** The public servicer lookup (no session) and its proof-of-work challenge (ours). */
export const SERVICER_LOOKUP_PATHS = {
  servicerLookup: '/service-dart/external/api/v1/servicer_lookup',
  servicerLookupChallenge: '/service-dart/external/api/v1/servicer_lookup/challenge',
  /** ARCHITECTURE section 6: the address autocomplete (query partialAddress). */
  addresses: '/address-lookup/api/v1/addresses',
} as const;

/** The banner file of SPEC section 7 (no cache); the test file is served off production only. */
export const BANNER_FILE_PATHS = {
  production: '/banners/banners.json',
  test: '/banners/banners.test.json',
} as const;
