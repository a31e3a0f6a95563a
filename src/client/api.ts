// One function per endpoint of SPEC section 7, parsed with src/contract.
import type { AuditLogFilters, AuditLogQuery, AuditSearchPage, LoanActivityPage } from '../contract/audit';
import type { DeactivationAccepted, DeactivationDraft } from '../contract/deactivation';
import type { DocumentMetadata } from '../contract/documents';
import { figureInfoSchema, type FigureInfo } from '../contract/identity';
import { jobListSchema, jobSchema, type Job, type JobType, type StartJobBody } from '../contract/jobs';
import type { LoanCsvQuery, LoanDetails, LoanEvent, LoanList, LoanListQuery } from '../contract/loans';
import {
  messageBulkResultSchema,
  messageListSchema,
  messageSchema,
  unreadCountSchema,
  type Message,
  type MessageBulkPatch,
  type MessageBulkResult,
  type MessageList,
  type MessageListQuery,
  type MessagePatch,
} from '../contract/messages';
import type { ActivityPage, OrganizationDraft, OrganizationsPage, OrganizationsQuery } from '../contract/organizations';
import { z } from 'zod';
// The app-wide banners actor reads this contract at start: no lazy chunk of its own.
import { bannerListSchema, bannerSchema, type Banner, type BannerInput, type BannerList } from '../contract/banners';
import type {
  addUserToParticipantSchema,
  organizationUsersPageSchema,
  organizationUsersQuerySchema,
  resentInvitationSchema,
  usersPageSchema,
  usersQuerySchema,
} from '../contract/organization-users';
import type { UserSuggestions, AddedUser, NewOrganizationUser, OrganizationUser } from '../contract/organization-users';
import {
  participantSchema,
  userParticipantsSchema,
  type Participant,
  type ProfileInfo,
  type UserParticipant,
} from '../contract/participants';
import type { PartnerProfile, ProfileDraft, Relationship, RelationshipsPage, RelationshipsQuery } from '../contract/profile';
import type { FactorList } from '../contract/security-factors';
import type { FactorType } from '../domain/security-factors';
import { PATHS, SERVICER_LOOKUP_PATHS } from '../contract/paths';
import type { Pool, PoolDetail, PoolListQuery } from '../contract/pools';
import type { DirectoryEntry, RoleRequest, RoleRequestBody } from '../contract/role-requests';
import type { Difference, DifferencesPage, Reconciliation } from '../contract/reconciliation';
import type { DifferenceKind } from '../domain/reconciliation';
import type { ServicerLookupDraft, ServicerLookupResult } from '../contract/servicer-lookup';
import { usersMeSchema, type UsersMe } from '../contract/users';
import type { HttpClient } from './http';

// The contracts of the forms and of the administration and the public lookup load with their
// area's first call, not with every page: the API client is part of the app's first download.
const deactivationContract = () => import('../contract/deactivation');
const roleRequestsContract = () => import('../contract/role-requests');
const organizationsContract = () => import('../contract/organizations');
const organizationUsersContract = () => import('../contract/organization-users');
const profileContract = () => import('../contract/profile');
const auditContract = () => import('../contract/audit');
const securityFactorsContract = () => import('../contract/security-factors');
const servicerLookupContract = () => import('../contract/servicer-lookup');
const loansContract = () => import('../contract/loans');
const poolsContract = () => import('../contract/pools');
const documentsContract = () => import('../contract/documents');
const reconciliationContract = () => import('../contract/reconciliation');

async function servicerLookupParams(draft: ServicerLookupDraft, altcha: string): Promise<URLSearchParams> {
  const { ALTCHA_QUERY, servicerLookupQuery } = await servicerLookupContract();
  return toSearchParams({ ...servicerLookupQuery(draft), [ALTCHA_QUERY]: altcha });
}

/** Query values as the URL carries them: arrays comma-joined, absent values left out. */
export type QueryValues = Record<string, string | number | boolean | readonly string[] | undefined | null>;
export function toSearchParams(query: QueryValues): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params;
}

export interface PoolAssetsCsvQuery {
  readonly loanIds?: readonly string[];
  readonly poolDenomination?: string;
}

export interface RegistryApi {
  figureInfo(signal?: AbortSignal): Promise<FigureInfo>;
  logout(signal?: AbortSignal): Promise<void>;
  usersMe(participantId: string | null, signal?: AbortSignal): Promise<UsersMe>;
  userParticipants(userId: string, signal?: AbortSignal): Promise<UserParticipant[]>;
  listLoans(query: LoanListQuery, signal?: AbortSignal): Promise<LoanList>;
  /** The asset CSV: `loanIds` or the same filters as the list. */
  loansCsv(query: Omit<LoanCsvQuery, 'loanIds'> & { loanIds?: readonly string[] }, signal?: AbortSignal): Promise<Blob>;
  poolAssetsCsv(query: PoolAssetsCsvQuery, signal?: AbortSignal): Promise<Blob>;
  loanDetails(loanId: string, signal?: AbortSignal): Promise<LoanDetails>;
  loanEvents(loanId: string, signal?: AbortSignal): Promise<LoanEvent[]>;
  listPools(query: PoolListQuery, signal?: AbortSignal): Promise<Pool[]>;
  pool(poolId: string, page: { limit: number; offset: number }, signal?: AbortSignal): Promise<PoolDetail>;
  // Documents: GET v4 /loans/{loanId}/documents/metadata, and one document's PDF bytes.
  loanDocuments(loanId: string, signal?: AbortSignal): Promise<DocumentMetadata[]>;
  loanDocumentPdf(loanId: string, documentId: string, signal?: AbortSignal): Promise<Blob>;
  // Deactivation: POST v1 /loans/{loanId}/deactivate, multipart with SPEC section 7's names.
  requestDeactivation(loanId: string, draft: DeactivationDraft, file: Blob, signal?: AbortSignal): Promise<DeactivationAccepted>;
  // Batch download: GET and POST v4 /jobs, GET v4 /loans/documents/zip.
  listJobs(type: JobType, signal?: AbortSignal): Promise<Job[]>;
  startJob(body: StartJobBody, signal?: AbortSignal): Promise<Job>;
  documentsZip(jobId: string, signal?: AbortSignal): Promise<Blob>;
  // Messages: GET and PATCH v1 /messages, PATCH v1 /messages/bulk, the unread count.
  listMessages(query: MessageListQuery, signal?: AbortSignal): Promise<MessageList>;
  unreadMessageCount(signal?: AbortSignal): Promise<number>;
  updateMessage(patch: MessagePatch, signal?: AbortSignal): Promise<Message>;
  updateMessages(patch: MessageBulkPatch, signal?: AbortSignal): Promise<MessageBulkResult>;
  // Role transfers: the directory of active organizations and the request.
  participantDirectory(signal?: AbortSignal): Promise<DirectoryEntry[]>;
  requestRoleTransfer(loanId: string, body: RoleRequestBody, signal?: AbortSignal): Promise<RoleRequest>;
  // Organizations (administration): GET, POST v2 /participants; GET, PUT, PATCH v2 /participants/{id}; its activity.
  listOrganizations(query: OrganizationsQuery, signal?: AbortSignal): Promise<OrganizationsPage>;
  organization(participantId: string, signal?: AbortSignal): Promise<Participant>;
  createOrganization(id: string, draft: OrganizationDraft, signal?: AbortSignal): Promise<Participant>;
  updateOrganization(id: string, draft: OrganizationDraft, signal?: AbortSignal): Promise<Participant>;
  setOrganizationActive(id: string, isActive: boolean, signal?: AbortSignal): Promise<Participant>;
  organizationActivity(id: string, page: { limit: number; offset: number }, signal?: AbortSignal): Promise<ActivityPage>;
  organizationActivityCsv(id: string, signal?: AbortSignal): Promise<Blob>;
  // An organization's users: GET and POST v2 /participants/{id}/users, PUT and DELETE .../users/{userId},
  // the invitation (POST resends, DELETE revokes), GET v2 /users (suggestions) and POST v2 /users/{userId}/participants.
  organizationUsers(participantId: string, query: OrganizationUsersQuery, signal?: AbortSignal): Promise<OrganizationUsersPage>;
  organizationUser(participantId: string, userId: string, signal?: AbortSignal): Promise<OrganizationUser>;
  addOrganizationUser(participantId: string, body: NewOrganizationUser, signal?: AbortSignal): Promise<AddedUser>;
  addExistingUser(userId: string, body: AddUserToParticipant, signal?: AbortSignal): Promise<OrganizationUser>;
  updateUserRoles(participantId: string, userId: string, roles: readonly string[], signal?: AbortSignal): Promise<void>;
  removeOrganizationUser(participantId: string, userId: string, signal?: AbortSignal): Promise<void>;
  resendInvitation(participantId: string, userId: string, signal?: AbortSignal): Promise<ResentInvitation>;
  revokeInvitation(participantId: string, userId: string, signal?: AbortSignal): Promise<void>;
  searchUsers(query: UsersQuery, signal?: AbortSignal): Promise<UsersPage>;
  // The public servicer lookup (no session): the query and the widget's proof-of-work solution.
  servicerLookup(draft: ServicerLookupDraft, altcha: string, signal?: AbortSignal): Promise<ServicerLookupResult[]>;
  /** The 'Add existing user' suggestions (GET v2 /users/suggestions). */
  suggestUsers(query: string, signal?: AbortSignal): Promise<UserSuggestions>;
  // The contact profile and the partner view: PATCH v1 /participants/profile, the relationships.
  updateProfile(body: ProfileDraft, signal?: AbortSignal): Promise<ProfileInfo>;
  listRelationships(query: RelationshipsQuery, signal?: AbortSignal): Promise<RelationshipsPage>;
  relationship(relationshipId: string, signal?: AbortSignal): Promise<Relationship>;
  partnerProfile(relationshipId: string, signal?: AbortSignal): Promise<PartnerProfile>;
  // The banners: the banner file (any JSON: the banners machine checks each banner), and registry staff's list, create and edit.
  bannerFile(path: string, signal?: AbortSignal): Promise<unknown>;
  listBanners(signal?: AbortSignal): Promise<BannerList>;
  createBanner(input: BannerInput, signal?: AbortSignal): Promise<Banner>;
  updateBanner(uuid: string, input: BannerInput, signal?: AbortSignal): Promise<Banner>;
  // The audit trail: a loan's Activity, and the whole log searched by registry staff (JSON pages, CSV).
  loanActivity(loanId: string, page: { limit: number; offset: number }, signal?: AbortSignal): Promise<LoanActivityPage>;
  auditLog(query: AuditLogQuery, signal?: AbortSignal): Promise<AuditSearchPage>;
  auditLogCsv(filters: AuditLogFilters, signal?: AbortSignal): Promise<Blob>;
  // Reconciliation against a loan tape: POST and GET v4 /reconciliations, a report's page and CSV.
  uploadTape(tape: File, signal?: AbortSignal): Promise<Reconciliation>;
  listReconciliations(signal?: AbortSignal): Promise<Reconciliation[]>;
  reconciliationDifferences(
    jobId: string,
    query: { limit: number; offset: number; kind?: DifferenceKind },
    signal?: AbortSignal,
  ): Promise<DifferencesPage>;
  reconciliationCsv(jobId: string, signal?: AbortSignal): Promise<Blob>;
  // Sign-in security (SPEC section 7): the factors, and the calls that redirect to a hosted page
  // (each answers the URL the redirect ended on).
  authenticationFactors(signal?: AbortSignal): Promise<FactorList>;
  addAuthenticationFactor(type: FactorType, externalStateNonce: string, signal?: AbortSignal): Promise<string>;
  removeAuthenticationFactor(factorId: string, externalStateNonce: string, signal?: AbortSignal): Promise<string>;
  startPasswordChange(signal?: AbortSignal): Promise<string>;
}

export type { Difference };

export type OrganizationUsersQuery = z.input<typeof organizationUsersQuerySchema>;
export type OrganizationUsersPage = z.infer<typeof organizationUsersPageSchema>;
export type UsersQuery = z.input<typeof usersQuerySchema>;
export type UsersPage = z.infer<typeof usersPageSchema>;
export type AddUserToParticipant = z.input<typeof addUserToParticipantSchema>;
export type ResentInvitation = z.infer<typeof resentInvitationSchema>;

export function createRegistryApi(http: HttpClient): RegistryApi {
  const product = { product: true } as const;
  return {
    figureInfo: (signal) => http.request('GET', PATHS.figureInfo, figureInfoSchema, { signal }),
    logout: (signal) => http.send('POST', PATHS.logout, { signal }),
    // The session names the organization explicitly: it is choosing it.
    usersMe: (participantId, signal) => http.request('GET', PATHS.usersMe, usersMeSchema, { signal, participantId }),
    userParticipants: (userId, signal) => http.request('GET', PATHS.userParticipants(userId), userParticipantsSchema, { signal }),
    listLoans: async (query, signal) =>
      http.request('GET', PATHS.loans, (await loansContract()).loanListSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(query as QueryValues),
      }),
    loansCsv: (query, signal) =>
      http.download('GET', PATHS.loans, 'text/csv', { ...product, signal, searchParams: toSearchParams(query as QueryValues) }),
    poolAssetsCsv: (query, signal) =>
      http.download('GET', PATHS.poolAssetsCsv, 'text/csv', { ...product, signal, searchParams: toSearchParams(query as QueryValues) }),
    loanDetails: async (loanId, signal) =>
      http.request('GET', PATHS.loanDetails(loanId), (await loansContract()).loanDetailsSchema, { ...product, signal }),
    loanEvents: async (loanId, signal) =>
      http.request('GET', PATHS.loanEvents(loanId), (await loansContract()).loanEventsSchema, { ...product, signal }),
    listPools: async (query, signal) =>
      http.request('GET', PATHS.pools, (await poolsContract()).poolListSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(query as QueryValues),
      }),
    pool: async (poolId, page, signal) =>
      http.request('GET', PATHS.pool(poolId), (await poolsContract()).poolDetailSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(page),
      }),
    // Documents: the PDF as bytes (Accept: application/pdf), not base64 in JSON.
    loanDocuments: async (loanId, signal) =>
      http.request('GET', PATHS.loanDocumentsMetadata(loanId), (await documentsContract()).documentMetadataListSchema, {
        ...product,
        signal,
      }),
    loanDocumentPdf: (loanId, documentId, signal) =>
      http.download('GET', PATHS.loanDocument(loanId, documentId), 'application/pdf', { ...product, signal }),
    // Deactivation.
    requestDeactivation: async (loanId, draft, file, signal) =>
      http.request('POST', PATHS.loanDeactivate(loanId), (await deactivationContract()).deactivationAcceptedSchema, {
        ...product,
        signal,
        body: (await deactivationContract()).deactivationFormData(draft, file),
      }),
    // Batch download.
    listJobs: (type, signal) =>
      http.request('GET', PATHS.jobs, jobListSchema, { ...product, signal, searchParams: toSearchParams({ type }) }),
    startJob: (body, signal) => http.request('POST', PATHS.jobs, jobSchema, { ...product, signal, json: body }),
    documentsZip: (jobId, signal) =>
      http.download('GET', PATHS.documentsZip, 'application/zip', { ...product, signal, searchParams: toSearchParams({ jobId }) }),
    // Messages and role transfers.
    listMessages: (query, signal) =>
      http.request('GET', PATHS.messages, messageListSchema, { ...product, signal, searchParams: toSearchParams(query as QueryValues) }),
    unreadMessageCount: async (signal) =>
      (await http.request('GET', PATHS.messagesUnreadCount, unreadCountSchema, { ...product, signal })).unreadCount,
    updateMessage: (patch, signal) => http.request('PATCH', PATHS.messages, messageSchema, { ...product, signal, json: patch }),
    updateMessages: (patch, signal) =>
      http.request('PATCH', PATHS.messagesBulk, messageBulkResultSchema, { ...product, signal, json: patch }),
    participantDirectory: async (signal) =>
      http.request('GET', PATHS.participantDirectory, (await roleRequestsContract()).directorySchema, { ...product, signal }),
    requestRoleTransfer: async (loanId, body, signal) =>
      http.request('POST', PATHS.loanRoleRequests(loanId), (await roleRequestsContract()).roleRequestSchema, {
        ...product,
        signal,
        json: body,
      }),
    // Organizations: the server reads no participant header on these; failures reach the session as
    // every product call's do (a 401 goes to login; a permission refusal is told apart by isPermissionRefusal).
    listOrganizations: async (query, signal) =>
      http.request('GET', PATHS.participants, (await organizationsContract()).organizationsPageSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(query as QueryValues),
      }),
    organization: (participantId, signal) =>
      http.request('GET', PATHS.participant(participantId), participantSchema, { ...product, signal }),
    createOrganization: async (id, draft, signal) =>
      http.request('POST', PATHS.participants, (await organizationsContract()).createdOrganizationSchema, {
        ...product,
        signal,
        json: { id, ...(await organizationsContract()).organizationBodyOf(draft) },
      }),
    updateOrganization: async (id, draft, signal) =>
      http.request('PUT', PATHS.participant(id), participantSchema, {
        ...product,
        signal,
        json: (await organizationsContract()).organizationBodyOf(draft),
      }),
    setOrganizationActive: (id, isActive, signal) =>
      http.request('PATCH', PATHS.participant(id), participantSchema, { ...product, signal, json: { isActive } }),
    organizationActivity: async (id, page, signal) =>
      http.request('GET', PATHS.participantActivity(id), (await organizationsContract()).activityPageSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(page),
      }),
    organizationActivityCsv: (id, signal) => http.download('GET', PATHS.participantActivity(id), 'text/csv', { ...product, signal }),
    // An organization's users.
    organizationUsers: async (participantId, query, signal) =>
      http.request('GET', PATHS.participantUsers(participantId), (await organizationUsersContract()).organizationUsersPageSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(query as QueryValues),
      }),
    organizationUser: async (participantId, userId, signal) =>
      http.request('GET', PATHS.participantUser(participantId, userId), (await organizationUsersContract()).organizationUserSchema, {
        ...product,
        signal,
      }),
    addOrganizationUser: async (participantId, body, signal) =>
      http.request('POST', PATHS.participantUsers(participantId), (await organizationUsersContract()).addedUserSchema, {
        ...product,
        signal,
        json: body,
      }),
    addExistingUser: async (userId, body, signal) =>
      http.request('POST', PATHS.userParticipantsV2(userId), (await organizationUsersContract()).organizationUserSchema, {
        ...product,
        signal,
        json: body,
      }),
    updateUserRoles: (participantId, userId, roles, signal) =>
      http.send('PUT', PATHS.participantUser(participantId, userId), { ...product, signal, json: roles }),
    removeOrganizationUser: (participantId, userId, signal) =>
      http.send('DELETE', PATHS.participantUser(participantId, userId), { ...product, signal }),
    resendInvitation: async (participantId, userId, signal) =>
      http.request(
        'POST',
        PATHS.participantUserInvitation(participantId, userId),
        (await organizationUsersContract()).resentInvitationSchema,
        { ...product, signal },
      ),
    revokeInvitation: (participantId, userId, signal) =>
      http.send('DELETE', PATHS.participantUserInvitation(participantId, userId), { ...product, signal }),
    searchUsers: async (query, signal) =>
      http.request('GET', PATHS.users, (await organizationUsersContract()).usersPageSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(query as QueryValues),
      }),
    servicerLookup: async (draft, altcha, signal) =>
      http.request('GET', SERVICER_LOOKUP_PATHS.servicerLookup, (await servicerLookupContract()).servicerLookupResultsSchema, {
        signal,
        searchParams: await servicerLookupParams(draft, altcha),
      }),
    suggestUsers: async (query, signal) =>
      http.request('GET', PATHS.userSuggestions, (await organizationUsersContract()).userSuggestionsSchema, {
        ...product,
        signal,
        searchParams: { query },
      }),
    // The contact profile and the partner view.
    updateProfile: async (body, signal) =>
      http.request('PATCH', PATHS.participantProfile, (await profileContract()).profileAnswerSchema, { ...product, signal, json: body }),
    listRelationships: async (query, signal) =>
      http.request('GET', PATHS.relationships, (await profileContract()).relationshipsPageSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(query as QueryValues),
      }),
    relationship: async (relationshipId, signal) =>
      http.request('GET', PATHS.relationship(relationshipId), (await profileContract()).relationshipSchema, { ...product, signal }),
    authenticationFactors: async (signal) =>
      http.request('GET', PATHS.factors, (await securityFactorsContract()).factorListSchema, { signal }),
    addAuthenticationFactor: (type, externalStateNonce, signal) =>
      http.follow('POST', PATHS.factors, { signal, searchParams: { type, externalStateNonce } }),
    removeAuthenticationFactor: (factorId, externalStateNonce, signal) =>
      http.follow('DELETE', PATHS.factor(factorId), { signal, searchParams: { externalStateNonce } }),
    startPasswordChange: (signal) => http.follow('POST', PATHS.passwordReset, { signal }),
    partnerProfile: async (relationshipId, signal) =>
      http.request('GET', PATHS.relationshipPartnerProfile(relationshipId), (await profileContract()).partnerProfileSchema, {
        ...product,
        signal,
      }),
    bannerFile: (path, signal) => http.request('GET', path, z.unknown(), { signal }),
    listBanners: async (signal) => http.request('GET', PATHS.banners, bannerListSchema, { ...product, signal }),
    createBanner: async (input, signal) => http.request('POST', PATHS.banners, bannerSchema, { ...product, signal, json: input }),
    updateBanner: async (uuid, input, signal) => http.request('PUT', PATHS.banner(uuid), bannerSchema, { ...product, signal, json: input }),
    // The audit trail.
    loanActivity: async (loanId, page, signal) =>
      http.request('GET', PATHS.loanActivity(loanId), (await auditContract()).loanActivityPageSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(page),
      }),
    auditLog: async (query, signal) =>
      http.request('GET', PATHS.auditLog, (await auditContract()).auditSearchPageSchema, {
        ...product,
        signal,
        searchParams: toSearchParams({ ...query }),
      }),
    auditLogCsv: (filters, signal) =>
      http.download('GET', PATHS.auditLog, 'text/csv', { ...product, signal, searchParams: toSearchParams({ ...filters }) }),
    // Reconciliation.
    uploadTape: async (tape, signal) => {
      const contract = await reconciliationContract();
      const body = new FormData();
      body.append(contract.TAPE_FILE_FIELD, tape, tape.name);
      return http.request('POST', PATHS.reconciliations, contract.reconciliationSchema, { ...product, signal, body });
    },
    listReconciliations: async (signal) =>
      http.request('GET', PATHS.reconciliations, (await reconciliationContract()).reconciliationListSchema, { ...product, signal }),
    reconciliationDifferences: async (jobId, query, signal) =>
      http.request('GET', PATHS.reconciliationDifferences(jobId), (await reconciliationContract()).differencesPageSchema, {
        ...product,
        signal,
        searchParams: toSearchParams(query as QueryValues),
      }),
    reconciliationCsv: (jobId, signal) => http.download('GET', PATHS.reconciliationCsv(jobId), 'text/csv', { ...product, signal }),
  };
}
