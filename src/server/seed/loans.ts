// One loan and everything attached to it (parties, events, pool membership, documents), built
// from the loan's own random stream, and the bulk load of a range of loans through COPY.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type pg from 'pg';
import { isHelocType, LOAN_TYPES, type RoleState } from '../../domain/loan';
import { uliCheckDigits } from '../../domain/uli';
import * as schema from '../db/schema';
import { adversarialLoan } from './adversarial';
import {
  ANCHOR,
  DAY,
  DOCUMENT_LOAN_LIMIT,
  HOUR,
  isoDate,
  MINUTE,
  pad,
  SEED,
  weightedOrg,
  type Context,
  type Holders,
  type Org,
  type Pool,
} from './context';
import { CopyBuffer, CopyTable } from './copy';
import { DOCUMENT_SHOWCASE_LOAN, SHOWCASE_DOCUMENTS } from './document-showcase';
import {
  DOCUMENT_KINDS,
  DOCUMENT_TITLES,
  makeDamagedPdf,
  makeDocumentPdf,
  type DocumentDamage,
  type DocumentKind,
  type DocumentSubject,
} from './documents';
import {
  ADMIN_DEFAULT_ORG,
  CITIES,
  FIRST_NAMES,
  LAST_NAMES,
  OUTSIDE_PARTY_NAMES,
  STREET_NAMES,
  STREET_SUFFIXES,
  USER_ADMIN_ORG,
} from './fixtures';
import type { Row } from './insert';
import { Rng } from './random';

/** Loans generated per COPY round; the next round is generated while PostgreSQL takes this one. */
export const LOAN_CHUNK = 10_000;
const DEACTIVATION_REQUEST_LIMIT = 6;
const LOAN_SAMPLE_PER_ORG = 60;

const LOAN_TYPE_WEIGHTS: Record<string, number> = {
  CRYPTO_HELOC: 8,
  DSCR: 12,
  FIGURE_HELOC: 22,
  PIGGYBACK_HELOC: 10,
  RTL: 8,
  MORTGAGE: 20,
  FIRST_LIEN_MORTGAGE: 20,
};

const EVENT_STATE_OF: Record<RoleState, string> = {
  REQUESTED: 'Requested',
  PENDING: 'Pending',
  CONFIRMED: 'Confirmed',
  REJECTED: 'Rejected',
};

const TRANSFER_EVENT_OF_ROLE: Record<string, string> = {
  OWNER: 'TRANSFER_OF_OWNERSHIP',
  SERVICER: 'TRANSFER_OF_SERVICING',
  CONTROLLER: 'TRANSFER_OF_CONTROL',
  SUB_SERVICER: 'SUB_SERVICER_ASSIGNMENT',
  SECURED_PARTY: 'SECURED_PARTY_ASSIGNMENT',
};

const EVENT_DESCRIPTIONS: Record<string, (party: string) => string> = {
  REGISTRATION: (party) => `Asset registered by ${party}`,
  TRANSFER_OF_OWNERSHIP: (party) => `Ownership transferred to ${party}`,
  TRANSFER_OF_SERVICING: (party) => `Servicing transferred to ${party}`,
  TRANSFER_OF_CONTROL: (party) => `Control of the eNote transferred to ${party}`,
  SUB_SERVICER_ASSIGNMENT: (party) => `${party} assigned as sub-servicer`,
  SECURED_PARTY_ASSIGNMENT: (party) => `${party} recorded as secured party`,
  DEACTIVATION_REQUESTED: (party) => `Deactivation requested by ${party}`,
  DEACTIVATION: (party) => `Asset deactivated at the request of ${party}`,
};

interface Party {
  readonly role: string;
  readonly org: Org | null;
  readonly name: string;
  state: RoleState;
}

interface LoanBundle {
  readonly loan: Row<typeof schema.loans>;
  readonly parties: Row<typeof schema.loanParties>[];
  readonly events: Row<typeof schema.loanEvents>[];
  readonly poolId: string | null;
  readonly documents: ReadonlyArray<SeedDocument>;
  readonly subject: DocumentSubject | null;
}

/** A document of a loan before its PDF is made; `name` and `damage` only on the showcase loan. */
interface SeedDocument {
  readonly id: string;
  readonly kind: DocumentKind;
  readonly createdAt: Date;
  readonly name?: string;
  readonly damage?: DocumentDamage;
}

function pickAmount(rng: Rng, min: number, max: number, step: number): number {
  const value = Math.exp(Math.log(min) + rng.next() * (Math.log(max) - Math.log(min)));
  return Math.min(max, Math.max(min, Math.round(value / step) * step));
}

function recentUpdate(rng: Rng, now: number): number {
  const roll = rng.next();
  if (roll < 0.06) return now - rng.int(1, 90) * MINUTE;
  if (roll < 0.25) return now - rng.int(1, 6) * DAY - rng.int(0, 23) * HOUR;
  return now - rng.int(7, 89) * DAY - rng.int(0, 23) * HOUR;
}

function buildLoan(index: number, context: Context): LoanBundle {
  const rng = Rng.stream(SEED, 'loan', index);
  const id = rng.uuid();
  const loanType =
    index < LOAN_TYPES.length
      ? (LOAN_TYPES[index] as string)
      : rng.weighted(
          LOAN_TYPES,
          LOAN_TYPES.map((type) => LOAN_TYPE_WEIGHTS[type] ?? 1),
        );
  const heloc = isHelocType(loanType);
  const adversarial = adversarialLoan(index);
  // The document showcase loan (document-showcase.ts) is held like the adversarial ones.
  const showcase = index === DOCUMENT_SHOWCASE_LOAN.index;
  const statusRoll = rng.next();
  const status = adversarial || showcase ? 'Active' : statusRoll < 0.03 ? 'Deleted' : statusRoll < 0.12 ? 'Inactive' : 'Active';

  const holding = (role: string) => context.holders.get(role) as Holders;
  const pickedOriginator = weightedOrg(rng, holding('ORIGINATOR'));
  // Harborview originates the adversarial loans: their ULIs (its LEI first) are then the same at every seed size.
  const originator = adversarial || showcase ? (context.orgs[ADMIN_DEFAULT_ORG] as Org) : pickedOriginator;
  // ULI: the originator's LEI, 16 characters of the loan id, the mod 97-10 check digits.
  const idChars = id.replaceAll('-', '').toUpperCase();
  const body = originator.lei + idChars.slice(0, 12) + idChars.slice(13, 17);
  const uli = body + uliCheckDigits(body);

  const noteTime = ANCHOR - rng.int(15, 6 * 365) * DAY;
  const tradeTime = Math.min(ANCHOR, noteTime + rng.int(0, 45) * DAY);
  const amount = heloc ? pickAmount(rng, 25_000, 400_000, 500) : pickAmount(rng, 60_000, 1_500_000, 100);
  const firstName = adversarial?.firstName ?? rng.pick(FIRST_NAMES);
  const lastName = adversarial?.lastName ?? rng.pick(LAST_NAMES);
  const additionalParties: { partyType: string; firstName: string; lastName: string }[] = [];
  const coBorrowers = rng.chance(0.35) ? (rng.chance(0.12) ? 2 : 1) : 0;
  for (let i = 0; i < coBorrowers; i++) {
    additionalParties.push({
      partyType: 'COBORROWER',
      firstName: rng.pick(FIRST_NAMES),
      lastName: rng.chance(0.6) ? lastName : rng.pick(LAST_NAMES),
    });
  }
  const [city, state, baseZip] = rng.pick(CITIES);
  let street1 = `${rng.int(100, 9899)} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_SUFFIXES)}`;
  let street2 = rng.chance(0.2) ? `${rng.pick(['Apt', 'Unit', 'Suite'])} ${rng.int(1, 40)}${rng.pick(['', 'A', 'B', 'C'])}` : null;
  if (adversarial) ({ street1, street2 } = adversarial);
  const zip = pad(baseZip + rng.int(0, 8), 5);
  const dartAsOriginalMortgagee = rng.chance(0.35);
  const custodian = rng.pick(holding('CONTROLLER').orgs);
  const noteLocation =
    heloc || rng.chance(0.3)
      ? `eVault: ${custodian.fixture.organizationName}`
      : `${custodian.fixture.organizationName}, ${custodian.fixture.city}, ${custodian.fixture.state}`;
  const updated = recentUpdate(rng, context.now);
  const created = Math.min(tradeTime + 9 * HOUR, updated);

  // Parties: one entry per role; some roles only on some loans.
  const roles = ['ORIGINATOR', 'OWNER', 'SERVICER'];
  if (!heloc) roles.push('CONTROLLER');
  if (rng.chance(0.3)) roles.push('SUB_SERVICER');
  if (rng.chance(0.25)) roles.push('SECURED_PARTY');
  const parties: Party[] = [];
  for (const role of roles) {
    let org: Org | null;
    if (role === 'ORIGINATOR') org = originator;
    else if (rng.chance(0.04)) org = null;
    else if (role === 'OWNER' && rng.chance(0.45)) org = originator;
    else if (role === 'SERVICER' && originator.fixture.partyRoles.includes('SERVICER') && rng.chance(0.5)) org = originator;
    else org = weightedOrg(rng, holding(role));
    // The adversarial loans must be visible to both demo accounts' organizations.
    if ((adversarial || showcase) && role === 'OWNER') org = context.orgs[ADMIN_DEFAULT_ORG] as Org;
    if ((adversarial || showcase) && role === 'SERVICER') org = context.orgs[USER_ADMIN_ORG] as Org;
    parties.push({ role, org, name: org ? org.fixture.name : rng.pick(OUTSIDE_PARTY_NAMES), state: 'CONFIRMED' });
  }
  // Every role state shows up among the first loans; later ones mostly CONFIRMED.
  const changeable = parties.filter((party) => party.role !== 'ORIGINATOR');
  let changed: Party | undefined;
  if (status === 'Active' && index >= 1 && index <= 3) {
    changed = changeable[0];
    if (changed) changed.state = (['REQUESTED', 'PENDING', 'REJECTED'] as const)[index - 1] as RoleState;
  } else if (status === 'Active' && rng.chance(0.18)) {
    changed = rng.pick(changeable);
    changed.state = rng.weighted(['PENDING', 'REQUESTED', 'REJECTED'] as const, [4, 3, 3]);
  }

  const partyRows = parties.map((party): Row<typeof schema.loanParties> => ({
    id: rng.uuid(),
    loanId: id,
    role: party.role,
    state: party.state,
    participantId: party.org?.id ?? null,
    name: party.org ? null : party.name,
    provenanceId: party.org?.provenanceId ?? null,
    updatedAt: new Date(updated),
  }));

  // Events: registration, some transfers, the open change, the deactivation.
  const events: Row<typeof schema.loanEvents>[] = [];
  const addEvent = (eventType: string, state: string, party: Party | Org, requested: number, effective: number | null) => {
    const org = 'fixture' in party ? party : party.org;
    const partyName = 'fixture' in party ? party.fixture.name : party.name;
    events.push({
      id: rng.uuid(),
      loanId: id,
      participantId: org?.id ?? null,
      state,
      eventType,
      eventDescription: (EVENT_DESCRIPTIONS[eventType] ?? ((name: string) => `${eventType} for ${name}`))(partyName),
      requestedDate: isoDate(requested),
      effectiveDate: effective === null ? null : isoDate(effective),
      createdAt: new Date(requested + 10 * HOUR),
    });
  };
  addEvent('REGISTRATION', 'Confirmed', originator, tradeTime - rng.int(1, 3) * DAY, tradeTime);
  const transfers = rng.int(1, 3) - (changed ? 1 : 0) - (status === 'Inactive' ? 1 : 0);
  let cursor = tradeTime;
  const span = Math.max(DAY, ANCHOR - 30 * DAY - tradeTime);
  for (let i = 0; i < transfers; i++) {
    const party = rng.pick(changeable.length > 0 ? changeable : parties);
    cursor = Math.min(ANCHOR - 30 * DAY, cursor + rng.int(1, Math.max(1, Math.floor(span / DAY / 3))) * DAY);
    const state = rng.weighted(['Confirmed', 'Canceled', 'Rejected'], [8, 1, 1]);
    addEvent(
      TRANSFER_EVENT_OF_ROLE[party.role] ?? 'TRANSFER_OF_SERVICING',
      state,
      party,
      cursor - 2 * DAY,
      state === 'Confirmed' ? cursor : null,
    );
  }
  if (changed) {
    const requested = ANCHOR - rng.int(0, 20) * DAY;
    addEvent(TRANSFER_EVENT_OF_ROLE[changed.role] ?? 'TRANSFER_OF_SERVICING', EVENT_STATE_OF[changed.state], changed, requested, null);
  }
  const requester = parties.find((party) => party.role === 'OWNER' && party.org) ?? parties.find((party) => party.org) ?? parties[0];
  if (status === 'Inactive' && requester) {
    const requested = ANCHOR - rng.int(10, 25) * DAY;
    addEvent('DEACTIVATION_REQUESTED', 'Confirmed', requester, requested, requested);
    addEvent('DEACTIVATION', 'Confirmed', requester, requested + 3 * DAY, requested + 3 * DAY);
  } else if (status === 'Active' && !changed && rng.chance(0.03) && requester) {
    // A deactivation still waiting: shown in history although its state is Requested.
    addEvent('DEACTIVATION_REQUESTED', 'Requested', requester, ANCHOR - rng.int(0, 5) * DAY, null);
  }

  const loanNumber = String(1_000_000_000 + index * 13 + rng.int(0, 12));
  const borrower = [firstName, lastName].join(' ');
  // Only documents and deactivation requests need the subject: build it for those loans only.
  const subject = (): DocumentSubject => ({
    uli,
    loanNumber,
    borrower:
      additionalParties.length > 0
        ? `${borrower} and ${additionalParties.map((p) => `${p.firstName} ${p.lastName}`).join(', ')}`
        : borrower,
    property: `${street1}${street2 ? `, ${street2}` : ''}, ${city}, ${state} ${zip}`,
    amount: `$${amount.toLocaleString('en-US')}`,
    noteDate: isoDate(noteTime),
    party: originator.fixture.organizationName,
  });

  const documents: SeedDocument[] = [];
  if (showcase) {
    SHOWCASE_DOCUMENTS.forEach((document, position) =>
      documents.push({ ...document, id: rng.uuid(), createdAt: new Date(tradeTime + position * HOUR) }),
    );
  } else if (index < DOCUMENT_LOAN_LIMIT) {
    const kinds = rng.shuffle(DOCUMENT_KINDS).slice(0, rng.int(1, 4));
    for (const kind of kinds) documents.push({ id: rng.uuid(), kind, createdAt: new Date(tradeTime + rng.int(0, 10) * DAY) });
  }

  // Pools take non-deleted loans on which their owner holds a role.
  let poolId: string | null = null;
  if (status !== 'Deleted' && context.pools.length > 0) {
    const holders = new Set(parties.map((party) => party.org?.id));
    const start = rng.int(0, context.pools.length - 1);
    for (let k = 0; k < context.pools.length; k++) {
      const pool = context.pools[(start + k) % context.pools.length] as Pool;
      if (pool.filled < pool.target && holders.has(pool.owner.id)) {
        pool.filled++;
        poolId = pool.id;
        break;
      }
    }
  }

  for (const party of parties) {
    if (!party.org) continue;
    const sample = context.loanSamples.get(party.org.id) ?? [];
    if (sample.length < LOAN_SAMPLE_PER_ORG && sample[sample.length - 1]?.id !== id) sample.push({ id, uli });
    context.loanSamples.set(party.org.id, sample);
  }
  if (status === 'Inactive' && requester?.org && context.inactiveLoans.length < DEACTIVATION_REQUEST_LIMIT) {
    context.inactiveLoans.push({ id, uli, requester: requester.org, propertyState: state, subject: subject() });
  }

  return {
    loan: {
      id,
      uli,
      loanNumber,
      loanType,
      status,
      tradeDate: isoDate(tradeTime),
      mortgageeOfRecord: dartAsOriginalMortgagee ? 'DART' : rng.chance(0.3) ? 'MERS' : originator.fixture.organizationName,
      noteAmount: amount.toFixed(2),
      noteDate: isoDate(noteTime),
      noteLocation,
      modification: rng.chance(0.08),
      assumption: rng.chance(0.03),
      borrowerFirstName: firstName,
      borrowerLastName: lastName,
      additionalParties,
      dartAsOriginalMortgagee,
      propertyStreet1: street1,
      propertyStreet2: street2,
      propertyCity: city,
      propertyState: state,
      propertyZip: zip,
      deactivated: status === 'Inactive',
      createdAt: new Date(created),
      updatedAt: new Date(updated),
    },
    parties: partyRows,
    events,
    poolId,
    documents,
    subject: documents.length > 0 ? subject() : null,
  };
}

export async function documentRow(
  loanId: string,
  id: string,
  kind: DocumentKind,
  subject: DocumentSubject,
  createdAt: Date,
  options: { name?: string; damage?: DocumentDamage } = {},
): Promise<Row<typeof schema.documents>> {
  const pdf = options.damage ? await makeDamagedPdf(kind, subject, options.damage) : await makeDocumentPdf(kind, subject);
  // A document named apart from its kind gets a file name of its own (the showcase loan has two deeds).
  const stem = (options.name ?? kind)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return {
    id,
    loanId,
    createdAt,
    name: options.name ?? DOCUMENT_TITLES[kind],
    type: kind,
    hash: pdf.hash,
    fileName: `${stem}-${subject.uli}.pdf`,
    fileType: 'pdf',
    contentType: 'application/pdf',
    docType: kind,
    sizeBytes: pdf.bytes.length,
    content: pdf.bytes,
  };
}

const LOAN_KEYS = [
  'id',
  'uli',
  'loanNumber',
  'loanType',
  'status',
  'tradeDate',
  'mortgageeOfRecord',
  'noteAmount',
  'noteDate',
  'noteLocation',
  'modification',
  'assumption',
  'borrowerFirstName',
  'borrowerLastName',
  'additionalParties',
  'dartAsOriginalMortgagee',
  'propertyStreet1',
  'propertyStreet2',
  'propertyCity',
  'propertyState',
  'propertyZip',
  'deactivated',
  'createdAt',
  'updatedAt',
] as const;
const PARTY_KEYS = ['id', 'loanId', 'role', 'state', 'participantId', 'name', 'provenanceId', 'updatedAt'] as const;
const EVENT_KEYS = [
  'id',
  'loanId',
  'participantId',
  'state',
  'eventType',
  'eventDescription',
  'effectiveDate',
  'requestedDate',
  'createdAt',
] as const;
const DOCUMENT_KEYS = [
  'id',
  'loanId',
  'name',
  'type',
  'hash',
  'fileName',
  'fileType',
  'contentType',
  'docType',
  'sizeBytes',
  'content',
  'createdAt',
] as const;

/** The COPY targets of the loan tables; FREEZE when the tables were truncated in this transaction. */
export function loanCopyTables(freeze: boolean) {
  return {
    loans: new CopyTable(schema.loans, LOAN_KEYS, { freeze }),
    parties: new CopyTable(schema.loanParties, PARTY_KEYS, { freeze }),
    events: new CopyTable(schema.loanEvents, EVENT_KEYS, { freeze }),
    poolLoans: new CopyTable(schema.poolLoans, ['poolId', 'loanId'], { freeze }),
    documents: new CopyTable(schema.documents, DOCUMENT_KEYS, { freeze }),
  };
}

type LoanCopyTables = ReturnType<typeof loanCopyTables>;

class LoanChunk {
  readonly loans: CopyBuffer<typeof schema.loans>;
  readonly parties: CopyBuffer<typeof schema.loanParties>;
  readonly events: CopyBuffer<typeof schema.loanEvents>;
  readonly poolLoans: CopyBuffer<typeof schema.poolLoans>;
  readonly documents: CopyBuffer<typeof schema.documents>;

  constructor(tables: LoanCopyTables) {
    this.loans = new CopyBuffer(tables.loans);
    this.parties = new CopyBuffer(tables.parties);
    this.events = new CopyBuffer(tables.events);
    this.poolLoans = new CopyBuffer(tables.poolLoans);
    this.documents = new CopyBuffer(tables.documents);
  }

  /** Referenced tables first, so the foreign keys hold when they are checked row by row. */
  async copy(client: pg.ClientBase): Promise<void> {
    for (const buffer of [this.loans, this.parties, this.events, this.poolLoans, this.documents]) await buffer.copy(client);
  }
}

/**
 * Generates loans [0, count) and loads them with COPY, LOAN_CHUNK at a time: while PostgreSQL
 * takes one chunk, the next is generated (yielding to the event loop every few hundred loans so
 * the COPY data keeps flowing). At most two chunks are held in memory.
 */
export async function copyLoans(
  client: pg.ClientBase,
  context: Context,
  count: number,
  options: { freeze: boolean; progress?: (loaded: number) => void },
): Promise<void> {
  const tables = loanCopyTables(options.freeze);
  let previous: Promise<void> | undefined;
  try {
    for (let start = 0; start < count; start += LOAN_CHUNK) {
      const end = Math.min(count, start + LOAN_CHUNK);
      const chunk = new LoanChunk(tables);
      for (let index = start; index < end; index++) {
        if (index % 250 === 0) await nextTurn();
        const bundle = buildLoan(index, context);
        const loanId = bundle.loan.id as string;
        chunk.loans.push(bundle.loan);
        for (const party of bundle.parties) chunk.parties.push(party);
        for (const event of bundle.events) chunk.events.push(event);
        if (bundle.poolId) chunk.poolLoans.push({ poolId: bundle.poolId, loanId });
        for (const document of bundle.documents) {
          chunk.documents.push(
            await documentRow(loanId, document.id, document.kind, bundle.subject as DocumentSubject, document.createdAt, document),
          );
        }
      }
      if (previous) await previous;
      previous = chunk.copy(client).then(() => options.progress?.(end));
      // A failed COPY is reported when awaited; until then it must not count as unhandled.
      previous.catch(() => undefined);
    }
    if (previous) await previous;
  } catch (error) {
    // Let a COPY still running end before the caller rolls back on this connection.
    await previous?.catch(() => undefined);
    throw error;
  }
}
