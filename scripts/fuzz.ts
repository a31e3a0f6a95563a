// `npm run fuzz`: property-based fuzzing of every route the server registers, against the
// real app over a fresh embedded PostgreSQL (a temporary folder, removed afterwards) holding the
// authorization matrix's small registry. Requests are generated from each route's zod contract
// (tests/fuzz/route-fuzz.ts): valid values, boundaries and hostile ones, as a member of organization
// A with A's x-participant-id (about one in ten anonymous). Prints a table of statuses by route and
// every violation (a 5xx, or a stack trace, SQL or an internal error code in an error body) with
// the request to replay it; exits 1 on any violation.
//
//   npm run fuzz -- [--cases N] [--seed S] [--route TEXT]
//   (defaults: 1000 cases per route, a random seed (printed), every route; --route keeps the
//    routes whose `METHOD /path` contains TEXT. The same seed sends the same requests.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectDatabase, migrateDatabase, type DatabaseHandle } from '../src/server/db/database';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/server/db/embedded-postgres';
import { startFuzzApp, type FuzzApp } from '../tests/fuzz/fuzz-app';
import { formatFuzzReport, fuzzRoutes } from '../tests/fuzz/route-fuzz';

interface Arguments {
  readonly cases: number;
  readonly seed: number;
  readonly route: string | undefined;
}

function parseArguments(argv: readonly string[]): Arguments {
  let cases = 1000;
  let seed = Math.floor(Math.random() * 2 ** 31);
  let route: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = (argv[i] as string).split(/=(.*)/s, 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (name === '--cases') cases = Number(value());
    else if (name === '--seed') seed = Number(value());
    else if (name === '--route') route = value();
    else if (name === '--help' || name === '-h') {
      console.log('Usage: npm run fuzz -- [--cases N] [--seed S] [--route TEXT]   (default 1000 cases per route, a random seed)');
      process.exit(0);
    } else throw new Error(`Unknown argument: ${name}`);
  }
  if (!Number.isInteger(cases) || cases < 1) throw new Error('--cases must be a whole number >= 1');
  if (!Number.isInteger(seed)) throw new Error('--seed must be a whole number');
  return { cases, seed, route };
}

async function main(): Promise<number> {
  const args = parseArguments(process.argv.slice(2));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-fuzz-'));
  fs.chmodSync(dataDir, 0o755);
  let embedded: EmbeddedDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  let fuzz: FuzzApp | undefined;
  try {
    console.log(`Fuzzing with seed ${args.seed} (repeat with: npm run fuzz -- --seed ${args.seed} --cases ${args.cases})`);
    embedded = await startEmbeddedPostgres(dataDir);
    handle = connectDatabase(embedded.connectionString(), 4);
    await migrateDatabase(handle);
    fuzz = await startFuzzApp(handle.db);
    const routes = fuzz.routes.filter((route) => !args.route || route.key.includes(args.route));
    console.log(`${routes.length} routes, ${args.cases} cases each\n`);
    const started = performance.now();
    const report = await fuzzRoutes(routes, fuzz.target, {
      casesPerRoute: args.cases,
      seed: args.seed,
      onRoute: (row) => process.stderr.write(`  ${row.route}: ${row.cases} cases\n`),
    });
    const seconds = (performance.now() - started) / 1000;
    const total = report.rows.reduce((sum, row) => sum + row.cases, 0);
    console.log(`\n${formatFuzzReport(report)}\n`);
    console.log(`${total} requests in ${seconds.toFixed(1)} s, seed ${args.seed}.`);
    if (report.violations.length === 0) {
      console.log('PASS: no 5xx, and no error body holds a stack trace, SQL or an internal error code.');
      return 0;
    }
    console.log(`FAIL: ${report.violations.length} violations`);
    for (const violation of report.violations.slice(0, 50)) {
      console.log(
        `\n${violation.route}: ${violation.problem}\n  request: ${violation.request}\n  answer: ${violation.status} ${violation.body}`,
      );
    }
    if (report.violations.length > 50) console.log(`\n... and ${report.violations.length - 50} more`);
    return 1;
  } finally {
    await fuzz?.close().catch(() => undefined);
    await handle?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
