// The whole registry's data (SPEC section 3). Later features add endpoints over it, not new tables.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/** A sign-in identity at the identity broker; a registry user may or may not be attached. */
export const identities = pgTable(
  'identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Roles keyed by service: { "service-dart": ["ROLE_DART_ADMIN"], "csp": [...] }. */
    roles: jsonb('roles').$type<Record<string, string[]>>().notNull().default({}),
    manageable: boolean('manageable').notNull().default(true),
    /** The WebAuthn user handle: random, free of personal data, made at the first registration. */
    webauthnUserId: text('webauthn_user_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('identities_email_key').on(sql`lower(${t.email})`)],
);

/** Server-side sessions; the cookie carries a random token, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    identityId: uuid('identity_id')
      .notNull()
      .references(() => identities.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The last recorded use (written at most once a minute): unused for the idle timeout, the session is dead. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last proof of presence (the password, or an enrolled factor): security changes need a recent one. */
    verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_identity_idx').on(t.identityId)],
);

/** Sign-in attempts per account (lower-cased email) in the current window, shared by every server (migration 0011). */
export const signInThrottle = pgTable('sign_in_throttle', {
  emailKey: text('email_key').primaryKey(),
  attempts: integer('attempts').notNull(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Sign-ins, sign-outs, session ends and permission refusals (migration 0011; src/server/identity/security-events.ts). */
export const securityEvents = pgTable(
  'security_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    identityId: uuid('identity_id'),
    email: text('email'),
    address: text('address'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('security_events_occurred_at_idx').on(t.occurredAt), index('security_events_identity_idx').on(t.identityId, t.occurredAt)],
);

export const authenticationFactors = pgTable(
  'authentication_factors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identityId: uuid('identity_id')
      .notNull()
      .references(() => identities.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    value: text('value').notNull(),
    editable: boolean('editable').notNull().default(true),
    required: boolean('required').notNull().default(false),
    createdAt: createdAt(),
    /** When its holder proved it (a code, a WebAuthn registration); only such a factor asks for a second step at sign-in. */
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    /** WebAuthn (Biometric, SecurityKey): the credential id (base64url), its public key and signature counter. */
    credentialId: text('credential_id'),
    publicKey: bytea('public_key'),
    signCount: bigint('sign_count', { mode: 'number' }),
    transports: jsonb('transports').$type<string[]>(),
  },
  (t) => [
    index('factors_identity_idx').on(t.identityId),
    // The same authenticator is not registered twice.
    uniqueIndex('factors_credential_key')
      .on(t.credentialId)
      .where(sql`${t.credentialId} IS NOT NULL`),
  ],
);

/**
 * A short-lived step of the hosted identity pages, addressed by a random token (the table keeps its
 * SHA-256): a factor's enrolment or removal (tied to the session and the app's nonce, used once), the
 * second step of a sign-in, a passkey sign-in's challenge, a password recovery link. A code sent by
 * mail or SMS is kept hashed with its expiry and wrong tries.
 */
export const identityFlows = pgTable(
  'identity_flows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    kind: text('kind').notNull(),
    identityId: uuid('identity_id').references(() => identities.id, { onDelete: 'cascade' }),
    sessionTokenHash: text('session_token_hash'),
    nonce: text('nonce'),
    factorType: text('factor_type'),
    factorId: uuid('factor_id'),
    destination: text('destination'),
    codeHash: text('code_hash'),
    codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
    codeAttempts: integer('code_attempts').notNull().default(0),
    challenge: text('challenge'),
    returnTo: text('return_to'),
    /** A sign-in's second step: the SHA-256 of the password hash checked (a password changed meanwhile ends the step). */
    passwordFingerprint: text('password_fingerprint'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('identity_flows_token_key').on(t.tokenHash),
    // A nonce starts one round trip, once.
    uniqueIndex('identity_flows_nonce_key')
      .on(t.nonce)
      .where(sql`${t.nonce} IS NOT NULL`),
    index('identity_flows_expires_idx').on(t.expiresAt),
  ],
);

/** One-time recovery codes (hashed); a new set replaces the old. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identityId: uuid('identity_id')
      .notNull()
      .references(() => identities.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_identity_idx').on(t.identityId)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    identityId: uuid('identity_id').references(() => identities.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    middleName: text('middle_name'),
    lastName: text('last_name').notNull(),
    /** The last completed sign-in of the user's identity (the administration's user list shows it). */
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_identity_key').on(t.identityId),
    // The administration's user search (name or email, any substring) and its name order.
    index('users_search_idx').using('gin', sql`lower(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email}) gin_trgm_ops`),
    index('users_name_order_idx').on(sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id),
    // The 'Add existing user' suggestions by first name (by last name: users_name_order_idx; by email: users_email_key).
    index('users_first_name_order_idx').on(sql`lower(${t.firstName})`, t.id),
  ],
);

/** Participant organizations with their contact profile. */
export const participants = pgTable(
  'participants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    organizationName: text('organization_name').notNull(),
    code: text('code').notNull(),
    email: text('email').notNull(),
    phoneNumber: text('phone_number').notNull(),
    street: text('street').notNull(),
    street2: text('street2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    url: text('url'),
    grantedLimitedPowerOfAttorney: boolean('granted_limited_power_of_attorney').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('participants_code_key').on(t.code),
    // The administration's organization search (name, code or email, any substring) and its name order.
    index('participants_search_idx').using(
      'gin',
      sql`lower(${t.name} || ' ' || ${t.organizationName} || ' ' || ${t.code} || ' ' || ${t.email}) gin_trgm_ops`,
    ),
    index('participants_name_order_idx').on(sql`lower(${t.name})`, t.id),
  ],
);

export const participantContacts = pgTable(
  'participant_contacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    participantId: uuid('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phoneNumber: text('phone_number').notNull(),
  },
  (t) => [index('contacts_participant_idx').on(t.participantId)],
);

/** A user's membership of an organization, with the organization roles it grants. */
export const memberships = pgTable(
  'memberships',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    participantId: uuid('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    /**
     * The member's lower-cased last and first name, copied from users by triggers (migration 0027),
     * so an organization's users page in name order reads its 10 entries of one index.
     */
    sortLastName: text('sort_last_name').notNull().default(''),
    sortFirstName: text('sort_first_name').notNull().default(''),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.participantId] }),
    index('memberships_participant_idx').on(t.participantId),
    index('memberships_name_order_idx').on(t.participantId, t.sortLastName, t.sortFirstName, t.userId),
  ],
);

export const loans = pgTable(
  'loans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uli: text('uli').notNull(),
    loanNumber: text('loan_number').notNull(),
    loanType: text('loan_type').notNull(),
    status: text('status').notNull().default('Active'),
    tradeDate: date('trade_date'),
    mortgageeOfRecord: text('mortgagee_of_record'),
    noteAmount: numeric('note_amount', { precision: 14, scale: 2 }).notNull(),
    noteDate: date('note_date').notNull(),
    noteLocation: text('note_location'),
    modification: boolean('modification').notNull().default(false),
    assumption: boolean('assumption').notNull().default(false),
    borrowerFirstName: text('borrower_first_name').notNull(),
    borrowerLastName: text('borrower_last_name').notNull(),
    /** Co-borrowers and other parties: [{ partyType: 'COBORROWER', firstName, lastName }]. */
    additionalParties: jsonb('additional_parties')
      .$type<{ partyType: string; firstName: string; lastName: string }[]>()
      .notNull()
      .default([]),
    dartAsOriginalMortgagee: boolean('dart_as_original_mortgagee').notNull().default(false),
    propertyStreet1: text('property_street1').notNull(),
    propertyStreet2: text('property_street2'),
    propertyCity: text('property_city').notNull(),
    propertyState: text('property_state').notNull(),
    propertyZip: text('property_zip').notNull(),
    deactivated: boolean('deactivated').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * The property address as the public servicer lookup compares it: registry_address_key()
     * (migration 0023) folds USPS suffixes, directionals, unit designators, case, punctuation
     * and ZIP+4. Computed by PostgreSQL on every write, so no writer can forget it.
     */
    propertyAddressKey: text('property_address_key').generatedAlwaysAs(
      sql`registry_address_key(property_street1, property_street2, property_state, property_zip)`,
    ),
  },
  (t) => [
    uniqueIndex('loans_uli_key').on(t.uli),
    index('loans_updated_idx').on(t.updatedAt),
    index('loans_lookup_idx').on(sql`lower(${t.borrowerLastName})`, t.propertyZip),
    // The servicer lookup's one probe: active loans at one normalised address.
    index('loans_address_key_idx')
      .on(t.propertyAddressKey)
      .where(sql`${t.status} = 'Active' AND NOT ${t.deactivated}`),
  ],
);

/** One entry per loan and role: its state and current value (a participant or a plain name). */
export const loanParties = pgTable(
  'loan_parties',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    state: text('state').notNull(),
    participantId: uuid('participant_id').references(() => participants.id),
    name: text('name'),
    provenanceId: text('provenance_id'),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('loan_parties_loan_role_key').on(t.loanId, t.role),
    index('loan_parties_participant_idx').on(t.participantId, t.role, t.loanId),
  ],
);

export const loanEvents = pgTable(
  'loan_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id, { onDelete: 'cascade' }),
    participantId: uuid('participant_id').references(() => participants.id),
    state: text('state').notNull(),
    eventType: text('event_type').notNull(),
    eventDescription: text('event_description').notNull(),
    effectiveDate: date('effective_date'),
    requestedDate: date('requested_date'),
    // clock_timestamp, not now(): events written by one transaction (a confirmed transfer and the
    // requests it cancels) keep the order they were written in, and the history shows them so.
    createdAt: timestamp('created_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [index('loan_events_loan_idx').on(t.loanId, t.createdAt)],
);

export const pools = pgTable(
  'pools',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    participantId: uuid('participant_id')
      .notNull()
      .references(() => participants.id),
    name: text('name').notNull(),
    state: text('state').notNull(),
    dateCompleted: date('date_completed'),
    createdAt: createdAt(),
  },
  (t) => [index('pools_participant_idx').on(t.participantId, t.state)],
);

export const poolLoans = pgTable(
  'pool_loans',
  {
    poolId: uuid('pool_id')
      .notNull()
      .references(() => pools.id, { onDelete: 'cascade' }),
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.loanId] }), index('pool_loans_loan_idx').on(t.loanId)],
);

export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    participantId: uuid('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    message: text('message').notNull(),
    read: boolean('read').notNull().default(false),
    archived: boolean('archived').notNull().default(false),
    isActionable: boolean('is_actionable').notNull().default(false),
    /** Confirm (true) or reject (false) of an actionable message; null until answered. */
    response: boolean('response'),
    createdAt: createdAt(),
  },
  (t) => [
    // Migration 0009 orders created_at and id descending (newest first), which drizzle cannot express here.
    index('messages_participant_idx').on(t.participantId, t.archived, t.createdAt, t.id),
    index('messages_participant_created_idx').on(t.participantId, t.createdAt, t.id),
  ],
);

/** An organization's message counts, kept exact by the statement triggers of migration 0010 (derived data). */
/**
 * Each organization's number of members, kept by the memberships triggers (migration 0026): the
 * administration's users page counts a large organization without reading its memberships.
 */
export const participantMemberCounts = pgTable('participant_member_counts', {
  participantId: uuid('participant_id').primaryKey(),
  members: integer('members').notNull().default(0),
});

export const messageCounts = pgTable('message_counts', {
  participantId: uuid('participant_id').primaryKey(),
  total: integer('total').notNull().default(0),
  unarchived: integer('unarchived').notNull().default(0),
  unread: integer('unread').notNull().default(0),
});

/**
 * A request that an organization takes over a role on a loan. The loan party's state is
 * PENDING while the request is; the receiver answers through the actionable message `messageId`.
 */
export const roleRequests = pgTable(
  'role_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    requesterParticipantId: uuid('requester_participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    receiverParticipantId: uuid('receiver_participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** PENDING, CONFIRMED, REJECTED or CANCELED (a CHECK constraint, migrations 0009 and 0014). */
    state: text('state').notNull(),
    /** The role's party state when it was asked for, restored if the request is canceled (null: asked before 0014). */
    partyStateBefore: text('party_state_before'),
    messageId: uuid('message_id').references(() => messages.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('role_requests_open_key')
      .on(t.loanId, t.role)
      .where(sql`${t.state} = 'PENDING'`),
    uniqueIndex('role_requests_message_key').on(t.messageId),
    index('role_requests_receiver_idx')
      .on(t.receiverParticipantId, t.loanId)
      .where(sql`${t.state} = 'PENDING'`),
  ],
);

export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Kind of document: DEED, ASSIGNMENT, RELEASE, ENOTE, DEACTIVATION_INSTRUMENT, OTHER. */
    type: text('type').notNull(),
    hash: text('hash').notNull(),
    fileName: text('file_name').notNull(),
    fileType: text('file_type').notNull(),
    contentType: text('content_type').notNull(),
    docType: text('doc_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    content: bytea('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('documents_loan_idx').on(t.loanId), index('documents_hash_idx').on(t.hash)],
);

export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    participantId: uuid('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    type: text('type').notNull(),
    status: text('status').notNull(),
    progress: integer('progress').notNull().default(0),
    total: integer('total').notNull().default(0),
    resultSizeBytes: bigint('result_size_bytes', { mode: 'number' }),
    error: text('error'),
    /** The loans the job was started for: its zip is given only while the organization holds a role on each. */
    loanIds: uuid('loan_ids').array(),
    /** When its zip was first asked for: a finished job is offered to its owner until then, once. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('jobs_participant_idx').on(t.participantId, t.type, t.createdAt)],
);

/** A job's result file (the batch download's zip) in chunks, streamed in chunk order (migration 0007). */
export const jobFiles = pgTable(
  'job_files',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    chunkNo: integer('chunk_no').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.chunkNo] })],
);

export const deactivationRequests = pgTable(
  'deactivation_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    loanId: uuid('loan_id')
      .notNull()
      .references(() => loans.id, { onDelete: 'cascade' }),
    participantId: uuid('participant_id')
      .notNull()
      .references(() => participants.id),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    effectiveDate: date('effective_date').notNull(),
    assignee: text('assignee'),
    entityType: text('entity_type').notNull(),
    statePostalCode: text('state_postal_code').notNull(),
    street1: text('street1').notNull(),
    street2: text('street2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    documentId: uuid('document_id').references(() => documents.id),
    bookNumber: text('book_number'),
    pageNumber: text('page_number'),
    instrumentNumber: text('instrument_number'),
    status: text('status').notNull().default('SUBMITTED'),
    createdAt: createdAt(),
  },
  (t) => [index('deactivation_loan_idx').on(t.loanId)],
);

/** A relationship between two organizations, through which a partner's profile is viewed. */
export const relationships = pgTable(
  'relationships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    participantId: uuid('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    partnerParticipantId: uuid('partner_participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    state: text('state').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('relationships_participant_idx').on(t.participantId)],
);

/**
 * The asset list index: one row per (participant, loan) on which the participant holds a role,
 * with the roles as a bitmask (loan-list-index.ts LOAN_ROLE_BITS) and every sort key. Derived
 * data, written only by the triggers and functions of migration 0001_loan_list (read its header).
 */
export const loanListEntries = pgTable(
  'loan_list_entries',
  {
    participantId: uuid('participant_id').notNull(),
    loanId: uuid('loan_id').notNull(),
    roles: smallint('roles').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    uli: text('uli').notNull(),
    loanTypeLabel: text('loan_type_label').notNull(),
    tradeDate: date('trade_date'),
    mortgageeOfRecord: text('mortgagee_of_record'),
    /** SPEC section 4's derived status in its order: 1 Deactivated, 2 Pending Update, 3 Rejected Update, 4 Active, 5 none. */
    statusRank: smallint('status_rank').notNull(),
    ownerName: text('owner_name'),
    servicerName: text('servicer_name'),
    controllerName: text('controller_name'),
    subServicerName: text('sub_servicer_name'),
    securedPartyName: text('secured_party_name'),
  },
  (t) => [
    // The migration adds INCLUDE (roles), which drizzle cannot express.
    primaryKey({ name: 'loan_list_entries_pkey', columns: [t.participantId, t.loanId] }),
    index('loan_list_entries_loan_idx').on(t.loanId),
    index('loan_list_entries_updated_idx').on(t.participantId, t.updatedAt, t.loanId),
    index('loan_list_entries_uli_idx').on(t.participantId, t.uli, t.loanId),
    index('loan_list_entries_loan_type_idx').on(t.participantId, t.loanTypeLabel, t.loanId),
    index('loan_list_entries_trade_date_idx').on(t.participantId, t.tradeDate, t.loanId),
    index('loan_list_entries_mortgagee_idx').on(t.participantId, t.mortgageeOfRecord, t.loanId),
    index('loan_list_entries_status_idx').on(t.participantId, t.statusRank, t.loanId),
    index('loan_list_entries_owner_idx').on(t.participantId, t.ownerName, t.loanId),
    index('loan_list_entries_servicer_idx').on(t.participantId, t.servicerName, t.loanId),
    index('loan_list_entries_controller_idx').on(t.participantId, t.controllerName, t.loanId),
    index('loan_list_entries_sub_servicer_idx').on(t.participantId, t.subServicerName, t.loanId),
    index('loan_list_entries_secured_party_idx').on(t.participantId, t.securedPartyName, t.loanId),
  ],
);

/**
 * The asset list's items: one row per loan some organization holds a role on, `item` the loan's
 * list item (loanListItemSchema) as the JSON text a page sends, parties and their names included
 * (migration 0018_loan_list_items). A page joins its ten ids here instead of reading ten loans and
 * fifty parties. Derived data, like loan_list_entries.
 */
export const loanListItems = pgTable('loan_list_items', {
  loanId: uuid('loan_id').primaryKey(),
  item: text('item').notNull(),
});

/** Exact row counts of loan_list_entries per (participant, UTC day of updated_at, roles bitmask), kept by its triggers. */
export const loanListCounts = pgTable(
  'loan_list_counts',
  {
    participantId: uuid('participant_id').notNull(),
    updatedOn: date('updated_on').notNull(),
    roles: smallint('roles').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'loan_list_counts_pkey', columns: [t.participantId, t.updatedOn, t.roles] })],
);

/** loan_list_counts summed over the days: the exact row count per (participant, roles bitmask), kept by the same trigger. */
export const loanListTotals = pgTable(
  'loan_list_totals',
  {
    participantId: uuid('participant_id').notNull(),
    roles: smallint('roles').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'loan_list_totals_pkey', columns: [t.participantId, t.roles] })],
);

/**
 * The asset search: two rows per loan some organization holds a role on (part 1 the address, part 2
 * ULI, loan number and borrower, with the address again as earlier_search), the holders as uuids of
 * '<participant id>:<ROLE>' keys and the sort keys; one GIN index over text and holders (migrations
 * 0002_loan_list_search, 0006_loan_list_search_parts). Derived data, like loan_list_entries.
 */
export const loanListSearch = pgTable(
  'loan_list_search',
  {
    loanId: uuid('loan_id').notNull(),
    part: smallint('part').notNull(),
    statusRank: smallint('status_rank').notNull(),
    tradeDate: date('trade_date'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    search: text('search').notNull(),
    holders: uuid('holders').array().notNull(),
    earlierSearch: text('earlier_search').notNull(),
    uli: text('uli').notNull(),
    loanTypeLabel: text('loan_type_label').notNull(),
    mortgageeOfRecord: text('mortgagee_of_record'),
    ownerName: text('owner_name'),
    servicerName: text('servicer_name'),
    controllerName: text('controller_name'),
    subServicerName: text('sub_servicer_name'),
    securedPartyName: text('secured_party_name'),
  },
  (t) => [
    primaryKey({ name: 'loan_list_search_pkey', columns: [t.loanId, t.part] }),
    index('loan_list_search_idx')
      .using('gin', sql`${t.search} gin_trgm_ops`, t.holders)
      .with({ fastupdate: false }),
  ],
);

/**
 * Every write of the product (loan parties and their states, events, deactivations, documents,
 * answered messages, transfers, the administration): who, when, acting for which organization,
 * from where, the entity, the action, and the values before and after. Append-only: the server's
 * database role may insert and read it, never update or delete it (database.ts
 * grantApplicationRole). Tamper-evident: a BEFORE INSERT trigger (migration 0029) numbers each row
 * in a hash chain (chain_seq, prev_hash, row_hash); `npm run audit:verify` walks it.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** The organization the change concerns (its Activity tab lists it). */
    participantId: uuid('participant_id').references(() => participants.id, { onDelete: 'no action' }),
    /** The signed-in identity, its registry user and e-mail: plain values, kept after the user is removed. */
    identityId: uuid('identity_id'),
    actorUserId: uuid('actor_user_id'),
    actorEmail: text('actor_email'),
    /** The organization the caller acted for (null for registry staff and the job runner). */
    actingParticipantId: uuid('acting_participant_id'),
    clientAddress: text('client_address'),
    /** The loan the change concerns (its asset page's Activity tab lists it); no reference, so it outlives the loan. */
    loanId: uuid('loan_id'),
    /** What happened: organization.created, user.invited, user.roles-changed, profile.updated, ... */
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The row's place in the hash chain, set by the trigger (the order of commit of the chain head's lock). */
    chainSeq: bigint('chain_seq', { mode: 'number' }).notNull().default(0),
    /** The previous row's row_hash ('' for the first), set by the trigger. */
    prevHash: text('prev_hash').notNull().default(''),
    /** SHA-256 (hex) of prev_hash and the row's content (audit_row_content), set by the trigger. */
    rowHash: text('row_hash').notNull().default(''),
  },
  (t) => [
    index('audit_log_participant_idx').on(t.participantId, t.occurredAt.desc(), t.id.desc()),
    uniqueIndex('audit_log_chain_seq_key').on(t.chainSeq),
    index('audit_log_loan_idx').on(t.loanId, t.chainSeq.desc()),
    index('audit_log_actor_idx').on(t.actorUserId, t.chainSeq.desc()),
    index('audit_log_target_idx').on(t.targetId, t.chainSeq.desc()),
    index('audit_log_occurred_idx').on(t.occurredAt.desc(), t.chainSeq.desc()),
  ],
);

/**
 * A single-use invitation of a user to an organization: the link carries a random token, the table
 * only its SHA-256. Pending while neither accepted nor revoked and not past `expires_at`.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    participantId: uuid('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('invitations_token_key').on(t.tokenHash), index('invitations_participant_idx').on(t.participantId, t.userId)],
);

/**
 * Mail and SMS waiting to leave: written in the transaction of the change that causes them, sent
 * by a job (nodemailer when SMTP_URL is set), kept for the development mailbox otherwise.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [
    index('outbox_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.sentAt} IS NULL`),
  ],
);

/**
 * The public servicer lookup's limits, shared by every server: one row per key (a client address,
 * or a hash of a last name and zip, never the name itself) and its current fixed window.
 */
export const lookupLimits = pgTable('lookup_limits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

/** Proof-of-work challenges already spent (altcha-lib is stateless): each is usable once. */
export const lookupChallenges = pgTable(
  'lookup_challenges',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('lookup_challenges_expires_idx').on(t.expiresAt)],
);

/** Every servicer lookup, for the operators: when, from where, which address, found or not; never the name. */
export const servicerLookups = pgTable(
  'servicer_lookups',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    clientAddress: text('client_address').notNull(),
    street1: text('street1').notNull(),
    street2: text('street2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    found: boolean('found').notNull(),
    /** Why no lookup ran: null (it ran), 'limited' or 'challenge'. */
    refusal: text('refusal'),
  },
  (t) => [index('servicer_lookups_occurred_idx').on(t.occurredAt)],
);

/** Secrets every server must share (the proof-of-work HMAC key), made once by the first server that needs one. */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

/**
 * The address reference of the autocomplete: postal addresses, not loans, so a suggestion says
 * nothing about which property carries a registered loan. `search_key` (lower case, one space)
 * is matched by prefix through a text_pattern_ops index.
 */
export const addressReferences = pgTable(
  'address_references',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    street1: text('street1').notNull(),
    street2: text('street2'),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    searchKey: text('search_key').generatedAlwaysAs(
      sql`lower(regexp_replace(street1 || coalesce(' ' || street2, '') || ' ' || city || ' ' || state || ' ' || zip, '[\\s,]+', ' ', 'g'))`,
    ),
  },
  (t) => [
    index('address_references_search_idx').using('btree', sql`${t.searchKey} text_pattern_ops`),
    uniqueIndex('address_references_address_key').on(t.street1, sql`coalesce(${t.street2}, '')`, t.city, t.state, t.zip),
  ],
);

/**
 * The banners of the banner file (SPEC sections 3, 7 and 9), written by registry staff. `apps`
 * names the applications that show a banner; `updated_at` is kept by the server on every edit,
 * so a browser's dismissal (keyed by id and updatedAt) is forgotten when a banner changes.
 */
export const banners = pgTable(
  'banners',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    message: text('message').notNull(),
    apps: text('apps').array().notNull(),
    variant: text('variant', { enum: ['info', 'warn'] }).notNull(),
    active: boolean('active').notNull().default(true),
    dismissable: boolean('dismissable').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('banners_created_idx').on(t.createdAt.desc(), t.id.desc())],
);

/** A reconciliation against a loan tape: its job's details beside the `jobs` row (migration 0030). */
export const reconciliations = pgTable('reconciliations', {
  jobId: uuid('job_id')
    .primaryKey()
    .references(() => jobs.id, { onDelete: 'cascade' }),
  fileName: text('file_name').notNull(),
  /** The tape's fields by its header (TAPE_FIELDS names). */
  fields: text('fields').array().notNull(),
  /** Where each field is in a row (TapeColumns as JSON). */
  columns: jsonb('columns').$type<Record<string, number>>().notNull(),
  rows: integer('rows').notNull().default(0),
  /** Differences per kind, set when the job is DONE. */
  counts: jsonb('counts').$type<Record<string, number>>(),
});

/** The uploaded tape in chunks until its job is done: a restarted job reads it again from here. */
export const reconciliationTapeChunks = pgTable(
  'reconciliation_tape_chunks',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    chunkNo: integer('chunk_no').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.chunkNo] })],
);

/** A reconciliation's report: one row per difference, `seq` in the report's order. */
export const reconciliationDifferences = pgTable(
  'reconciliation_differences',
  {
    jobId: uuid('job_id')
      .notNull()
      .references(() => jobs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    kind: text('kind').notNull(),
    line: integer('line'),
    uli: text('uli'),
    loanNumber: text('loan_number'),
    field: text('field'),
    tapeValue: text('tape_value'),
    registryValue: text('registry_value'),
    detail: text('detail'),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.seq] }), index('reconciliation_differences_kind_idx').on(t.jobId, t.kind, t.seq)],
);
