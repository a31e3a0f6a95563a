// Proof that stays: every route the server registers (read from its own route table,
// with the access each declares) x 7 callers x 5 participant headers, each cell with the status of
// the product's rules (support/authorization-matrix.ts), and no cell outside organization A shows A's data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable, type RegisteredRoute } from '../fuzz/route-table';
import { EXPECTATIONS, expectationOf, HEADER_CASES, runCell, type CellResult } from './support/authorization-matrix';
import { CALLERS, createRegistryWorld, type RegistryWorld } from './support/registry-world';
import { useRouteTest } from './support/route-test';

let world: RegistryWorld;
let staticDir: string;
const table = routeTable();
const results: CellResult[] = [];

const CELLS_PER_ROUTE = CALLERS.length * HEADER_CASES.length;
/** Routes as the table lists them: each expectation, and the HEAD route of each GET. */
const EXPECTED_ROUTES = Object.keys(EXPECTATIONS).flatMap((key) => (key.startsWith('GET ') ? [key, `HEAD ${key.slice(4)}`] : [key]));
const MATRIX_SIZE = EXPECTED_ROUTES.length * CELLS_PER_ROUTE;

const server = useRouteTest(() => {
  // A built web app (its index.html), so /registry/ routes answer as in production.
  staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-matrix-static-'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Loan Registry</title>');
  return {
    app: { config: { nodeEnv: 'test', cookieSecure: false, trustProxy: false, logLevel: 'silent', staticDir }, onRoute: table.onRoute },
  };
});

beforeAll(async () => {
  world = await createRegistryWorld(server.db, server.app);
});

afterAll(async () => {
  const failed = results.filter((result) => result.problems.length > 0).length;
  console.log(`authorization matrix: ${results.length} cells run, ${results.length - failed} as expected, ${failed} not`);
  if (staticDir) fs.rmSync(staticDir, { recursive: true, force: true });
});

const describeCell = (route: RegisteredRoute, result: CellResult) =>
  `${route.key} as ${result.cell.caller}, header ${result.cell.header}: ${result.problems.join('; ')}`;

describe(`authorization matrix: ${EXPECTED_ROUTES.length} routes x ${CALLERS.length} callers x ${HEADER_CASES.length} participant headers = ${MATRIX_SIZE} cells`, () => {
  it('has an expectation for every route the server registers, and a route for every expectation', () => {
    const registered = table.routes.map((route) => route.key);
    const missing = table.routes.filter((route) => !expectationOf(route)).map((route) => route.key);
    expect(missing, 'routes without an entry in EXPECTATIONS (tests/server/support/authorization-matrix.ts)').toEqual([]);
    const stale = EXPECTED_ROUTES.filter((key) => !registered.includes(key));
    expect(stale, 'entries of EXPECTATIONS the server does not register').toEqual([]);
    expect(registered).toHaveLength(EXPECTED_ROUTES.length);
    // Who may call each route is the route's own declaration (config.access), read from the table.
    expect(table.routes.filter((route) => !route.access).map((route) => route.key)).toEqual([]);
  });

  // One test per expectation (its GET and HEAD together), every cell run before the assertion so a
  // failure lists every wrong cell of the route.
  for (const key of Object.keys(EXPECTATIONS)) {
    const expectation = EXPECTATIONS[key];
    it(`${key}${expectation?.note ? ` (${expectation.note})` : ''}`, async () => {
      const [method, url] = key.split(' ') as [string, string];
      const routes = table.routes.filter(
        (route) => route.url === url && (route.method === method || (method === 'GET' && route.method === 'HEAD')),
      );
      expect(routes.length, `${key} is registered`).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const route of routes) {
        for (const caller of CALLERS) {
          for (const header of HEADER_CASES) {
            const result = await runCell(server.app, world, route, expectation!, { caller, header });
            results.push(result);
            if (result.problems.length > 0) problems.push(describeCell(route, result));
          }
        }
      }
      expect(problems).toEqual([]);
      // Sign-out signs a session in per cell (a full-cost password check each).
    }, 180_000);
  }

  it(`ran all ${MATRIX_SIZE} cells`, () => {
    expect(results).toHaveLength(MATRIX_SIZE);
  });
});
