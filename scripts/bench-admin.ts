// The administration scenarios of `npm run bench` (issue 25's goals), on a registry seeded at
// scale (`--organizations 3000 --users 200000`, src/server/seed/scale.ts): the organization list's
// first page and the user suggestions of the 'Add existing user' form (registry staff), the users
// page of the organization with the most members (its ORG_ADMIN), each at the run's concurrency;
// and the creation of a user (membership, invitation and audit row in one transaction), one at a
// time, as an administrator's clicks come. They run when the bench is given the scale options or
// `--only admin`.
//
// The creations leave a kept data folder as it was: their people (emails bench.invitee.*@
// bench.example) are removed afterwards with what hangs on them, also those an interrupted run left.
import pg from 'pg';
import { PATHS } from '../src/contract/paths';
import { PARTICIPANT_HEADER } from '../src/domain/constants';
import { httpScenario, type HttpRequestSpec, type HttpScenarioSpec } from './bench-load';

export const ADMIN_SCENARIOS = {
  organizationList: 'admin: organization list first page',
  userSuggestions: 'admin: user suggestions (3-character prefix)',
  organizationUsers: "admin: an organization's users first page",
  createUser: 'admin: create user (membership, invitation, audit)',
} as const;

/** The goals' scale: below it the goals are skipped, not failed. */
export const ADMIN_SCALE = { organizations: 3_000, users: 200_000 } as const;
/** SPEC's first page size. */
const PAGE_SIZE = 10;
/** Prefixes the suggestion scenario cycles through. */
const PREFIXES = 8;
const INVITEE_DOMAIN = 'bench.example';
const INVITEE_PREFIX = 'bench.invitee.';
const DEMO_ADMIN = 'admin@registry.test';

export interface AdminBenchData {
  readonly organizations: number;
  readonly users: number;
  /** The active organization with the most members, and one of its ORG_ADMINs. */
  readonly organization: { readonly id: string; readonly name: string; readonly users: number };
  readonly organizationAdmin: string;
  /** A registry staff account for the organization list and the suggestions. */
  readonly staff: string;
  /** Three-letter prefixes as people type them: starts of last names found in the registry. */
  readonly prefixes: readonly string[];
}

export async function adminBenchData(connectionString: string): Promise<AdminBenchData | undefined> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const counts = (
      await client.query<{ organizations: number; users: number }>(
        'SELECT (SELECT count(*)::int FROM participants) AS organizations, (SELECT count(*)::int FROM users) AS users',
      )
    ).rows[0];
    const largest = (
      await client.query<{ id: string; name: string; users: number; admin: string }>(
        `SELECT p.id, p.name, m.users,
                (SELECT u.email FROM memberships a JOIN users u ON u.id = a.user_id JOIN identities i ON i.id = u.identity_id
                  WHERE a.participant_id = p.id AND 'ORG_ADMIN' = ANY (a.roles) ORDER BY u.email LIMIT 1) AS admin
           FROM participants p
           JOIN (SELECT participant_id, count(*)::int AS users FROM memberships GROUP BY participant_id) m ON m.participant_id = p.id
          WHERE p.is_active
          ORDER BY m.users DESC, p.id LIMIT 1`,
      )
    ).rows[0];
    if (!counts || !largest?.admin) return undefined;
    const prefixes = (
      await client.query<{ prefix: string }>(
        `SELECT DISTINCT lower(left(last_name, 3)) AS prefix FROM users
          WHERE length(last_name) >= 3 AND last_name ~ '^[A-Za-z]{3}' ORDER BY 1`,
      )
    ).rows.map((row) => row.prefix);
    // Spread over the alphabet: common and rare starts alike.
    const step = Math.max(1, Math.floor(prefixes.length / PREFIXES));
    return {
      organizations: counts.organizations,
      users: counts.users,
      organization: { id: largest.id, name: largest.name, users: largest.users },
      organizationAdmin: largest.admin,
      staff: DEMO_ADMIN,
      prefixes: prefixes.filter((_, index) => index % step === 0).slice(0, PREFIXES),
    };
  } finally {
    await client.end();
  }
}

/** The three reads: staff's cookie for the registry-wide ones, the organization admin's for its users page. */
export function adminReadScenarios(baseUrl: string, cookies: { staff: string; organizationAdmin: string }, data: AdminBenchData) {
  const staff = { cookie: cookies.staff };
  const query = (values: Record<string, string | number>) => new URLSearchParams(Object.entries(values).map(([k, v]) => [k, String(v)]));
  const suggestions: HttpScenarioSpec = {
    kind: 'http',
    name: ADMIN_SCENARIOS.userSuggestions,
    groups: data.prefixes.map((prefix): HttpRequestSpec[] => [
      {
        method: 'GET',
        url: `${baseUrl}${PATHS.userSuggestions}?${query({ query: prefix })}`,
        headers: staff,
        expectStatus: 200,
      },
    ]),
  };
  return [
    httpScenario(ADMIN_SCENARIOS.organizationList, {
      method: 'GET',
      url: `${baseUrl}${PATHS.participants}?${query({ limit: PAGE_SIZE, offset: 0 })}`,
      headers: staff,
      expectStatus: 200,
    }),
    suggestions,
    httpScenario(ADMIN_SCENARIOS.organizationUsers, {
      method: 'GET',
      url: `${baseUrl}${PATHS.participantUsers(data.organization.id)}?${query({ limit: PAGE_SIZE, offset: 0 })}`,
      headers: { cookie: cookies.organizationAdmin, [PARTICIPANT_HEADER]: data.organization.id },
      expectStatus: 200,
    }),
  ];
}

/**
 * Creations of new people in the measured organization, each with an email of its own (a second
 * one would be 409): `count` requests numbered from `first`, as one scenario whose groups the load
 * generator takes in turn (cap its requests at `count`).
 */
export function createUserScenario(
  name: string,
  baseUrl: string,
  cookie: string,
  data: AdminBenchData,
  first: number,
  count: number,
  expectStatus: number,
): HttpScenarioSpec {
  const run = Date.now().toString(36);
  return {
    kind: 'http',
    name,
    groups: Array.from({ length: count }, (_, index): HttpRequestSpec[] => [
      {
        method: 'POST',
        url: baseUrl + PATHS.participantUsers(data.organization.id),
        headers: {
          cookie,
          [PARTICIPANT_HEADER]: data.organization.id,
          origin: new URL(baseUrl).origin,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          firstName: 'Bench',
          lastName: `Invitee ${first + index}`,
          email: `${INVITEE_PREFIX}${run}.${first + index}@${INVITEE_DOMAIN}`,
          roles: ['DART_AGENT'],
        }),
        expectStatus,
      },
    ]),
  };
}

/** One creation first: the route must answer 2xx; its status is what the scenario expects. */
export async function probeCreateUser(spec: HttpScenarioSpec): Promise<{ status: number; body: string }> {
  const request = spec.groups[0]?.[0];
  if (!request) throw new Error('no request to probe');
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.text() };
}

/** Removes the people the creations made, and what hangs on them (memberships, invitations, mail, audit rows). */
export async function removeInvitees(connectionString: string): Promise<number> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const pattern = `${INVITEE_PREFIX}%@${INVITEE_DOMAIN}`;
  try {
    await client.query('BEGIN');
    const ids = (await client.query<{ id: string }>('SELECT id FROM users WHERE email LIKE $1', [pattern])).rows.map((row) => row.id);
    await client.query('DELETE FROM outbox WHERE recipient LIKE $1', [pattern]);
    // The audit log is append-only for the server's role; the owner tidies the bench's rows.
    await client.query(`DELETE FROM audit_log WHERE target_id = ANY ($1::text[]) OR after::text LIKE $2 OR before::text LIKE $2`, [
      ids,
      `%${INVITEE_PREFIX}%@${INVITEE_DOMAIN}%`,
    ]);
    await client.query('DELETE FROM users WHERE id = ANY ($1::uuid[])', [ids]);
    await client.query('DELETE FROM identities WHERE email LIKE $1', [pattern]);
    await client.query('COMMIT');
    return ids.length;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
