// A sample of `npm run fuzz` in every test run: every registered route, 25 requests each generated
// from its zod contract (tests/fuzz/route-fuzz.ts), none answered 5xx or with internals in a 4xx
// body. The seed is fixed so a failure repeats; FUZZ_SEED=<n> tries another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFuzzApp, type FuzzApp } from '../fuzz/fuzz-app';
import { formatFuzzReport, fuzzRoutes, judge, type FuzzReport } from '../fuzz/route-fuzz';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

const CASES_PER_ROUTE = 25;
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

let database: TestDatabase;
let fuzz: FuzzApp;

beforeAll(async () => {
  database = await createTestDatabase();
  fuzz = await startFuzzApp(database.db);
});

afterAll(async () => {
  await fuzz?.close();
  await database?.close();
});

describe('the fuzzer judges an answer', () => {
  it('by its status and by internals in an error body, not by what the request itself carried', () => {
    expect(judge(200, 'ok', '')).toEqual([]);
    expect(judge(503, '{}', '')).toEqual(['answered 503']);
    expect(judge(400, 'Error: boom\n    at Object.<anonymous> (/app/src/server/x.ts:1:1)', '')).toEqual([
      'a stack trace in the body: "\\n    at "',
      'a source path in the body: "/src/server/"',
    ]);
    expect(judge(400, 'syntax error at or near "x"', '')).toEqual(['SQL in the body: "syntax error"']);
    expect(judge(400, 'Failed query: select "id" from "loans" where "uli" = $1', '')).toEqual(['SQL in the body: "Failed query"']);
    // Plain words are not SQL.
    expect(judge(400, 'body.uuids: Must select at least one message!', '')).toEqual([]);
    expect(judge(400, 'FST_ERR_CTP_INVALID_MEDIA_TYPE', '')).toEqual([
      'an internal error code in the body: "FST_ERR_CTP_INVALID_MEDIA_TYPE"',
    ]);
    expect(judge(404, 'invalid value 22P02', '')).toEqual(['a SQLSTATE in the body: "22P02"']);
    expect(judge(400, 'connect ECONNREFUSED 127.0.0.1:5432', '')).toEqual(['an internal error code in the body: "ECONNREFUSED"']);
    // The sign-in page shows the email it was given: the caller's own text is not a leak.
    expect(judge(401, 'email: SELECT * FROM identities', 'email=SELECT * FROM identities')).toEqual([]);
  });
});

describe(`route fuzzing (seed ${SEED}, ${CASES_PER_ROUTE} cases per route)`, () => {
  let report: FuzzReport;

  it('sends generated requests to every registered route', async () => {
    report = await fuzzRoutes(fuzz.routes, fuzz.target, { casesPerRoute: CASES_PER_ROUTE, seed: SEED });
    console.log(`route fuzzing, seed ${SEED}:\n${formatFuzzReport(report)}`);
    expect(report.rows.map((row) => row.route)).toEqual(fuzz.routes.map((route) => route.key));
    expect(report.rows.every((row) => row.cases === CASES_PER_ROUTE)).toBe(true);
  }, 300_000);

  it('never answers 5xx, and no error body holds a stack trace, SQL or an internal error code', () => {
    expect(
      report.violations.map(
        (violation) => `${violation.route}: ${violation.problem}\n  ${violation.request}\n  -> ${violation.status} ${violation.body}`,
      ),
    ).toEqual([]);
  });

  it('reaches past validation: some requests of a product route succeed', () => {
    const succeeded = report.rows.filter((row) =>
      Object.entries(row.statuses).some(([status, count]) => Number(status) < 300 && count > 0),
    );
    expect(succeeded.length).toBeGreaterThan(report.rows.length / 2);
  });
});
