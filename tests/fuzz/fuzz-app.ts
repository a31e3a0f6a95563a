// The app the fuzzer runs against: the real server (its route table collected as it is built) over
// a migrated database, with a built web app's index.html and the matrix's small registry, and the
// member of organization A whose requests the fuzzer sends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/server/db/database';
import { createRegistryWorld, EMAILS, type RegistryWorld } from '../server/support/registry-world';
import { createTestApp } from '../server/support/server-fixtures';
import type { FuzzTarget } from './route-fuzz';
import { routeTable, type RegisteredRoute } from './route-table';

export interface FuzzApp {
  readonly app: FastifyInstance;
  readonly routes: readonly RegisteredRoute[];
  readonly world: RegistryWorld;
  readonly target: FuzzTarget;
  close(): Promise<void>;
}

export async function startFuzzApp(db: Database): Promise<FuzzApp> {
  const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-fuzz-static-'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Loan Registry</title>');
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log("registry");');
  const table = routeTable();
  const app = await createTestApp(db, {
    config: { nodeEnv: 'test', cookieSecure: false, trustProxy: false, logLevel: 'silent', staticDir },
    onRoute: table.onRoute,
  });
  await app.ready();
  const world = await createRegistryWorld(db, app);
  const { a, organizations } = world;
  const ids = (...values: string[]) => fc.constantFrom(...values);
  const target: FuzzTarget = {
    app,
    cookie: world.cookies.memberA,
    participantId: organizations.a,
    otherParticipantIds: [organizations.b, organizations.dormant],
    hints: {
      params: {
        id: ids(a.loanId, world.bLoanId),
        loanId: ids(a.loanId, world.bLoanId),
        poolId: ids(a.poolId),
        userId: ids(world.userIds.memberA, world.userIds.memberB),
        documentIdOrHash: ids(a.documentId, a.documentHash),
        participantId: ids(organizations.a, organizations.b, organizations.dormant),
      },
      query: {
        loanIds: fc.array(ids(a.loanId, world.bLoanId), { minLength: 1, maxLength: 3 }).map((list) => list.join(',')),
        poolDenomination: ids(a.poolId),
        jobId: ids(a.jobId),
        participantRoles: fc
          .subarray(['OWNER', 'SERVICER', 'CONTROLLER', 'SUB_SERVICER', 'SECURED_PARTY', 'ORIGINATOR'])
          .map((roles) => roles.join(',')),
        // The invitation page's link: a well-formed unknown token, or anything.
        token: fc.oneof(fc.constant('A'.repeat(43)), fc.string({ maxLength: 60 })),
        returnTo: fc.constantFrom(
          '/registry/dashboard',
          '//evil.test/',
          'https://evil.test/',
          '/registry/\u00e9\u0100',
          'javascript:alert(1)',
        ),
      },
      body: {
        uuid: ids(a.messageId),
        uuids: fc.array(ids(a.messageId), { minLength: 1, maxLength: 2 }),
        loanIds: fc.array(ids(a.loanId, world.bLoanId), { minLength: 1, maxLength: 3 }),
        participantId: ids(organizations.b, organizations.c, organizations.dormant),
        email: fc.constantFrom(EMAILS.memberB, 'nobody@fuzz.test'),
        returnTo: fc.constantFrom('/registry/dashboard', '//evil.test/', '/registry/\u00e9\u0100'),
      },
    },
  };
  return {
    app,
    routes: table.routes,
    world,
    target,
    close: async () => {
      await app.close();
      fs.rmSync(staticDir, { recursive: true, force: true });
    },
  };
}
