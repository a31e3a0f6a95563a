// The administration's writes of an organization (SPEC sections 4, 5 and 7): create (the id given
// by the client), edit (the id read-only), deactivate and reactivate. Each is one transaction that
// also appends its audit row, with the values before and after.
import type { OrganizationFields } from '../../contract/organizations';
import { ORGANIZATION_TEXTS } from '../../domain/administration-texts';
import { type AuditActor, appendAudit } from '../db/audit-repository';
import type { Database } from '../db/database';
import * as repository from '../db/organization-repository';
import type { OrganizationValues } from '../db/organization-repository';
import type { ParticipantRow } from '../db/user-repository';
import { postgresErrorCode, writeTransaction } from '../db/write-transaction';
import { ConflictError, NotFoundError } from '../domain-errors';
import { toParticipant } from '../mappers';

const UNIQUE_VIOLATION = '23505';

const valuesOf = (fields: OrganizationFields): OrganizationValues => ({
  name: fields.participantName,
  organizationName: fields.organizationName,
  code: fields.code,
  email: fields.email,
  phoneNumber: fields.phoneNumber,
  street: fields.address.street,
  street2: fields.address.street2 ?? null,
  city: fields.address.city,
  state: fields.address.state,
  zip: fields.address.zip,
  grantedLimitedPowerOfAttorney: fields.grantedLimitedPowerOfAttorney,
});

/** The audit log's picture of an organization: what the administration shows of it. */
const audited = (row: ParticipantRow) => toParticipant(row);

/** A unique violation that slipped past the checks (two writers at once): the same 409 the check gives. */
function conflictOf(error: unknown): never {
  if (postgresErrorCode(error) === UNIQUE_VIOLATION) {
    const constraint =
      (error as { constraint?: string; cause?: { constraint?: string } }).constraint ??
      (error as { cause?: { constraint?: string } }).cause?.constraint;
    throw new ConflictError(constraint === 'participants_pkey' ? ORGANIZATION_TEXTS.idTaken : ORGANIZATION_TEXTS.codeTaken);
  }
  throw error;
}

export async function createOrganization(db: Database, actor: AuditActor, id: string, fields: OrganizationFields): Promise<ParticipantRow> {
  return writeTransaction(db, async (tx) => {
    if (await repository.findOrganization(tx, id)) throw new ConflictError(ORGANIZATION_TEXTS.idTaken);
    if (await repository.findCodeHolder(tx, fields.code, null)) throw new ConflictError(ORGANIZATION_TEXTS.codeTaken);
    const row = await repository.insertOrganization(tx, id, valuesOf(fields));
    await appendAudit(tx, actor, {
      participantId: row.id,
      action: 'organization.created',
      targetType: 'organization',
      targetId: row.id,
      before: null,
      after: audited(row),
    });
    return row;
  }).catch(conflictOf);
}

export async function updateOrganization(db: Database, actor: AuditActor, id: string, fields: OrganizationFields): Promise<ParticipantRow> {
  return writeTransaction(db, async (tx) => {
    const before = await repository.lockOrganization(tx, id);
    if (!before) throw new NotFoundError(ORGANIZATION_TEXTS.notFound);
    if (await repository.findCodeHolder(tx, fields.code, id)) throw new ConflictError(ORGANIZATION_TEXTS.codeTaken);
    const row = await repository.updateOrganization(tx, id, valuesOf(fields));
    await appendAudit(tx, actor, {
      participantId: id,
      action: 'organization.updated',
      targetType: 'organization',
      targetId: id,
      before: audited(before),
      after: audited(row),
    });
    return row;
  }).catch(conflictOf);
}

/**
 * isActive false deactivates (the organization stays on its loans and in history; its members'
 * sessions on it answer 'Invalid participant', the access hook reading only active ones); true
 * reactivates. Setting the state it already has is a 409 that says so.
 */
export async function setOrganizationActive(db: Database, actor: AuditActor, id: string, isActive: boolean): Promise<ParticipantRow> {
  return writeTransaction(db, async (tx) => {
    const before = await repository.lockOrganization(tx, id);
    if (!before) throw new NotFoundError(ORGANIZATION_TEXTS.notFound);
    if (before.isActive === isActive)
      throw new ConflictError(isActive ? ORGANIZATION_TEXTS.alreadyActive : ORGANIZATION_TEXTS.alreadyInactive);
    const row = await repository.setOrganizationActive(tx, id, isActive);
    await appendAudit(tx, actor, {
      participantId: id,
      action: isActive ? 'organization.reactivated' : 'organization.deactivated',
      targetType: 'organization',
      targetId: id,
      before: { isActive: before.isActive },
      after: { isActive: row.isActive },
    });
    return row;
  });
}
