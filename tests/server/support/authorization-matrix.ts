// The authorization matrix: every registered route x 7 callers x 5 participant headers, each cell
// with the status the product's rules give it. Who gets past a route is read from the access the
// route declares (config.access, src/domain/access.ts); what a caller who got past sees is this
// file's per-route entry. The rules come from SPEC sections 6-8 and ARCHITECTURE section 6:
// - a route that is not 'public' or 'session-if-any' needs a session: without one, 401 (before
//   the body is read or validated);
// - a product call (/service-dart/.../secure/) acts for one organization: the x-participant-id
//   header, when sent, must name an active organization of the caller (else 403 'Invalid
//   participant'); without it the caller's default organization is used, and an identity without
//   a registry user has none (403). A 'signed-in' product call (users/me) lets the header be left
//   out and lets an identity without a registry user through (users/me answers it 404 'User not
//   found.', the login screen's not-registered notice);
// - 'org-admin' needs ORG_ADMIN on that organization, 'registry-staff' ROLE_DART_ADMIN or
//   ROLE_DART_OPS of the service-dart group, 'self-or-registry-staff' the user the URL names or
//   registry staff: else 403 with a permission message, never 'Invalid participant' (SPEC section
//   6's 'Invalid Permissions'); the registry administrator roles grant no organization's data;
// - a loan, document, pool, message or job of another organization answers 404 like a missing
//   one, never its data; lists answer the acting organization's own records only;
// - a job belongs to the organization and the user that started it;
// - public routes (sign-in, health, the web app, the API document) answer everyone alike and ignore the header.
// HEAD routes (Fastify adds one per GET) answer the GET's status with no body.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { messageBulkResultSchema } from '../../../src/contract/messages';
import { BANNER_FILE_PATHS, PATHS, SERVICER_LOOKUP_PATHS } from '../../../src/contract/paths';
import { PERMISSION_REFUSALS, type RouteAccess } from '../../../src/domain/access';
import { TEXTS } from '../../../src/domain/texts';
import { API_DOCS_PATH } from '../../../src/server/plugins/openapi';
import { isProductRoute } from '../../../src/server/plugins/participant-header';
import type { RegisteredRoute } from '../../fuzz/route-table';
import { DEFAULT_ORGANIZATION, EMAILS, type Caller, type RegistryWorld } from './registry-world';
import { callerOf, type RawRequest } from './route-test';
import { signIn } from './server-fixtures';

export const HEADER_CASES = ['none', 'own', 'foreign', 'inactive', 'malformed'] as const;
export type HeaderCase = (typeof HEADER_CASES)[number];

export const MALFORMED_PARTICIPANT = "A-1' OR '1'='1";

export interface Cell {
  readonly caller: Caller;
  readonly header: HeaderCase;
}

/** Whom a product call acts for: an organization, none (no registry user, no header), or a refused header. */
type Acting = 'a' | 'b' | 'c' | 'none' | 'invalid';

function actingOf(cell: Cell): Acting {
  if (cell.caller === 'anonymous') return 'invalid';
  if (cell.caller === 'unregistered') return cell.header === 'none' ? 'none' : 'invalid';
  if (cell.header === 'none' || cell.header === 'own') return DEFAULT_ORGANIZATION[cell.caller];
  return 'invalid';
}

/** The header value of a cell: 'own' is the caller's organization (A for callers without one), 'foreign' one it is not a member of. */
export function participantHeaderOf(world: RegistryWorld, cell: Cell): string | undefined {
  const own = cell.caller === 'anonymous' || cell.caller === 'unregistered' ? 'a' : DEFAULT_ORGANIZATION[cell.caller];
  switch (cell.header) {
    case 'none':
      return undefined;
    case 'own':
      return world.organizations[own];
    case 'foreign':
      return world.organizations[own === 'a' ? 'b' : 'a'];
    case 'inactive':
      return world.organizations.dormant;
    case 'malformed':
      return MALFORMED_PARTICIPANT;
  }
}

export interface Outcome {
  readonly status: number;
  /** May the body hold organization A's identifying values? */
  readonly mayShowA: boolean;
  /** For writes: send the route's valid body, or its invalid one (a write that would change the world). */
  readonly body: 'valid' | 'invalid';
}

interface WriteBody {
  readonly contentType: string;
  readonly valid: (world: RegistryWorld) => string | Buffer;
  readonly invalid: string | Buffer;
  /**
   * True when the valid body may be sent by A's own callers without changing what other cells see
   * (marking a message read again); otherwise A's callers send the invalid body and expect 400.
   */
  readonly harmlessForA: boolean;
}

/** A cell the route's declared access let through: the caller and the organization it acts for (null: none). */
export interface Admitted {
  readonly caller: Caller;
  readonly acting: Organization | null;
}

type Organization = 'a' | 'b' | 'c';

export interface RouteExpectation {
  /** What a cell the declared access let through gets (status and whether A's data may show). */
  readonly answer: (admitted: Admitted) => Outcome;
  /** For 'self-or-registry-staff': the caller whose own record the URL names. */
  readonly self?: Caller;
  /** The URL of the request, path parameters pointing at A's records. */
  readonly url: (world: RegistryWorld) => string;
  readonly body?: WriteBody;
  /** Sign a fresh session in for each cell (the call ends the session it is given). */
  readonly freshSession?: boolean;
  /** Organization names are this route's data (the directory lists every active organization). */
  readonly listsOrganizations?: boolean;
  /** A further check of a cell's response; a message when it fails. */
  readonly check?: (response: LightMyRequestResponse, cell: Cell, outcome: Outcome) => string | undefined;
  /** What a "successful" cell means here, for the reader. */
  readonly note?: string;
}

const outcome = (status: number, mayShowA = false, body: 'valid' | 'invalid' = 'valid'): Outcome => ({ status, mayShowA, body });

/** The organizations on which each registered caller holds ORG_ADMIN (registry-world.ts). */
const ORG_ADMIN_OF: Readonly<Record<Exclude<Caller, 'anonymous' | 'unregistered'>, readonly Organization[]>> = {
  memberA: [],
  orgAdminA: ['a'],
  memberB: ['b'],
  dartAdmin: ['c'],
  dartOps: ['c'],
};

const STAFF: readonly Caller[] = ['dartAdmin', 'dartOps'];

/** A refusal of the access hook, with the body it must carry. */
interface Refusal {
  readonly status: number;
  readonly message: string;
}

const INVALID_PARTICIPANT: Refusal = { status: 403, message: TEXTS.invalidParticipantBody };

/**
 * What the declared access makes of a cell: a refusal before the body is read, or whom the call
 * acts for. Written from the rules above, not from the hook's code.
 */
export function admissionOf(access: RouteAccess, url: string, cell: Cell, self?: Caller): Refusal | Admitted {
  const { caller } = cell;
  const admitted = (acting: Organization | null = null): Admitted => ({ caller, acting });
  if (access === 'public' || access === 'session-if-any') return admitted();
  if (caller === 'anonymous') return { status: 401, message: 'Authentication required' };
  const acting = actingOf(cell);
  switch (access) {
    case 'signed-in':
      if (!isProductRoute(url) || caller === 'unregistered') return admitted();
      return acting === 'invalid' || acting === 'none' ? INVALID_PARTICIPANT : admitted(acting);
    case 'member':
    case 'org-admin':
      if (acting === 'invalid' || acting === 'none' || caller === 'unregistered') return INVALID_PARTICIPANT;
      if (access === 'org-admin' && !ORG_ADMIN_OF[caller].includes(acting))
        return { status: 403, message: PERMISSION_REFUSALS['org-admin'] };
      return admitted(acting);
    case 'registry-staff':
      return STAFF.includes(caller) ? admitted() : { status: 403, message: PERMISSION_REFUSALS['registry-staff'] };
    case 'self-or-registry-staff':
      if (STAFF.includes(caller) || caller === self) return admitted();
      if (caller === 'unregistered') return { status: 404, message: 'User not found.' };
      return { status: 403, message: PERMISSION_REFUSALS['self-or-registry-staff'] };
    case 'org-admin-or-registry-staff': {
      // The organization the call concerns: the path's (A's here), else the body's, else the acting one.
      const refused = { status: 403, message: PERMISSION_REFUSALS['org-admin-or-registry-staff'] };
      if (STAFF.includes(caller)) return admitted();
      if (caller === 'unregistered') return refused;
      if (url.includes(':participantId')) return ORG_ADMIN_OF[caller].includes('a') ? admitted('a') : refused;
      // A GET without the organization in its path acts for the header's (the directory, the suggestions).
      if (url === PATHS.users || url === PATHS.userSuggestions) {
        if (acting === 'invalid' || acting === 'none') return INVALID_PARTICIPANT;
        return ORG_ADMIN_OF[caller].includes(acting) ? admitted(acting) : refused;
      }
      // The body names the organization: a caller administering none is refused before it is read.
      return ORG_ADMIN_OF[caller].length > 0 ? admitted() : refused;
    }
    case 'organization-viewer':
      // The URL names A: its members, B's (A's partner in the world's relationship), and registry staff.
      return STAFF.includes(caller) || caller === 'memberA' || caller === 'orgAdminA' || caller === 'memberB'
        ? admitted()
        : { status: 403, message: PERMISSION_REFUSALS['organization-viewer'] };
  }
}

/** Everyone let through alike. */
const everyone =
  (status: number, mayShowA = false) =>
  (): Outcome =>
    outcome(status, mayShowA);

/** Signed in or not (a 'session-if-any' route): the status without a session, and with one. */
const bySession =
  (signedOut: number, signedIn: number) =>
  ({ caller }: Admitted): Outcome =>
    outcome(caller === 'anonymous' ? signedOut : signedIn);

interface OrganizationRule {
  /** A's own callers acting for A. */
  readonly forA: number | ((caller: Caller) => number);
  /** Callers acting for another organization (B or C) while the request points at A's records. */
  readonly forOther: number;
  /** The write sends its invalid body when acting for A (see WriteBody.harmlessForA). */
  readonly invalidBodyForA?: boolean;
}

/** A product call acting for an organization: A's records are A's. */
const byOrganization =
  (rule: OrganizationRule) =>
  ({ caller, acting }: Admitted): Outcome => {
    if (acting === 'a') {
      const status = typeof rule.forA === 'number' ? rule.forA : rule.forA(caller);
      return outcome(status, true, rule.invalidBodyForA ? 'invalid' : 'valid');
    }
    return outcome(rule.forOther);
  };

const json = 'application/json';
const SIGN_IN_FORM = 'application/x-www-form-urlencoded';

/** A multipart/form-data body of text fields and an optional PDF. */
function multipart(fields: Readonly<Record<string, string>>, pdf: boolean): { payload: Buffer; contentType: string } {
  const boundary = '----registry-matrix-boundary';
  const chunks = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const parts: Buffer[] = chunks.map((chunk) => Buffer.from(chunk));
  if (pdf) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="securityInstrumentAndAssignment"; filename="instrument.pdf"\r\n` +
          'Content-Type: application/pdf\r\n\r\n%PDF-1.7\n%%EOF\n\r\n',
      ),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const DEACTIVATION_FIELDS = {
  reason: 'removeAsMortgage',
  effectiveDate: '2026-02-01',
  assignee: 'Harbor Capital Trust',
  entityType: 'Statutory Trust',
  statePostalCode: 'DE',
  'address.street1': '500 Harbor Blvd',
  'address.city': 'Oakland',
  'address.statePostalCode': 'CA',
  'address.zipCode': '94607',
};
export const DEACTIVATION_VALID = multipart(DEACTIVATION_FIELDS, true);
/** The same boundary: the content type is shared. Only the reason, and no file. */
const DEACTIVATION_INVALID = multipart({ reason: 'removeAsMortgage' }, false);

/** A loan tape as multipart/form-data: one with a loan key, one without (the same boundary). */
function tapeMultipart(content: string): { payload: Buffer; contentType: string } {
  const boundary = '----registry-matrix-tape';
  const payload = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="tape"; filename="tape.csv"\r\nContent-Type: text/csv\r\n\r\n` +
      `${content}\r\n--${boundary}--\r\n`,
  );
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}
const TAPE_VALID = tapeMultipart('ULI,Servicer\r\nUS0000000000000000000000,Other\r\n');
const TAPE_INVALID = tapeMultipart('Borrower,Servicer\r\nAda,Other\r\n');

/** Organization users: registry staff, or an ORG_ADMIN of A for A's users. */
const ORGANIZATION_USERS: Readonly<Record<string, RouteExpectation>> = {
  [`GET ${PATHS.users}`]: {
    answer: everyone(200),
    // A search of at least 3 characters (an ORG_ADMIN's minimum) that matches none of A's values.
    url: () => `${PATHS.users}?query=zzq`,
    note: 'registry staff, or an ORG_ADMIN of the acting organization (suggestions: names and email only)',
  },
  [`GET ${PATHS.userSuggestions}`]: {
    answer: everyone(200),
    url: () => `${PATHS.userSuggestions}?query=zzq`,
    note: 'registry staff, or an ORG_ADMIN of the acting organization (names and email only)',
  },
  [`GET ${PATHS.participantUsersPattern}`]: {
    answer: everyone(200, true),
    url: (w) => PATHS.participantUsers(w.organizations.a),
    note: "A's users: registry staff and A's ORG_ADMIN only",
  },
  [`POST ${PATHS.participantUsersPattern}`]: {
    answer: () => outcome(400, false, 'invalid'),
    url: (w) => PATHS.participantUsers(w.organizations.a),
    body: {
      contentType: json,
      valid: () => JSON.stringify({ firstName: 'Matrix', lastName: 'Person', email: 'matrix.person@matrix.test', roles: ['CUSTODIAN'] }),
      invalid: JSON.stringify({ firstName: 'Matrix', lastName: 'Person', email: 'not an email', roles: ['CUSTODIAN'] }),
      harmlessForA: false,
    },
    note: 'admitted callers send an invalid email (400): a valid body would invite a person into A',
  },
  [`GET ${PATHS.participantUserPattern}`]: {
    answer: everyone(200, true),
    url: (w) => PATHS.participantUser(w.organizations.a, w.userIds.memberA),
    note: "one of A's members: registry staff and A's ORG_ADMIN only",
  },
  [`PUT ${PATHS.participantUserPattern}`]: {
    answer: () => outcome(400, false, 'invalid'),
    url: (w) => PATHS.participantUser(w.organizations.a, w.userIds.memberA),
    body: { contentType: json, valid: () => JSON.stringify(['CUSTODIAN']), invalid: JSON.stringify([]), harmlessForA: false },
    note: "admitted callers send no role (400): a valid body would change memberA's roles",
  },
  [`DELETE ${PATHS.participantUserPattern}`]: {
    answer: everyone(404),
    url: (w) => PATHS.participantUser(w.organizations.a, '00000000-0000-4000-8000-00000000dead'),
    note: "404 for a user who is not A's member (removing a member would change the world)",
  },
  [`POST ${PATHS.userParticipantsV2Pattern}`]: {
    answer: ({ caller }) => outcome(STAFF.includes(caller) || caller === 'orgAdminA' ? 409 : 403),
    url: (w) => PATHS.userParticipantsV2(w.userIds.memberA),
    body: {
      contentType: json,
      valid: (w) => JSON.stringify({ participantId: w.organizations.a, roles: ['CUSTODIAN'] }),
      invalid: JSON.stringify({ roles: ['CUSTODIAN'] }),
      harmlessForA: true,
    },
    note: "memberA into A: 409 (already a member) for staff and A's ORG_ADMIN; 403 for B's ORG_ADMIN",
  },
  [`POST ${PATHS.participantUserInvitationPattern}`]: {
    answer: everyone(409),
    url: (w) => PATHS.participantUserInvitation(w.organizations.a, w.userIds.memberA),
    note: '409: memberA signs in already (no invitation to resend)',
  },
  [`DELETE ${PATHS.participantUserInvitationPattern}`]: {
    answer: everyone(404),
    url: (w) => PATHS.participantUserInvitation(w.organizations.a, w.userIds.memberA),
    note: '404: memberA has no pending invitation',
  },
  [`GET ${PATHS.invitationPage}`]: { answer: everyone(404), url: () => PATHS.invitationPage, note: '404: no invitation token' },
  [`POST ${PATHS.invitationPage}`]: {
    answer: everyone(404),
    url: () => PATHS.invitationPage,
    body: { contentType: SIGN_IN_FORM, valid: () => 'token=unknown', invalid: 'token=unknown', harmlessForA: true },
    note: '404: an unknown invitation token',
  },
};

/** A valid profile body; the matrix's organizations other than A may take it. */
const MATRIX_PROFILE = {
  name: 'Matrix Profile Organization',
  phoneNumber: '(415) 555-0100',
  email: 'desk@matrix.test',
  address: { street: '1 Main Street', city: 'Springfield', state: 'IL', zip: '62701' },
  url: null,
  additionalContacts: [],
};

/**
 * The expectations, by `METHOD pattern`. A HEAD route uses its GET's entry. A registered route
 * without an entry fails the matrix by name; an entry without a route fails it too.
 */
export const EXPECTATIONS: Readonly<Record<string, RouteExpectation>> = {
  // Public: the API document, health, the sign-in flow and the web app.
  [`GET ${API_DOCS_PATH}`]: { answer: everyone(200), url: () => API_DOCS_PATH },
  [`GET ${API_DOCS_PATH}/json`]: { answer: everyone(200), url: () => `${API_DOCS_PATH}/json` },
  [`GET ${PATHS.health}`]: { answer: everyone(200), url: () => PATHS.health },
  // The public servicer lookup: anyone, no session read; without its fields (and proof of work) 400.
  [`GET ${SERVICER_LOOKUP_PATHS.servicerLookup}`]: {
    answer: everyone(400),
    url: () => SERVICER_LOOKUP_PATHS.servicerLookup,
    note: '400: no fields and no proof of work (its own tests look up)',
  },
  [`GET ${SERVICER_LOOKUP_PATHS.addresses}`]: {
    answer: everyone(400),
    url: () => SERVICER_LOOKUP_PATHS.addresses,
    note: '400: no partialAddress',
  },
  [`GET ${SERVICER_LOOKUP_PATHS.servicerLookupChallenge}`]: {
    answer: everyone(200),
    url: () => SERVICER_LOOKUP_PATHS.servicerLookupChallenge,
  },
  [`POST ${PATHS.login}`]: { answer: everyone(303), url: () => PATHS.login, note: '303 to the hosted sign-in page' },
  [`GET ${PATHS.signIn}`]: { answer: everyone(200), url: () => PATHS.signIn },
  [`POST ${PATHS.signIn}`]: {
    answer: everyone(400),
    url: () => PATHS.signIn,
    // A sign-in that succeeded would end the caller's session: the form lacks its password.
    body: {
      contentType: SIGN_IN_FORM,
      valid: () => 'email=nobody%40matrix.test',
      invalid: 'email=nobody%40matrix.test',
      harmlessForA: true,
    },
    note: '400: the form has no password (a successful sign-in would replace the session the matrix uses)',
  },
  'GET /': { answer: everyone(302), url: () => '/' },
  'GET /registry': { answer: everyone(302), url: () => '/registry' },
  'GET /registry/': { answer: everyone(200), url: () => '/registry/' },
  'GET /registry/*': { answer: everyone(200), url: () => '/registry/assets/assets', note: 'a screen of the app: index.html' },
  'GET /registry/statecharts': { answer: everyone(301), url: () => '/registry/statecharts' },
  'GET /registry/statecharts/*': {
    answer: everyone(200),
    url: () => '/registry/statecharts/session.html',
    note: 'the statechart explorer',
  },

  // Identity broker, session only.
  [`GET ${PATHS.figureInfo}`]: { answer: everyone(200), url: () => PATHS.figureInfo },
  [`POST ${PATHS.logout}`]: {
    // Signing out needs no session and always lands on the login screen.
    answer: everyone(303),
    url: () => PATHS.logout,
    freshSession: true,
    note: '303 for everyone; each signed-in cell signs out a session of its own',
  },

  // Password change (SPEC sections 6 and 7): only the signed-in identity's own, if manageable (these are).
  [`POST ${PATHS.passwordReset}`]: { answer: everyone(303), url: () => PATHS.passwordReset, note: '303 to the password page' },
  [`GET ${PATHS.passwordPage}`]: {
    answer: bySession(303, 200),
    url: () => PATHS.passwordPage,
    note: 'signed out: 303 to the sign-in page',
  },
  [`POST ${PATHS.passwordPage}`]: {
    answer: bySession(303, 400),
    url: () => PATHS.passwordPage,
    // A change that succeeded would end every session of the identity: the form lacks its confirmation.
    body: {
      contentType: SIGN_IN_FORM,
      valid: () => 'currentPassword=x&newPassword=y',
      invalid: 'currentPassword=x&newPassword=y',
      harmlessForA: true,
    },
    note: 'signed out: 303 to the sign-in page; signed in: 400 (an invalid form: a change would end every session)',
  },

  // Sign-in security factors (SPEC section 7): the signed-in identity's own; 'User not found.' without a registry user.
  [`GET ${PATHS.factors}`]: {
    answer: ({ caller }) => outcome(caller === 'unregistered' ? 404 : 200),
    url: () => PATHS.factors,
    note: "an identity without a registry user: 404 'User not found.'",
  },
  [`POST ${PATHS.factors}`]: {
    answer: ({ caller }) => outcome(caller === 'unregistered' ? 404 : 303),
    url: () => `${PATHS.factors}?type=Email&externalStateNonce=matrix-${randomUUID()}`,
    note: '303 to the hosted factor page (a fresh nonce per cell: each is taken once)',
  },
  [`DELETE ${PATHS.factorPattern}`]: {
    answer: everyone(404),
    url: () => `${PATHS.factor('00000000-0000-4000-8000-00000000dead')}?externalStateNonce=matrix-${randomUUID()}`,
    note: "404: no such factor of the caller ('User not found.' without a registry user)",
  },
  [`GET ${PATHS.factorPage}`]: {
    answer: bySession(303, 404),
    url: () => `${PATHS.factorPage}?flow=unknown`,
    note: 'signed out: 303 to the sign-in page; signed in: 404 for a flow of no session',
  },
  [`POST ${PATHS.factorPage}`]: {
    answer: bySession(303, 404),
    url: () => PATHS.factorPage,
    body: { contentType: SIGN_IN_FORM, valid: () => 'flow=unknown&action=send', invalid: 'flow=unknown', harmlessForA: true },
    note: 'signed out: 303 to the sign-in page; signed in: 404 for a flow of no session',
  },
  [`POST ${PATHS.signInVerify}`]: {
    answer: everyone(404),
    url: () => PATHS.signInVerify,
    body: { contentType: SIGN_IN_FORM, valid: () => 'flow=unknown&action=send', invalid: 'flow=unknown', harmlessForA: true },
    note: "404: no sign-in's second step of that token",
  },
  [`GET ${PATHS.webauthnScript}`]: { answer: everyone(200), url: () => PATHS.webauthnScript },
  [`GET ${PATHS.devMailbox}`]: { answer: everyone(200), url: () => PATHS.devMailbox, note: 'development only (tests have no transport)' },

  // The caller and its organizations.
  [`GET ${PATHS.usersMe}`]: {
    answer: ({ caller, acting }) => outcome(caller === 'unregistered' ? 404 : 200, acting === 'a'),
    url: () => PATHS.usersMe,
    note: "an identity without a registry user: 404 'User not found.'",
  },
  [`GET ${PATHS.userParticipantsPattern}`]: {
    answer: everyone(200, true),
    self: 'memberA',
    url: (world) => PATHS.userParticipants(world.userIds.memberA),
    note: "memberA's organizations: memberA and the registry administrators only",
  },
  [`GET ${PATHS.participantDirectory}`]: {
    answer: byOrganization({ forA: 200, forOther: 200 }),
    url: () => PATHS.participantDirectory,
    listsOrganizations: true,
  },

  // A's loan and its documents.
  [`GET ${PATHS.loanDetailsPattern}`]: {
    answer: byOrganization({ forA: 200, forOther: 404 }),
    url: (w) => PATHS.loanDetails(w.a.loanId),
  },
  [`GET ${PATHS.loanEventsPattern}`]: { answer: byOrganization({ forA: 200, forOther: 404 }), url: (w) => PATHS.loanEvents(w.a.loanId) },
  [`GET ${PATHS.loanActivityPattern}`]: {
    answer: byOrganization({ forA: 200, forOther: 404 }),
    url: (w) => PATHS.loanActivity(w.a.loanId),
  },
  [`GET ${PATHS.loanDocumentsMetadataPattern}`]: {
    answer: byOrganization({ forA: 200, forOther: 404 }),
    url: (w) => PATHS.loanDocumentsMetadata(w.a.loanId),
  },
  [`GET ${PATHS.loanDocumentPattern}`]: {
    answer: byOrganization({ forA: 200, forOther: 404 }),
    url: (w) => PATHS.loanDocument(w.a.loanId, w.a.documentId),
  },
  [`GET ${PATHS.loans}`]: { answer: byOrganization({ forA: 200, forOther: 200 }), url: () => PATHS.loans },
  [`GET ${PATHS.poolAssetsCsv}`]: {
    answer: byOrganization({ forA: 200, forOther: 404 }),
    url: (w) => `${PATHS.poolAssetsCsv}?poolDenomination=${w.a.poolId}`,
  },
  [`GET ${PATHS.pools}`]: { answer: byOrganization({ forA: 200, forOther: 200 }), url: () => PATHS.pools },
  [`GET ${PATHS.poolPattern}`]: { answer: byOrganization({ forA: 200, forOther: 404 }), url: (w) => PATHS.pool(w.a.poolId) },

  // Batch downloads: a job is its organization's and its user's.
  [`POST ${PATHS.jobs}`]: {
    answer: byOrganization({ forA: 202, forOther: 202 }),
    url: () => PATHS.jobs,
    body: {
      contentType: json,
      valid: (w) => JSON.stringify({ type: 'BATCH_DOWNLOAD_AOMS', loanIds: [w.a.loanId] }),
      invalid: JSON.stringify({ type: 'BATCH_DOWNLOAD_AOMS' }),
      harmlessForA: true,
    },
    note: "202: a new PENDING job (another organization's loan ids are left out: its job counts 0 documents)",
    check: (response, _cell, expected) =>
      expected.status === 202 && !expected.mayShowA && (response.json() as { total?: number }).total !== 0
        ? `another organization's job counts A's documents: ${response.body}`
        : undefined,
  },
  [`GET ${PATHS.jobs}`]: { answer: byOrganization({ forA: 200, forOther: 200 }), url: () => `${PATHS.jobs}?type=BATCH_DOWNLOAD_AOMS` },
  [`GET ${PATHS.documentsZip}`]: {
    answer: byOrganization({ forA: (caller) => (caller === 'memberA' ? 200 : 404), forOther: 404 }),
    url: (w) => `${PATHS.documentsZip}?jobId=${w.a.jobId}`,
    note: "memberA's finished job: 200 to memberA only, 404 to A's other users and to everyone else",
  },

  // Reconciliations: each is its organization's and its user's.
  [`POST ${PATHS.reconciliations}`]: {
    answer: byOrganization({ forA: 400, forOther: 202, invalidBodyForA: true }),
    url: () => PATHS.reconciliations,
    body: { contentType: TAPE_VALID.contentType, valid: () => TAPE_VALID.payload, invalid: TAPE_INVALID.payload, harmlessForA: false },
    note: "A's callers: 400 (a header with no loan key: a valid tape would add to A's reconciliations); others' valid tape: 202",
  },
  [`GET ${PATHS.reconciliations}`]: { answer: byOrganization({ forA: 200, forOther: 200 }), url: () => PATHS.reconciliations },
  [`GET ${PATHS.reconciliationDifferencesPattern}`]: {
    answer: byOrganization({ forA: (caller) => (caller === 'memberA' ? 200 : 404), forOther: 404 }),
    url: (w) => PATHS.reconciliationDifferences(w.a.reconciliationId),
    note: "memberA's finished reconciliation: 200 to memberA only, 404 to A's other users and to everyone else",
  },
  [`GET ${PATHS.reconciliationCsvPattern}`]: {
    answer: byOrganization({ forA: (caller) => (caller === 'memberA' ? 200 : 404), forOther: 404 }),
    url: (w) => PATHS.reconciliationCsv(w.a.reconciliationId),
    note: "memberA's finished reconciliation: 200 to memberA only, 404 to A's other users and to everyone else",
  },

  // Writes on A's loan.
  [`POST ${PATHS.loanDeactivatePattern}`]: {
    answer: byOrganization({ forA: 400, forOther: 404, invalidBodyForA: true }),
    url: (w) => PATHS.loanDeactivate(w.a.loanId),
    body: {
      contentType: DEACTIVATION_VALID.contentType,
      valid: () => DEACTIVATION_VALID.payload,
      invalid: DEACTIVATION_INVALID.payload,
      harmlessForA: false,
    },
    note: "A's callers: 400 (the form lacks fields and the PDF; a valid one would deactivate the loan); others send a valid form and get 404",
  },
  [`POST ${PATHS.loanRoleRequestsPattern}`]: {
    answer: byOrganization({ forA: 400, forOther: 404, invalidBodyForA: true }),
    url: (w) => PATHS.loanRoleRequests(w.a.loanId),
    body: {
      contentType: json,
      valid: (w) => JSON.stringify({ role: 'SERVICER', participantId: w.organizations.b }),
      invalid: JSON.stringify({ role: 'SERVICER' }),
      harmlessForA: false,
    },
    note: "A's callers: 400 (no receiver; a valid request would make the role PENDING); others send a valid one and get 404",
  },

  // A's messages.
  [`GET ${PATHS.messages}`]: { answer: byOrganization({ forA: 200, forOther: 200 }), url: () => `${PATHS.messages}?archived=true` },
  [`GET ${PATHS.messagesUnreadCount}`]: { answer: byOrganization({ forA: 200, forOther: 200 }), url: () => PATHS.messagesUnreadCount },
  [`PATCH ${PATHS.messages}`]: {
    answer: byOrganization({ forA: 200, forOther: 404 }),
    url: () => PATHS.messages,
    body: {
      contentType: json,
      valid: (w) => JSON.stringify({ uuid: w.a.messageId, read: true }),
      invalid: JSON.stringify({ read: true }),
      harmlessForA: true,
    },
    note: "200: A's message marked read (again)",
  },
  [`PATCH ${PATHS.messagesBulk}`]: {
    answer: byOrganization({ forA: 200, forOther: 200 }),
    url: () => PATHS.messagesBulk,
    body: {
      contentType: json,
      valid: (w) => JSON.stringify({ uuids: [w.a.messageId], read: true }),
      invalid: JSON.stringify({ uuids: [] }),
      harmlessForA: true,
    },
    note: "200: A's message marked read; another organization's call updates (and counts) nothing",
    check: (response, _cell, expected) => {
      if (expected.status !== 200) return undefined;
      const updated = messageBulkResultSchema.parse(response.json()).messagesUpdated;
      const wanted = expected.mayShowA ? 1 : 0;
      return updated === wanted ? undefined : `messagesUpdated ${updated}, expected ${wanted}`;
    },
  },

  ...ORGANIZATION_USERS,
  // The administration's organizations: A's record (registry staff; its members may read it).
  [`GET ${PATHS.participants}`]: { answer: everyone(200, true), url: () => PATHS.participants, listsOrganizations: true },
  [`POST ${PATHS.participants}`]: {
    answer: () => outcome(400, false, 'invalid'),
    url: () => PATHS.participants,
    body: { contentType: json, valid: () => '{}', invalid: JSON.stringify({ code: 'TOO LONG' }), harmlessForA: false },
    note: 'registry staff: 400 (the body lacks fields; a valid one would add an organization per cell)',
  },
  [`GET ${PATHS.participantPattern}`]: {
    answer: everyone(200, true),
    url: (w) => PATHS.participant(w.organizations.a),
    note: "A itself: registry staff and A's members",
  },
  [`PUT ${PATHS.participantPattern}`]: {
    answer: () => outcome(400, false, 'invalid'),
    url: (w) => PATHS.participant(w.organizations.a),
    body: { contentType: json, valid: () => '{}', invalid: JSON.stringify({ code: 'TOO LONG' }), harmlessForA: false },
    note: "registry staff: 400 (a valid body would change A's record)",
  },
  [`PATCH ${PATHS.participantPattern}`]: {
    answer: () => outcome(400, false, 'invalid'),
    url: (w) => PATHS.participant(w.organizations.a),
    body: { contentType: json, valid: () => '{}', invalid: JSON.stringify({ isActive: 'no' }), harmlessForA: false },
    note: 'registry staff: 400 (a valid body would deactivate A)',
  },
  [`GET ${PATHS.participantActivityPattern}`]: {
    answer: everyone(200, true),
    url: (w) => PATHS.participantActivity(w.organizations.a),
    note: "A's audit log: registry staff and A's ORG_ADMIN",
  },
  [`GET ${PATHS.auditLog}`]: { answer: everyone(200, true), url: () => PATHS.auditLog, note: 'the whole audit log: registry staff' },

  // The contact profile (ORG_ADMIN of the acting organization) and the partner view (A and B, the
  // two organizations of A's relationship, see each other's profile; C gets 404).
  [`PATCH ${PATHS.participantProfile}`]: {
    answer: byOrganization({ forA: 400, forOther: 200, invalidBodyForA: true }),
    url: () => PATHS.participantProfile,
    body: {
      contentType: json,
      valid: () => JSON.stringify(MATRIX_PROFILE),
      invalid: JSON.stringify({ ...MATRIX_PROFILE, name: '' }),
      harmlessForA: false,
    },
    note: "A's ORG_ADMIN: 400 (the name is missing; a valid profile would rename A); other organizations' admins update their own",
  },
  [`GET ${PATHS.relationships}`]: {
    answer: ({ acting }) => outcome(200, acting === 'a' || acting === 'b'),
    url: () => PATHS.relationships,
    note: "200 for everyone: A's and B's list their relationship (B's names A, its partner)",
  },
  [`GET ${PATHS.relationshipPattern}`]: {
    answer: ({ acting }) => outcome(acting === 'a' || acting === 'b' ? 200 : 404, acting === 'a' || acting === 'b'),
    url: (w) => PATHS.relationship(w.a.relationshipId),
    note: "A's relationship with B: 200 to A and B, 404 to C",
  },
  [`GET ${PATHS.relationshipPartnerProfilePattern}`]: {
    answer: ({ acting }) => outcome(acting === 'a' || acting === 'b' ? 200 : 404, acting === 'a' || acting === 'b'),
    url: (w) => PATHS.relationshipPartnerProfile(w.a.relationshipId),
    note: "the partner's profile: 200 to A (B's) and B (A's), 404 to C",
  },

  // The banners: the banner files are public; registry staff list and write them.
  [`GET ${BANNER_FILE_PATHS.production}`]: { answer: everyone(200), url: () => BANNER_FILE_PATHS.production },
  [`GET ${BANNER_FILE_PATHS.test}`]: { answer: everyone(200), url: () => BANNER_FILE_PATHS.test, note: 'off production only' },
  [`GET ${PATHS.banners}`]: { answer: everyone(200), url: () => PATHS.banners },
  [`POST ${PATHS.banners}`]: {
    answer: () => outcome(400, false, 'invalid'),
    url: () => PATHS.banners,
    body: { contentType: json, valid: () => '{}', invalid: JSON.stringify({ message: '', apps: [] }), harmlessForA: false },
    note: 'registry staff: 400 (a valid body would show a banner to every other test)',
  },
  [`PUT ${PATHS.bannerPattern}`]: {
    answer: () => outcome(400, false, 'invalid'),
    url: () => PATHS.banner('00000000-0000-4000-8000-00000000beef'),
    body: { contentType: json, valid: () => '{}', invalid: JSON.stringify({ message: '', apps: [] }), harmlessForA: false },
    note: 'registry staff: 400 (the body lacks fields)',
  },
};

/** The expectation of a registered route: a HEAD route is its GET's. */
export function expectationOf(route: Pick<RegisteredRoute, 'method' | 'url'>): RouteExpectation | undefined {
  return EXPECTATIONS[`${route.method === 'HEAD' ? 'GET' : route.method} ${route.url}`];
}

/** A's identifying values this cell's body must not hold. */
function forbiddenValues(world: RegistryWorld, expectation: RouteExpectation): string[] {
  const { organizationName, ...records } = world.secrets;
  return [...Object.values(records), ...(expectation.listsOrganizations ? [] : [organizationName])];
}

export interface CellResult {
  readonly cell: Cell;
  readonly expected: Outcome;
  readonly status: number;
  /** What went wrong, if anything. */
  readonly problems: readonly string[];
}

/** Runs one cell: the request as the web client would make it, then status, leak and route checks. */
export async function runCell(
  app: FastifyInstance,
  world: RegistryWorld,
  route: RegisteredRoute,
  expectation: RouteExpectation,
  cell: Cell,
): Promise<CellResult> {
  if (!route.access) throw new Error(`${route.key} declares no access`);
  const admission = admissionOf(route.access, route.url, cell, expectation.self);
  // Refusals come before the body is looked at: they are sent the invalid body to prove it.
  const refusal = 'status' in admission ? admission : undefined;
  const expected = 'status' in admission ? outcome(admission.status, false, 'invalid') : expectation.answer(admission);
  let cookie: string | undefined;
  if (cell.caller !== 'anonymous') {
    cookie = world.cookies[cell.caller];
    if (expectation.freshSession) {
      const fresh = (await signIn(app, EMAILS[cell.caller])).cookie;
      if (!fresh) throw new Error(`no fresh session for ${cell.caller}`);
      cookie = fresh;
    }
  }
  const write = !['GET', 'HEAD'].includes(route.method);
  // A read goes without the caller's Origin, as a browser's navigation or fetch of a GET may.
  const headers: Record<string, string | null> = write ? {} : { origin: null };
  if (expectation.body) headers['content-type'] = expectation.body.contentType;
  const response = await callerOf(app, cookie, participantHeaderOf(world, cell)).inject({
    method: route.method as RawRequest['method'],
    url: expectation.url(world),
    headers,
    ...(expectation.body ? { payload: expected.body === 'valid' ? expectation.body.valid(world) : expectation.body.invalid } : {}),
  });

  const problems: string[] = [];
  if (response.statusCode !== expected.status)
    problems.push(`status ${response.statusCode}, expected ${expected.status}: ${response.body.slice(0, 200)}`);
  else if (refusal && route.method !== 'HEAD' && (response.json() as { message?: unknown }).message !== refusal.message)
    problems.push(`refused with ${response.body.slice(0, 200)}, expected the message '${refusal.message}'`);
  if (!expected.mayShowA) {
    const leaked = forbiddenValues(world, expectation).filter((value) => value && response.body.includes(value));
    if (leaked.length > 0) problems.push(`body holds A's ${leaked.join(', ')}`);
  }
  if (route.method === 'HEAD' && response.body.length > 0) problems.push('HEAD answered a body');
  if (problems.length === 0 && route.method !== 'HEAD') {
    const failed = expectation.check?.(response, cell, expected);
    if (failed) problems.push(failed);
  }
  return { cell, expected, status: response.statusCode, problems };
}
