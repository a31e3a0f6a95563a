// The banners: the banner file's headers (never cached), its content from PostgreSQL (newest
// first), the test file off production only, BANNERS_URL read instead of the database; registry
// staff's writes (each with its audit row, updatedAt kept by the server) and their validation;
// everyone else refused.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerListSchema, bannerSchema, servedBannerFileSchema, type BannerInput } from '../../src/contract/banners';
import { BANNER_FILE_PATHS, PATHS } from '../../src/contract/paths';
import { PERMISSION_REFUSALS } from '../../src/domain/access';
import { BANNER_TEXTS } from '../../src/domain/banners';
import { REMOTE_BANNER_FILE_FAILED } from '../../src/server/routes/banners';
import { auditLog } from '../../src/server/db/schema';
import { insertParticipant, insertUser, TEST_CONFIG } from './support/server-fixtures';
import { useRouteTest, type SignedInCaller } from './support/route-test';

const server = useRouteTest();
let staff: SignedInCaller;
let ops: SignedInCaller;
let orgAdmin: SignedInCaller;

const input = (overrides: Partial<BannerInput> = {}): BannerInput => ({
  message: 'The registry is read-only on Saturday from 8 to 10 pm ET.',
  apps: ['registry'],
  variant: 'info',
  active: true,
  dismissable: true,
  ...overrides,
});

beforeAll(async () => {
  const home = await insertParticipant(server.db, { name: 'Home Lending' });
  await insertUser(server.db, { email: 'admin@banners.test', roles: { 'service-dart': ['ROLE_DART_ADMIN'] }, memberships: [] });
  await insertUser(server.db, { email: 'ops@banners.test', roles: { 'service-dart': ['ROLE_DART_OPS'] }, memberships: [] });
  await insertUser(server.db, {
    email: 'org-admin@banners.test',
    memberships: [{ participantId: home.id, isDefault: true, roles: ['ORG_ADMIN'] }],
  });
  staff = await server.signIn('admin@banners.test');
  ops = await server.signIn('ops@banners.test');
  orgAdmin = await server.signIn('org-admin@banners.test', { participantId: home.id });
});

describe('the banner file', () => {
  it('is never cached, is JSON and lists the banners newest first', async () => {
    const first = bannerSchema.parse((await staff.post(PATHS.banners, input({ message: 'First' }))).json());
    const second = bannerSchema.parse(
      (await ops.post(PATHS.banners, input({ message: 'Second', variant: 'warn', apps: ['csp', 'registry'] }))).json(),
    );
    const response = await server.anonymous.get(BANNER_FILE_PATHS.production);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers['cache-control']).toBe('no-store, no-cache, must-revalidate, max-age=0');
    expect(response.headers.pragma).toBe('no-cache');
    expect(response.headers.expires).toBe('0');
    const file = servedBannerFileSchema.parse(response.json());
    const ids = file.map((banner) => banner.uuid);
    expect(ids.indexOf(second.uuid)).toBeLessThan(ids.indexOf(first.uuid));
    expect(file.find((banner) => banner.uuid === second.uuid)).toEqual(second);
  });

  it('has a test file off production, with the same headers', async () => {
    const response = await server.anonymous.get(BANNER_FILE_PATHS.test);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    expect(servedBannerFileSchema.parse(response.json()).length).toBeGreaterThan(0);
  });

  it('has no test file in production', async () => {
    const production = await server.otherApp({ app: { config: { ...TEST_CONFIG, nodeEnv: 'production' } } });
    expect((await production.anonymous.get(BANNER_FILE_PATHS.test)).statusCode).toBe(404);
    expect((await production.anonymous.get(BANNER_FILE_PATHS.production)).statusCode).toBe(200);
  });
});

describe('BANNERS_URL', () => {
  let remote: Server;
  let base: string;
  const served: Record<string, { status: number; body: string }> = {};

  beforeAll(async () => {
    remote = createServer((request, response) => {
      const file = served[request.url ?? ''];
      response.writeHead(file?.status ?? 404, { 'content-type': 'application/json' });
      response.end(file?.body ?? '{}');
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/storage/banners`;
  });
  afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));

  it('serves the remote files unchanged, invalid banners included (the app checks each)', async () => {
    const production = [{ uuid: 'not-a-uuid', message: 'Remote', apps: [], variant: 'info' }];
    const test = [
      { uuid: '8a6e0f64-1d2c-4e8b-9a57-0c3f1b2d4e5f', message: 'Remote test', apps: ['registry'], variant: 'warn', active: true },
    ];
    served['/storage/banners/banners.json'] = { status: 200, body: JSON.stringify(production) };
    served['/storage/banners/banners.test.json'] = { status: 200, body: JSON.stringify(test) };
    const other = await server.otherApp({ app: { config: { ...TEST_CONFIG, bannersUrl: base } } });
    const response = await other.anonymous.get(BANNER_FILE_PATHS.production);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    expect(response.json()).toEqual(production);
    expect((await other.anonymous.get(BANNER_FILE_PATHS.test)).json()).toEqual(test);
  });

  it('answers 502 when the remote file is missing or not a list', async () => {
    const other = await server.otherApp({ app: { config: { ...TEST_CONFIG, bannersUrl: `${base}/elsewhere/` } } });
    const missing = await other.anonymous.get(BANNER_FILE_PATHS.production);
    expect(missing.statusCode).toBe(502);
    expect(missing.json().message).toBe(REMOTE_BANNER_FILE_FAILED);
    served['/storage/banners/elsewhere/banners.json'] = { status: 200, body: '{"banners": []}' };
    expect((await other.anonymous.get(BANNER_FILE_PATHS.production)).statusCode).toBe(502);
  });
});

describe('registry staff write banners', () => {
  it('creates with the server’s uuid and dates, and records it in the audit log', async () => {
    const response = await staff.post(PATHS.banners, input({ dismissable: false }));
    expect(response.statusCode).toBe(201);
    const banner = bannerSchema.parse(response.json());
    expect(banner).toMatchObject({ ...input({ dismissable: false }) });
    expect(banner.metadata.createdAt).toBe(banner.metadata.updatedAt);
    const rows = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'banner'), eq(auditLog.targetId, banner.uuid)));
    expect(rows.map((row) => row.action)).toEqual(['banner.created']);
    expect(rows[0]?.actorEmail).toBe('admin@banners.test');
  });

  it('edits: updatedAt moves on, createdAt stays, the audit row holds before and after', async () => {
    const created = bannerSchema.parse((await staff.post(PATHS.banners, input())).json());
    const response = await ops.put(PATHS.banner(created.uuid), input({ message: 'Edited', variant: 'warn', active: false }));
    expect(response.statusCode).toBe(200);
    const edited = bannerSchema.parse(response.json());
    expect(edited).toMatchObject({ uuid: created.uuid, message: 'Edited', variant: 'warn', active: false });
    expect(edited.metadata.createdAt).toBe(created.metadata.createdAt);
    expect(Date.parse(edited.metadata.updatedAt)).toBeGreaterThan(Date.parse(created.metadata.updatedAt));
    const [row] = await server.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'banner.updated'), eq(auditLog.targetId, created.uuid)));
    expect(row?.before).toMatchObject({ message: created.message });
    expect(row?.after).toMatchObject({ message: 'Edited' });
    const list = bannerListSchema.parse((await staff.get(PATHS.banners)).json());
    expect(list.banners.find((banner) => banner.uuid === created.uuid)).toEqual(edited);
  });

  it('refuses an unknown banner with 404', async () => {
    const response = await staff.put(PATHS.banner('3f0e5a1c-2b4d-4c6e-8f10-9a8b7c6d5e4f'), input());
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(BANNER_TEXTS.notFound);
  });

  it.each([
    ['an empty message', { message: '   ' }, BANNER_TEXTS.required],
    ['no application', { apps: [] }, BANNER_TEXTS.appsRequired],
    ['an unknown application', { apps: ['elsewhere'] }, 'apps'],
    ['another variant', { variant: 'error' }, 'variant'],
    ['a message too long', { message: 'x'.repeat(501) }, BANNER_TEXTS.messageTooLong],
  ])('refuses %s with 400 naming it', async (_name, overrides, text) => {
    const response = await staff.post(PATHS.banners, { ...input(), ...overrides });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(text);
  });

  it('refuses the server’s own fields in the body', async () => {
    const response = await staff.post(PATHS.banners, { ...input(), uuid: '8a6e0f64-1d2c-4e8b-9a57-0c3f1b2d4e5f' });
    expect(response.statusCode).toBe(400);
  });

  it('refuses everyone else: an organization administrator 403, no session 401', async () => {
    const refused = await orgAdmin.post(PATHS.banners, input());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(PERMISSION_REFUSALS['registry-staff']);
    expect((await orgAdmin.get(PATHS.banners)).statusCode).toBe(403);
    expect((await server.anonymous.get(PATHS.banners)).statusCode).toBe(401);
    expect((await server.anonymous.post(PATHS.banners, input())).statusCode).toBe(401);
  });
});
