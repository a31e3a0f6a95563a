// The access hook (src/server/plugins/access.ts) on probe routes of each declared level: who is let
// through, who is refused and with which body, and the declarations that fail the start.
import { beforeAll, describe, expect, it } from 'vitest';
import { HttpError, isInvalidParticipant, isPermissionRefusal } from '../../src/contract/http-error';
import { PERMISSION_REFUSALS, type RouteAccess } from '../../src/domain/access';
import { TEXTS } from '../../src/domain/texts';
import { CALLERS, createRegistryWorld, type Caller, type RegistryWorld } from './support/registry-world';
import { useRouteTest } from './support/route-test';

let world: RegistryWorld;

const PROBE = '/service-dart/secure/api/v1/access-probe';
const LEVELS: readonly RouteAccess[] = ['public', 'session-if-any', 'signed-in', 'member', 'org-admin', 'registry-staff'];

const server = useRouteTest({
  beforeReady: (app) => {
    // Each probe answers what the hook left on the request: the organization it acts for, if any.
    for (const access of LEVELS) {
      // A public route under /secure/ would fail the start: the public probe lives outside it.
      const url = access === 'public' ? '/access-probe/public' : `${PROBE}/${access}`;
      app.get(url, { config: { access } }, async (request) => ({ acting: request.membership?.participant.id ?? null }));
    }
    app.get(`${PROBE}/users/:userId`, { config: { access: 'self-or-registry-staff' } }, async () => ({ ok: true }));
  },
});

beforeAll(async () => {
  world = await createRegistryWorld(server.db, server.app);
});

const call = (url: string, caller: Caller, participant?: string) =>
  server.caller(caller === 'anonymous' ? undefined : world.cookies[caller], participant).get(url);

const statusesOf = async (url: string, participant?: (caller: Caller) => string | undefined) =>
  Object.fromEntries(
    await Promise.all(CALLERS.map(async (caller) => [caller, (await call(url, caller, participant?.(caller))).statusCode])),
  );

const invalidParticipant = { statusCode: 403, error: 'Forbidden', message: TEXTS.invalidParticipantBody };
const refusedFor = (access: keyof typeof PERMISSION_REFUSALS) => ({
  statusCode: 403,
  error: 'Forbidden',
  message: PERMISSION_REFUSALS[access],
});

describe('route access', () => {
  it("'public' and 'session-if-any' let everyone through", async () => {
    const everyone = Object.fromEntries(CALLERS.map((caller) => [caller, 200]));
    expect(await statusesOf('/access-probe/public')).toEqual(everyone);
    expect(await statusesOf(`${PROBE}/session-if-any`)).toEqual(everyone);
  });

  it("'signed-in' refuses only a caller without a session (401), and acts for the named or default organization", async () => {
    expect(await statusesOf(`${PROBE}/signed-in`)).toEqual({
      anonymous: 401,
      unregistered: 200,
      memberA: 200,
      orgAdminA: 200,
      memberB: 200,
      dartAdmin: 200,
      dartOps: 200,
    });
    expect((await call(`${PROBE}/signed-in`, 'memberA')).json()).toEqual({ acting: world.organizations.a });
    const foreign = await call(`${PROBE}/signed-in`, 'memberA', world.organizations.b);
    expect(foreign.json()).toEqual(invalidParticipant);
  });

  it("'member' lets an organization's members through for it, and refuses others with 'Invalid participant'", async () => {
    const inA = await statusesOf(`${PROBE}/member`, () => world.organizations.a);
    expect(inA).toEqual({ anonymous: 401, unregistered: 403, memberA: 200, orgAdminA: 200, memberB: 403, dartAdmin: 403, dartOps: 403 });
    const refused = await call(`${PROBE}/member`, 'memberB', world.organizations.a);
    expect(refused.json()).toEqual(invalidParticipant);
    expect((await call(`${PROBE}/member`, 'memberB')).json()).toEqual({ acting: world.organizations.b });
  });

  it("'org-admin' needs ORG_ADMIN on the organization acted for, and says so apart from 'Invalid participant'", async () => {
    const inA = await statusesOf(`${PROBE}/org-admin`, () => world.organizations.a);
    expect(inA).toEqual({ anonymous: 401, unregistered: 403, memberA: 403, orgAdminA: 200, memberB: 403, dartAdmin: 403, dartOps: 403 });
    expect((await call(`${PROBE}/org-admin`, 'memberA', world.organizations.a)).json()).toEqual(refusedFor('org-admin'));
    // memberB is ORG_ADMIN of B, not of A: the organization is refused first.
    expect((await call(`${PROBE}/org-admin`, 'memberB', world.organizations.a)).json()).toEqual(invalidParticipant);
    expect((await call(`${PROBE}/org-admin`, 'memberB')).json()).toEqual({ acting: world.organizations.b });
  });

  it("'registry-staff' lets ROLE_DART_ADMIN and ROLE_DART_OPS through, whatever the header", async () => {
    expect(await statusesOf(`${PROBE}/registry-staff`, () => world.organizations.dormant)).toEqual({
      anonymous: 401,
      unregistered: 403,
      memberA: 403,
      orgAdminA: 403,
      memberB: 403,
      dartAdmin: 200,
      dartOps: 200,
    });
    expect((await call(`${PROBE}/registry-staff`, 'orgAdminA')).json()).toEqual(refusedFor('registry-staff'));
  });

  it("'self-or-registry-staff' lets the named user and registry staff through", async () => {
    const url = `${PROBE}/users/${world.userIds.memberA.toUpperCase()}`;
    expect(await statusesOf(url)).toEqual({
      anonymous: 401,
      unregistered: 404,
      memberA: 200,
      orgAdminA: 403,
      memberB: 403,
      dartAdmin: 200,
      dartOps: 200,
    });
    expect((await call(url, 'orgAdminA')).json()).toEqual(refusedFor('self-or-registry-staff'));
  });

  it('a missing role is told apart from an invalid participant by the body (src/contract/http-error.ts)', async () => {
    const missingRole = await call(`${PROBE}/registry-staff`, 'memberA');
    const wrongOrganization = await call(`${PROBE}/member`, 'memberA', world.organizations.b);
    expect([missingRole.statusCode, wrongOrganization.statusCode]).toEqual([403, 403]);
    const asClientError = (response: typeof missingRole) => new HttpError(response.statusCode, response.body);
    expect(isPermissionRefusal(asClientError(missingRole))).toBe(true);
    expect(isPermissionRefusal(asClientError(wrongOrganization))).toBe(false);
    expect(isInvalidParticipant(asClientError(wrongOrganization))).toBe(true);
  });
});

describe('route access declarations', () => {
  const startWith = async (url: string, config?: { access: RouteAccess }) => {
    try {
      const probeApp = await server.otherApp({
        beforeReady: (app) => void app.get(url, config ? { config } : {}, async () => ({ ok: true })),
      });
      await probeApp.close();
      return 'started';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('a route without an access declaration fails the start', async () => {
    expect(await startWith(`${PROBE}/undeclared`)).toMatch(
      /GET \/service-dart\/secure\/api\/v1\/access-probe\/undeclared declares no access/,
    );
  });

  it("a /secure/ route declared 'public', or a member route outside the product calls, fails the start", async () => {
    expect(await startWith(`${PROBE}/open`, { access: 'public' })).toMatch(/declared 'public'/);
    expect(await startWith('/identity-broker/agent/secure/probe', { access: 'member' })).toMatch(/not a product call/);
  });
});
