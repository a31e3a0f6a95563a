// A small registry for the authorization matrix and the route fuzzer: organization A holds a loan
// (with a document), a pool, a message and a finished batch-download job; B holds a loan of its own;
// C is the registry administrators' organization; Dormant is inactive. Each caller of the matrix
// is an identity with a session (the anonymous caller has none).
import type { FastifyInstance } from 'fastify';
import { jobSchema } from '../../../src/contract/jobs';
import { PATHS } from '../../../src/contract/paths';
import { SERVICES } from '../../../src/domain/roles';
import type { Database } from '../../../src/server/db/database';
import { messages, relationships } from '../../../src/server/db/schema';
import { JOB_QUEUES } from '../../../src/server/jobs/job-queues';
import { insertLoan } from './loan-rows';
import { insertPool } from './loan-list-world';
import { callerOf, callersOf } from './route-test';
import { insertIdentity, insertParticipant, insertUser } from './server-fixtures';
import { insertDocument } from './zip-fixtures';

export const CALLERS = ['anonymous', 'unregistered', 'memberA', 'orgAdminA', 'memberB', 'dartAdmin', 'dartOps'] as const;
export type Caller = (typeof CALLERS)[number];
/** Callers with a session. */
export type SignedInCaller = Exclude<Caller, 'anonymous'>;
/** Callers with a registry user (the unregistered identity has none). */
export type RegisteredCaller = Exclude<SignedInCaller, 'unregistered'>;

export const EMAILS: Readonly<Record<SignedInCaller, string>> = {
  unregistered: 'unregistered@matrix.test',
  memberA: 'member-a@matrix.test',
  orgAdminA: 'org-admin-a@matrix.test',
  memberB: 'member-b@matrix.test',
  dartAdmin: 'dart-admin@matrix.test',
  dartOps: 'dart-ops@matrix.test',
};

/** The organization each registered caller acts for without a header (its default membership). */
export const DEFAULT_ORGANIZATION: Readonly<Record<RegisteredCaller, 'a' | 'b' | 'c'>> = {
  memberA: 'a',
  orgAdminA: 'a',
  memberB: 'b',
  dartAdmin: 'c',
  dartOps: 'c',
};

/** What organization A holds, with the values that identify it (none may reach another organization). */
export const A_SECRETS = {
  organizationName: 'Alpha Sentinel Bank',
  uli: '', // set when the loan is inserted (its check digits are computed)
  loanNumber: 'LN-SENTINEL-7731',
  borrowerFirstName: 'Quillon',
  borrowerLastName: 'Vandermeerst',
  propertyStreet: '77 Sentinel Row',
  poolName: 'Sentinel Pool A-2026',
  messageText: 'Sentinel notice for Alpha: servicing transfer of loan 7731',
  documentFileName: 'sentinel-assignment-7731.pdf',
};

export interface RegistryWorld {
  readonly organizations: Readonly<Record<'a' | 'b' | 'c' | 'dormant', string>>;
  /** Registry user ids. */
  readonly userIds: Readonly<Record<RegisteredCaller, string>>;
  /** Session cookie pairs; anonymous has none. */
  readonly cookies: Readonly<Record<SignedInCaller, string>>;
  /** Organization A's records. */
  readonly a: {
    readonly loanId: string;
    readonly documentId: string;
    readonly documentHash: string;
    readonly poolId: string;
    readonly messageId: string;
    /** A finished (DONE) batch download of memberA in A. */
    readonly jobId: string;
    /** memberA's reconciliation of a tape naming the loan, run to DONE. */
    readonly reconciliationId: string;
    /** A's relationship with B (the partner view: A and B only). */
    readonly relationshipId: string;
  };
  /** Organization B's loan. */
  readonly bLoanId: string;
  /** A's identifying values (ULI, loan number, names, street, pool, message, file name). */
  readonly secrets: Readonly<Record<keyof typeof A_SECRETS, string>>;
}

export async function createRegistryWorld(db: Database, app: FastifyInstance): Promise<RegistryWorld> {
  const a = await insertParticipant(db, { name: A_SECRETS.organizationName });
  const b = await insertParticipant(db, { name: 'Bravo Harbor Trust' });
  const c = await insertParticipant(db, { name: 'Registry Operations' });
  const dormant = await insertParticipant(db, { name: 'Dormant Lending', isActive: false });
  const organizations = { a: a.id, b: b.id, c: c.id, dormant: dormant.id };

  const dart = (role?: string) => ({ [SERVICES.dart]: role ? [role] : ['ROLE_DART_USER'] });
  // Every registered caller also belongs to the inactive organization (the 'inactive' header).
  const member = (participantId: string, roles: string[]) => [
    { participantId, isDefault: true, roles },
    { participantId: dormant.id, roles },
  ];
  const memberA = await insertUser(db, { email: EMAILS.memberA, roles: dart(), memberships: member(a.id, ['CUSTODIAN']) });
  const orgAdminA = await insertUser(db, { email: EMAILS.orgAdminA, roles: dart(), memberships: member(a.id, ['ORG_ADMIN']) });
  const memberB = await insertUser(db, { email: EMAILS.memberB, roles: dart(), memberships: member(b.id, ['ORG_ADMIN']) });
  const dartAdmin = await insertUser(db, {
    email: EMAILS.dartAdmin,
    roles: dart('ROLE_DART_ADMIN'),
    memberships: member(c.id, ['ORG_ADMIN']),
  });
  const dartOps = await insertUser(db, { email: EMAILS.dartOps, roles: dart('ROLE_DART_OPS'), memberships: member(c.id, ['ORG_ADMIN']) });
  await insertIdentity(db, { email: EMAILS.unregistered, roles: dart() });

  const loan = await insertLoan(db, {
    loanNumber: A_SECRETS.loanNumber,
    borrowerFirstName: A_SECRETS.borrowerFirstName,
    borrowerLastName: A_SECRETS.borrowerLastName,
    propertyStreet1: A_SECRETS.propertyStreet,
    parties: [
      { role: 'OWNER', participantId: a.id, provenanceId: 'pb1alpha' },
      { role: 'SERVICER', participantId: a.id, provenanceId: 'pb1alpha' },
    ],
  });
  const bLoan = await insertLoan(db, {
    parties: [
      { role: 'OWNER', participantId: b.id },
      { role: 'SERVICER', participantId: b.id },
    ],
  });
  const document = await insertDocument(db, { loanId: loan.id, type: 'ASSIGNMENT', fileName: A_SECRETS.documentFileName });
  const pool = await insertPool(db, { participantId: a.id, name: A_SECRETS.poolName, dateCompleted: '2026-01-05', loanIds: [loan.id] });
  const [message] = await db
    .insert(messages)
    .values({ participantId: a.id, targetType: 'LOAN', targetId: loan.id, message: A_SECRETS.messageText })
    .returning();
  if (!message) throw new Error('message not inserted');
  const [relationship] = await db
    .insert(relationships)
    .values({ participantId: a.id, partnerParticipantId: b.id, type: 'SERVICING', state: 'CONFIRMED' })
    .returning();
  if (!relationship) throw new Error('relationship not inserted');

  const { signIn } = callersOf(app);
  const cookies = {
    unregistered: (await signIn(EMAILS.unregistered)).cookie,
    memberA: (await signIn(EMAILS.memberA)).cookie,
    orgAdminA: (await signIn(EMAILS.orgAdminA)).cookie,
    memberB: (await signIn(EMAILS.memberB)).cookie,
    dartAdmin: (await signIn(EMAILS.dartAdmin)).cookie,
    dartOps: (await signIn(EMAILS.dartOps)).cookie,
  };

  // memberA's batch download of the loan's assignment, run to DONE.
  const started = await callerOf(app, cookies.memberA, a.id).post(PATHS.jobs, { type: 'BATCH_DOWNLOAD_AOMS', loanIds: [loan.id] });
  if (started.statusCode !== 202) throw new Error(`job not started: ${started.statusCode} ${started.body}`);
  const job = jobSchema.parse(started.json());
  await app.jobs.runPending(JOB_QUEUES.batchDownloadAoms);

  // memberA's reconciliation of a tape naming the loan, run to DONE.
  const boundary = '----registry-world-tape';
  const tape = await callerOf(app, cookies.memberA, a.id).post(
    PATHS.reconciliations,
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="tape"; filename="tape.csv"\r\nContent-Type: text/csv\r\n\r\n` +
        `ULI,Servicer\r\n${loan.uli},Other\r\n\r\n--${boundary}--\r\n`,
    ),
    { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } },
  );
  if (tape.statusCode !== 202) throw new Error(`reconciliation not started: ${tape.statusCode} ${tape.body}`);
  await app.jobs.runPending(JOB_QUEUES.reconcileTape);

  return {
    organizations,
    userIds: {
      memberA: memberA.user.id,
      orgAdminA: orgAdminA.user.id,
      memberB: memberB.user.id,
      dartAdmin: dartAdmin.user.id,
      dartOps: dartOps.user.id,
    },
    cookies,
    a: {
      loanId: loan.id,
      documentId: document.id,
      documentHash: document.hash,
      poolId: pool.id,
      messageId: message.id,
      jobId: job.jobId,
      reconciliationId: (tape.json() as { jobId: string }).jobId,
      relationshipId: relationship.id,
    },
    bLoanId: bLoan.id,
    secrets: { ...A_SECRETS, uli: loan.uli },
  };
}
