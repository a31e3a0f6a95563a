// Organizations (participants) for the administration: the paged, sorted, searched list in SQL,
// one organization, its writes (inside a service's transaction) and who may see it. The search
// matches participants_search_idx's expression exactly (a GIN trigram index: ILIKE '%q%' uses it);
// the name order is participants_name_order_idx (lower(name), id). Nothing here loads the table.
import { and, eq, sql } from 'drizzle-orm';
import type { OrganizationsQuery } from '../../contract/organizations';
import type { Database, Transaction } from './database';
import { pageSql } from './paging';
import { poolOf } from './pg-pool';
import { participants } from './schema';
import type { ParticipantRow } from './user-repository';

/** The indexed search expression of participants_search_idx (schema.ts), to the letter. */
const SEARCH_EXPRESSION = "lower(name || ' ' || organization_name || ' ' || code || ' ' || email)";

const SORT_COLUMNS = { name: 'lower(name)', code: 'code', createdAt: 'created_at' } as const;

/** `%q%` with LIKE's own characters taken literally. */
export const containsPattern = (query: string): string => `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface ParticipantSqlRow {
  id: string;
  name: string;
  organization_name: string;
  code: string;
  email: string;
  phone_number: string;
  street: string;
  street2: string | null;
  city: string;
  state: string;
  zip: string;
  url: string | null;
  granted_limited_power_of_attorney: boolean;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

const toRow = (row: ParticipantSqlRow): ParticipantRow => ({
  id: row.id,
  name: row.name,
  organizationName: row.organization_name,
  code: row.code,
  email: row.email,
  phoneNumber: row.phone_number,
  street: row.street,
  street2: row.street2,
  city: row.city,
  state: row.state,
  zip: row.zip,
  url: row.url,
  grantedLimitedPowerOfAttorney: row.granted_limited_power_of_attorney,
  isActive: row.is_active,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export type OrganizationListRequest = Omit<OrganizationsQuery, 'query'> & { readonly query?: string | undefined };

/** The WHERE clause and its values of a list request ($1, $2, ...). */
export function organizationFilterSql(request: Pick<OrganizationListRequest, 'query' | 'status'>): {
  readonly sql: string;
  readonly values: readonly unknown[];
} {
  const conditions: string[] = [];
  const values: unknown[] = [];
  if (request.query) {
    values.push(containsPattern(request.query));
    conditions.push(`${SEARCH_EXPRESSION} ILIKE $${values.length}`);
  }
  if (request.status !== 'all') conditions.push(`is_active = ${request.status === 'active' ? 'true' : 'false'}`);
  return { sql: conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '', values };
}

/** One page of organizations and how many match in all. */
export async function listOrganizations(
  db: Database,
  request: OrganizationListRequest,
): Promise<{ readonly rows: ParticipantRow[]; readonly totalCount: number }> {
  const filter = organizationFilterSql(request);
  const page = pageSql(
    { columns: SORT_COLUMNS, sort: { column: request.sort, direction: request.direction }, tieBreaker: 'id' },
    request,
    filter.values.length + 1,
  );
  const pool = poolOf(db);
  const [list, total] = await Promise.all([
    pool.query<ParticipantSqlRow>(`SELECT * FROM participants ${filter.sql} ${page.sql}`, [...filter.values, ...page.values]),
    pool.query<{ total: number }>(`SELECT count(*)::int AS total FROM participants ${filter.sql}`, [...filter.values]),
  ]);
  return { rows: list.rows.map(toRow), totalCount: total.rows[0]?.total ?? 0 };
}

export async function findOrganization(db: Database | Transaction, participantId: string): Promise<ParticipantRow | undefined> {
  const [row] = await db.select().from(participants).where(eq(participants.id, participantId)).limit(1);
  return row;
}

/** The organization locked for a write (FOR UPDATE), or undefined. */
export async function lockOrganization(tx: Transaction, participantId: string): Promise<ParticipantRow | undefined> {
  const [row] = await tx.select().from(participants).where(eq(participants.id, participantId)).for('update').limit(1);
  return row;
}

/** Another organization holding `code` (any case), if any. */
export async function findCodeHolder(tx: Database | Transaction, code: string, exceptId: string | null): Promise<string | undefined> {
  const [row] = await tx
    .select({ id: participants.id })
    .from(participants)
    .where(exceptId ? and(eq(participants.code, code), sql`${participants.id} <> ${exceptId}`) : eq(participants.code, code))
    .limit(1);
  return row?.id;
}

export type OrganizationValues = Pick<
  ParticipantRow,
  | 'name'
  | 'organizationName'
  | 'code'
  | 'email'
  | 'phoneNumber'
  | 'street'
  | 'street2'
  | 'city'
  | 'state'
  | 'zip'
  | 'grantedLimitedPowerOfAttorney'
>;

export async function insertOrganization(tx: Transaction, id: string, values: OrganizationValues): Promise<ParticipantRow> {
  const [row] = await tx
    .insert(participants)
    .values({ id, ...values })
    .returning();
  if (!row) throw new Error('organization not inserted');
  return row;
}

export async function updateOrganization(tx: Transaction, id: string, values: OrganizationValues): Promise<ParticipantRow> {
  const [row] = await tx
    .update(participants)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(participants.id, id))
    .returning();
  if (!row) throw new Error('organization not updated');
  return row;
}

export async function setOrganizationActive(tx: Transaction, id: string, isActive: boolean): Promise<ParticipantRow> {
  const [row] = await tx.update(participants).set({ isActive, updatedAt: new Date() }).where(eq(participants.id, id)).returning();
  if (!row) throw new Error('organization not updated');
  return row;
}

/**
 * May the user see the organization: a member of it, or a member of an organization in a
 * relationship with it (either side: the partner view). Only active organizations of the user count.
 */
export async function mayViewOrganization(db: Database, userId: string, participantId: string): Promise<boolean> {
  const { rows } = await poolOf(db).query<{ allowed: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM memberships m JOIN participants p ON p.id = m.participant_id AND p.is_active
       WHERE m.user_id = $1 AND (
         m.participant_id = $2
         OR EXISTS (SELECT 1 FROM relationships r
                    WHERE (r.participant_id = m.participant_id AND r.partner_participant_id = $2)
                       OR (r.partner_participant_id = m.participant_id AND r.participant_id = $2))
       )
     ) AS allowed`,
    [userId, participantId],
  );
  return rows[0]?.allowed ?? false;
}
