// Builds the app over a test database and inserts the rows the server tests need.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildAppOptions } from '../../../src/server/app';
import type { Database } from '../../../src/server/db/database';
import { identities, memberships, participantContacts, participants, users } from '../../../src/server/db/schema';
import { hashPassword } from '../../../src/server/identity/passwords';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE } from '../../../src/server/identity/sessions';
import { PATHS } from '../../../src/contract/paths';

export const PASSWORD = 'correct horse battery staple';
// A cheap scrypt cost keeps the suite fast; verification reads the cost from the hash, and the
// test apps rehash nothing at sign-in (their target cost is this one too).
export const TEST_SCRYPT = { N: 1024, r: 8, p: 1 };

/** The config of createTestApp's apps, for a test that changes one setting. */
export const TEST_CONFIG: BuildAppOptions['config'] = {
  nodeEnv: 'test',
  cookieSecure: false,
  trustProxy: false,
  logLevel: 'silent',
  staticDir: '/nonexistent-registry-dist',
  // The servicer lookup's floor and proof of work, cheap: its own tests set what they measure.
  servicerLookup: { timeFloorMs: 0, challengeCost: 1, challengeMaxCounter: 20, clientLimit: 100_000, nameZipLimit: 100_000 },
};

export async function createTestApp(db: Database, overrides: Partial<BuildAppOptions> = {}): Promise<FastifyInstance> {
  return buildApp({
    db,
    config: TEST_CONFIG,
    logger: false,
    signInRateLimit: 1000,
    passwordHashParams: TEST_SCRYPT,
    ...overrides,
  });
}

/**
 * The Origin header a browser sends with a write from the app's own pages. app.inject's requests
 * go to Host localhost:80 over http; the server refuses a POST, PUT, PATCH or DELETE without a
 * same-origin Origin or Referer (plugins/security.ts). Spread it into every write's headers.
 */
export const sameOrigin: Readonly<Record<'origin', string>> = Object.freeze({ origin: 'http://localhost:80' });

let codeCounter = 0;
function nextCode(): string {
  codeCounter += 1;
  return `T${codeCounter.toString(36).toUpperCase().padStart(2, '0')}`.slice(-3);
}

export async function insertParticipant(db: Database, values: { name: string; isActive?: boolean }) {
  const [row] = await db
    .insert(participants)
    .values({
      name: values.name,
      organizationName: `${values.name} LLC`,
      code: nextCode(),
      email: `contact@${values.name.toLowerCase().replace(/[^a-z]/g, '')}.test`,
      phoneNumber: '4155550100',
      street: '1 Main Street',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      url: 'https://example.test',
      isActive: values.isActive ?? true,
    })
    .returning();
  if (!row) throw new Error('participant not inserted');
  await db
    .insert(participantContacts)
    .values({ participantId: row.id, type: 'LEGAL', name: 'Lee Gal', email: 'legal@example.test', phoneNumber: '4155550101' });
  return row;
}

export async function insertIdentity(db: Database, values: { email: string; name?: string; roles?: Record<string, string[]> }) {
  const [row] = await db
    .insert(identities)
    .values({
      email: values.email,
      name: values.name ?? values.email.split('@')[0] ?? 'someone',
      passwordHash: await hashPassword(PASSWORD, TEST_SCRYPT),
      roles: values.roles ?? {},
    })
    .returning();
  if (!row) throw new Error('identity not inserted');
  return row;
}

export async function insertUser(
  db: Database,
  values: {
    email: string;
    roles?: Record<string, string[]>;
    memberships: { participantId: string; isDefault?: boolean; roles?: string[] }[];
  },
) {
  const identity = await insertIdentity(db, values);
  const [user] = await db
    .insert(users)
    .values({ identityId: identity.id, email: values.email, firstName: 'Pat', middleName: null, lastName: 'Example' })
    .returning();
  if (!user) throw new Error('user not inserted');
  for (const membership of values.memberships) {
    await db.insert(memberships).values({
      userId: user.id,
      participantId: membership.participantId,
      isDefault: membership.isDefault ?? false,
      roles: membership.roles ?? ['ORG_ADMIN'],
    });
  }
  return { identity, user };
}

/** Signs in through the form; returns the response and the `name=value` cookie pair. */
export async function signIn(app: FastifyInstance, email: string, options: { password?: string; returnTo?: string; cookie?: string } = {}) {
  const form = new URLSearchParams({ email, password: options.password ?? PASSWORD });
  if (options.returnTo !== undefined) form.set('returnTo', options.returnTo);
  const response = await app.inject({
    method: 'POST',
    url: PATHS.signIn,
    headers: { ...sameOrigin, 'content-type': 'application/x-www-form-urlencoded', ...(options.cookie ? { cookie: options.cookie } : {}) },
    payload: form.toString(),
  });
  return { response, cookie: sessionCookieOf(response) };
}

/** The session cookie pair the response sets, under either name (`__Host-` when cookieSecure). */
export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const cookie = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE || candidate.name === SECURE_SESSION_COOKIE);
  return cookie && cookie.value ? `${cookie.name}=${cookie.value}` : undefined;
}
