// `npm run bench`: seeds a fresh embedded PostgreSQL, starts the real registry server on a
// loopback port, and measures it over HTTP with a bounded closed-loop load per scenario (the
// load runs in a child process, scripts/bench-client.ts, so it does not share the server's
// event loop). Prints a table, checks the GOALS below (PASS/FAIL each) and exits 1 when any
// goal fails. Everything runs on 127.0.0.1 and in a temporary folder removed at the end.
//
//   npm run bench -- [--loans N] [--concurrency N] [--duration S] [--warmup S]
//                    [--max-requests N] [--out DIR | --no-out]
//   (defaults: BENCH_LOANS or 20000, BENCH_CONCURRENCY or 16, BENCH_DURATION or 5 s, 1 s warm-up,
//    100000 requests per scenario at most; results as JSON in bench-results/)
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATHS } from '../src/contract/paths';
import { DEMO_PASSWORD, PARTICIPANT_HEADER } from '../src/domain/constants';
import { parseConfig } from '../src/server/config';
import { connectDatabase, migrateDatabase, type DatabaseHandle } from '../src/server/db/database';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/server/db/embedded-postgres';
import { seedDemoData } from '../src/server/seed';
import { startServer, type RunningServer } from '../src/server/main';
import type { ChildMessage, LoadOptions, LoadResult, ParentMessage, ScenarioSpec } from './bench-load';

// ---------------------------------------------------------------------------------------------
// Goals. Calibrated on the 2-core CI machine (Node 20, 20,000 loans, 16 concurrent, 5 s after a
// 1 s warm-up) with about 2x headroom over the measured values, so a real regression fails and
// noise does not. They hold for the default options; other options print a reminder with them.
// Measured there over three runs: seed 3,600-4,650 loans/s; p95 figureinfo 12-20 ms, users/me
// 23-34 ms (800-1,150 req/s), participants 20-28 ms, SPA 12-16 ms, healthz 8-10 ms; sign-in
// 26-28/s with p95 610-670 ms; RSS after load 230-255 MB (the seed runs in this process first).
// Sign-in is scrypt-bound (N=2^15, tens of ms of CPU each on the libuv pool): at 16 concurrent
// its latency is mostly queueing (16 / 27 per s = ~600 ms), so it has a throughput goal too.

interface Goal {
  readonly label: string;
  readonly unit: string;
  readonly op: '<' | '>=';
  readonly target: number;
  /** undefined: not measured this run (the goal is skipped, not failed). */
  readonly measure: (report: Report) => number | undefined;
}

const scenario = (report: Report, name: string) => report.results.find((result) => result.name === name);
const p95 = (name: string) => (report: Report) => scenario(report, name)?.p95;
const throughput = (name: string) => (report: Report) => scenario(report, name)?.requestsPerSecond;

const GOALS: readonly Goal[] = [
  { label: 'seed rate', unit: 'loans/s', op: '>=', target: 2_000, measure: (report) => (report.seed.loans > 0 ? report.seed.loansPerSecond : undefined) },
  { label: 'figureinfo p95', unit: 'ms', op: '<', target: 30, measure: p95('figureinfo') },
  { label: 'users/me p95', unit: 'ms', op: '<', target: 60, measure: p95('users/me') },
  { label: 'users/me throughput', unit: 'req/s', op: '>=', target: 450, measure: throughput('users/me') },
  { label: 'users/:id/participants p95', unit: 'ms', op: '<', target: 60, measure: p95('users/:id/participants') },
  { label: 'sign-in p95', unit: 'ms', op: '<', target: 1_300, measure: p95('sign-in') },
  { label: 'sign-in throughput', unit: 'req/s', op: '>=', target: 13, measure: throughput('sign-in') },
  { label: 'dashboard (SPA) p95', unit: 'ms', op: '<', target: 30, measure: p95('dashboard (SPA)') },
  { label: 'healthz p95', unit: 'ms', op: '<', target: 20, measure: p95('healthz') },
  { label: 'errors (all scenarios)', unit: '', op: '<', target: 1, measure: (report) => report.results.reduce((sum, result) => sum + result.errors, 0) },
  { label: 'server RSS after load', unit: 'MB', op: '<', target: 500, measure: (report) => report.memory.after.rss / MB },
];

const DEFAULTS = { loans: 20_000, concurrency: 16, durationS: 5, warmupS: 1, maxRequests: 100_000 } as const;
const LIMITS = { loans: 2_000_000, concurrency: 256, durationS: 120, warmupS: 30, maxRequests: 1_000_000 } as const;
/** A single request that takes longer than this is aborted and counted as an error. */
const REQUEST_TIMEOUT_MS = 10_000;
const VITE_BUILD_TIMEOUT_MS = 300_000;
const HOST = '127.0.0.1';
const MB = 1024 * 1024;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  readonly loans: number;
  readonly concurrency: number;
  readonly durationMs: number;
  readonly warmupMs: number;
  readonly maxRequests: number;
  /** Folder for the JSON results; undefined: none written. */
  readonly outDir: string | undefined;
}

function usage(): string {
  return [
    'Usage: npm run bench -- [options]',
    `  --loans N          loans to seed (default BENCH_LOANS or ${DEFAULTS.loans}, at most ${LIMITS.loans})`,
    `  --concurrency N    requests in flight per scenario (default BENCH_CONCURRENCY or ${DEFAULTS.concurrency}, at most ${LIMITS.concurrency})`,
    `  --duration S       measured seconds per scenario (default BENCH_DURATION or ${DEFAULTS.durationS}, at most ${LIMITS.durationS})`,
    `  --warmup S         unmeasured warm-up seconds per scenario (default ${DEFAULTS.warmupS}, at most ${LIMITS.warmupS})`,
    `  --max-requests N   hard cap on measured requests per scenario (default BENCH_MAX_REQUESTS or ${DEFAULTS.maxRequests})`,
    '  --out DIR          where the JSON results go (default bench-results); --no-out writes none',
  ].join('\n');
}

function numberOption(name: string, raw: string | undefined, min: number, max: number, integer: boolean): number {
  const value = Number((raw ?? '').replaceAll('_', ''));
  if (raw === undefined || raw.trim() === '' || !Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new Error(`${name} must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got '${raw ?? ''}'\n\n${usage()}`);
  }
  return value;
}

function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): Options {
  const raw: Record<string, string | undefined> = {
    loans: env.BENCH_LOANS || String(DEFAULTS.loans),
    concurrency: env.BENCH_CONCURRENCY || String(DEFAULTS.concurrency),
    duration: env.BENCH_DURATION || String(DEFAULTS.durationS),
    warmup: String(DEFAULTS.warmupS),
    'max-requests': env.BENCH_MAX_REQUESTS || String(DEFAULTS.maxRequests),
    out: 'bench-results',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      console.log(usage());
      process.exit(0);
    }
    if (arg === '--no-out') {
      raw.out = undefined;
      continue;
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    const key = match?.[1];
    if (!match || key === undefined || !(key in raw)) throw new Error(`Unknown argument: ${arg}\n\n${usage()}`);
    raw[key] = match[2] ?? argv[++i];
  }
  return {
    loans: numberOption('--loans', raw.loans, 0, LIMITS.loans, true),
    concurrency: numberOption('--concurrency', raw.concurrency, 1, LIMITS.concurrency, true),
    durationMs: numberOption('--duration', raw.duration, 0.5, LIMITS.durationS, false) * 1000,
    warmupMs: numberOption('--warmup', raw.warmup, 0, LIMITS.warmupS, false) * 1000,
    maxRequests: numberOption('--max-requests', raw['max-requests'], 1, LIMITS.maxRequests, true),
    outDir: raw.out === undefined || raw.out === '' ? undefined : path.resolve(root, raw.out),
  };
}

const isDefault = (options: Pick<Options, 'loans' | 'concurrency' | 'durationMs'>): boolean =>
  options.loans === DEFAULTS.loans && options.concurrency === DEFAULTS.concurrency && options.durationMs === DEFAULTS.durationS * 1000;

// ---------------------------------------------------------------------------------------------
// Clean-up: each resource registers how it is released; released in reverse order, once, on
// success, on error, on a signal and on the watchdog.

const releases: { label: string; release: () => Promise<void> | void }[] = [];
let releasing: Promise<void> | undefined;

function onRelease(label: string, release: () => Promise<void> | void): void {
  releases.push({ label, release });
}

function releaseAll(): Promise<void> {
  releasing ??= (async () => {
    for (const { label, release } of releases.reverse()) {
      try {
        await withTimeout(Promise.resolve(release()), 20_000, `stopping ${label}`);
      } catch (error) {
        console.error(`Clean-up of ${label} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  })();
  return releasing;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Replaces embedded-postgres's exit hooks: a signal releases everything, then exits. */
function exitOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) process.removeListener(signal, listener);
    // tsx relays the terminal's signal once more: repeats must not cut the clean-up short
    // (each release step is bounded by its own timeout).
    process.on(signal, () => {
      if (releasing) return;
      console.error(`\n${signal}: stopping the benchmark...`);
      void releaseAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Set-up steps

interface SeedReport {
  readonly loans: number;
  readonly seconds: number;
  readonly loansPerSecond: number;
}

async function seed(connectionString: string, loans: number): Promise<SeedReport> {
  const handle: DatabaseHandle = connectDatabase(connectionString, 2);
  try {
    await migrateDatabase(handle);
    const started = performance.now();
    let lastPrinted = 0;
    await seedDemoData(handle.db, {
      loans,
      log: (message) => {
        // A progress line at most every 2 s keeps long seeds visible without flooding.
        if (message.startsWith('loans:') && performance.now() - lastPrinted > 2000) {
          lastPrinted = performance.now();
          console.log(`  ${message}`);
        }
      },
    });
    const seconds = (performance.now() - started) / 1000;
    return { loans, seconds, loansPerSecond: seconds > 0 ? loans / seconds : 0 };
  } finally {
    await handle.close();
  }
}

/** dist/index.html for the SPA scenario: builds it once when missing; undefined when it can't. */
function ensureWebApp(staticDir: string): string | undefined {
  const index = path.join(staticDir, 'index.html');
  if (fs.existsSync(index)) return undefined;
  console.log('dist/index.html is missing: running vite build...');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: 'inherit', timeout: VITE_BUILD_TIMEOUT_MS });
  if (fs.existsSync(index)) return undefined;
  return `skipped: vite build failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}), no dist/index.html`;
}

interface Session {
  readonly cookie: string;
  readonly userId: string;
  readonly participantId: string;
}

const signInBody = (email: string) => new URLSearchParams({ email, password: DEMO_PASSWORD, returnTo: '/registry/dashboard' }).toString();

async function signIn(baseUrl: string, email: string): Promise<Session> {
  const response = await fetch(baseUrl + PATHS.signIn, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: signInBody(email),
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
  if (response.status !== 303 || !cookie) throw new Error(`Sign-in as ${email} answered ${response.status} without a session cookie`);

  const me = await fetch(baseUrl + PATHS.usersMe, { headers: { cookie }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  if (me.status !== 200) throw new Error(`users/me answered ${me.status}: ${await me.text()}`);
  const body = (await me.json()) as { user: { id: string }; participant: { id: string } | null };
  if (!body.participant) throw new Error(`${email} has no current organization`);
  return { cookie, userId: body.user.id, participantId: body.participant.id };
}

function scenarios(baseUrl: string, session: Session, email: string): ScenarioSpec[] {
  const authed = { cookie: session.cookie };
  return [
    { name: 'figureinfo', method: 'GET', url: baseUrl + PATHS.figureInfo, headers: authed, expectStatus: 200 },
    { name: 'users/me', method: 'GET', url: baseUrl + PATHS.usersMe, headers: { ...authed, [PARTICIPANT_HEADER]: session.participantId }, expectStatus: 200 },
    { name: 'users/:id/participants', method: 'GET', url: baseUrl + PATHS.userParticipants(session.userId), headers: authed, expectStatus: 200 },
    {
      // No cookie: every request is a fresh sign-in (scrypt verify, new session row).
      name: 'sign-in', method: 'POST', url: baseUrl + PATHS.signIn,
      headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: signInBody(email), expectStatus: 303, expectHeader: 'set-cookie',
    },
    { name: 'dashboard (SPA)', method: 'GET', url: `${baseUrl}/registry/dashboard`, headers: {}, expectStatus: 200 },
    { name: 'healthz', method: 'GET', url: baseUrl + PATHS.health, headers: {}, expectStatus: 200 },
  ];
}

// ---------------------------------------------------------------------------------------------
// The load generator process

interface LoadClient {
  run(spec: ScenarioSpec, options: LoadOptions): Promise<LoadResult>;
}

async function startLoadClient(): Promise<LoadClient> {
  const child: ChildProcess = fork(path.join(root, 'scripts', 'bench-client.ts'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  onRelease('the load generator', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const next = (timeoutMs: number, what: string) =>
    withTimeout(
      new Promise<ChildMessage>((resolve, reject) => {
        const onMessage = (message: ChildMessage) => {
          child.off('exit', onExit);
          resolve(message);
        };
        const onExit = (code: number | null) => {
          child.off('message', onMessage);
          reject(new Error(`The load generator exited (${code}) during ${what}`));
        };
        child.once('message', onMessage);
        child.once('exit', onExit);
      }),
      timeoutMs,
      what,
    );
  const ready = await next(30_000, 'load generator start');
  if (ready.type !== 'ready') throw new Error(`The load generator did not start: ${JSON.stringify(ready)}`);
  return {
    async run(spec, options) {
      const answer = next(options.warmupMs + options.durationMs + 2 * options.timeoutMs + 10_000, `scenario ${spec.name}`);
      child.send({ type: 'run', spec, options } satisfies ParentMessage);
      const message = await answer;
      if (message.type === 'result') return message.result;
      throw new Error(`Scenario ${spec.name} failed in the load generator: ${message.type === 'error' ? message.message : message.type}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Report

interface Report {
  readonly startedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly node: string; readonly totalMemoryMb: number };
  readonly options: Omit<Options, 'outDir'>;
  readonly seed: SeedReport;
  readonly results: readonly LoadResult[];
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  readonly memory: { readonly atStart: NodeJS.MemoryUsage; readonly beforeLoad: NodeJS.MemoryUsage; readonly after: NodeJS.MemoryUsage };
}

interface Verdict {
  readonly goal: Goal;
  readonly value: number | undefined;
  readonly pass: boolean | undefined;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const grouped = (value: number) => Math.round(value).toLocaleString('en-US');

function table(header: readonly string[], rows: readonly (readonly string[])[], rightAligned: readonly number[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (rightAligned.includes(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0))).join('  ').trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

function evaluate(report: Report): Verdict[] {
  return GOALS.map((goal) => {
    const value = goal.measure(report);
    if (value === undefined || Number.isNaN(value)) return { goal, value: undefined, pass: undefined };
    return { goal, value, pass: goal.op === '<' ? value < goal.target : value >= goal.target };
  });
}

function print(report: Report, verdicts: readonly Verdict[]): void {
  const { options, seed, memory } = report;
  console.log(`\nLoad: closed loop, ${options.concurrency} concurrent, ${fixed(options.warmupMs / 1000, 1)} s warm-up + ${fixed(options.durationMs / 1000, 1)} s per scenario, at most ${grouped(options.maxRequests)} requests; latency in ms.`);
  console.log(`Seed: ${grouped(seed.loans)} loans in ${fixed(seed.seconds, 2)} s (${grouped(seed.loansPerSecond)} loans/s).\n`);
  const rows = report.results.map((result) => [
    result.name, grouped(result.count), fixed(result.requestsPerSecond, 0), fixed(result.p50, 2), fixed(result.p95, 2), fixed(result.p99, 2), fixed(result.max, 2),
    String(result.errors) + (result.capped ? ' (capped)' : ''),
  ]);
  for (const skipped of report.skipped) rows.push([skipped.name, '-', '-', '-', '-', '-', '-', skipped.reason]);
  console.log(table(['scenario', 'requests', 'req/s', 'p50', 'p95', 'p99', 'max', 'errors'], rows, [1, 2, 3, 4, 5, 6]));
  for (const result of report.results) {
    if (result.errorSamples.length > 0) console.log(`  ${result.name} errors: ${result.errorSamples.join('; ')}`);
  }

  const mb = (bytes: number) => `${fixed(bytes / MB, 1)} MB`;
  // The seed ran in this process before the server started: 'before load' includes what it left.
  console.log('\nServer process memory (process.memoryUsage(); the seed ran in this process before the server started):');
  console.log(table(
    ['when', 'rss', 'heap used', 'heap total', 'external'],
    [
      ['at start', mb(memory.atStart.rss), mb(memory.atStart.heapUsed), mb(memory.atStart.heapTotal), mb(memory.atStart.external)],
      ['before load', mb(memory.beforeLoad.rss), mb(memory.beforeLoad.heapUsed), mb(memory.beforeLoad.heapTotal), mb(memory.beforeLoad.external)],
      ['after load', mb(memory.after.rss), mb(memory.after.heapUsed), mb(memory.after.heapTotal), mb(memory.after.external)],
    ],
    [1, 2, 3, 4],
  ));

  console.log('\nGoals:');
  console.log(table(
    ['goal', 'target', 'measured', 'verdict'],
    verdicts.map(({ goal, value, pass }) => {
      const unit = goal.unit ? ` ${goal.unit}` : '';
      const shown = value === undefined ? '-' : goal.unit === 'ms' || goal.unit === 'MB' ? fixed(value, 1) : grouped(value);
      return [goal.label, `${goal.op} ${grouped(goal.target)}${unit}`, `${shown}${value === undefined ? '' : unit}`, pass === undefined ? 'SKIP' : pass ? 'PASS' : 'FAIL'];
    }),
    [2],
  ));
  if (!isDefault(report.options)) console.log('(The goals are calibrated for the default loans, concurrency and duration.)');
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const startedAt = new Date();
  const atStart = process.memoryUsage();
  exitOnSignals();
  // The watchdog: nothing here may run unbounded (seeding budget: 200 loans/s at worst).
  const budgetMs = 180_000 + (options.loans / 200) * 1000 + 6 * (options.warmupMs + options.durationMs + 2 * REQUEST_TIMEOUT_MS + 10_000) + VITE_BUILD_TIMEOUT_MS;
  const watchdog = setTimeout(() => {
    console.error(`The benchmark took longer than ${Math.round(budgetMs / 1000)} s: stopping.`);
    void releaseAll().finally(() => process.exit(1));
  }, budgetMs);
  watchdog.unref();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-'));
  // As root, PostgreSQL runs as the 'postgres' user and must be able to enter the folder.
  fs.chmodSync(dataDir, 0o755);
  onRelease('the temporary folder', () => fs.rmSync(dataDir, { recursive: true, force: true }));

  console.log(`Starting embedded PostgreSQL in ${dataDir}...`);
  const embedded: EmbeddedDatabase = await startEmbeddedPostgres(dataDir);
  onRelease('PostgreSQL', () => embedded.stop());

  console.log(`Migrating and seeding ${grouped(options.loans)} loans...`);
  const seedReport = await seed(embedded.connectionString(), options.loans);
  console.log(`Seeded ${grouped(options.loans)} loans in ${fixed(seedReport.seconds, 2)} s (${grouped(seedReport.loansPerSecond)} loans/s).`);

  const config = parseConfig({
    NODE_ENV: 'production',
    HOST,
    PORT: '0',
    DATABASE_URL: embedded.connectionString(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    STATIC_DIR: path.join(root, 'dist'),
    // Every sign-in scenario request is an attempt from 127.0.0.1: the default 10/min would refuse them.
    SIGN_IN_RATE_LIMIT: '100000000',
  });
  const skipped: { name: string; reason: string }[] = [];
  const webAppProblem = ensureWebApp(config.staticDir);
  if (webAppProblem) skipped.push({ name: 'dashboard (SPA)', reason: webAppProblem });

  const server: RunningServer = await startServer(config, { log: () => undefined });
  onRelease('the server', () => server.close());
  const url = new URL(server.url);
  if (url.hostname !== HOST) throw new Error(`The server listens on ${url.hostname}, not ${HOST}`);
  console.log(`Server on ${server.url} (production mode, logging silent).`);

  const email = 'admin@registry.test';
  const session = await signIn(server.url, email);
  const client = await startLoadClient();
  const loadOptions: LoadOptions = {
    concurrency: options.concurrency,
    warmupMs: options.warmupMs,
    durationMs: options.durationMs,
    maxRequests: options.maxRequests,
    timeoutMs: REQUEST_TIMEOUT_MS,
  };

  const beforeLoad = process.memoryUsage();
  const results: LoadResult[] = [];
  for (const spec of scenarios(server.url, session, email)) {
    if (skipped.some((entry) => entry.name === spec.name)) continue;
    process.stdout.write(`  ${spec.name}...`);
    const result = await client.run(spec, loadOptions);
    results.push(result);
    process.stdout.write(` ${grouped(result.count)} requests, p95 ${fixed(result.p95, 2)} ms\n`);
  }
  const after = process.memoryUsage();

  const { outDir, ...reported } = options;
  const cpus = os.cpus();
  const report: Report = {
    startedAt: startedAt.toISOString(),
    machine: { cpus: cpus.length, cpuModel: cpus[0]?.model ?? 'unknown', node: process.version, totalMemoryMb: Math.round(os.totalmem() / MB) },
    options: reported,
    seed: seedReport,
    results,
    skipped,
    memory: { atStart, beforeLoad, after },
  };
  const verdicts = evaluate(report);
  print(report, verdicts);

  if (outDir) {
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
    fs.writeFileSync(file, `${JSON.stringify({ ...report, goals: verdicts.map(({ goal, value, pass }) => ({ ...goal, measure: undefined, value, pass })) }, null, 2)}\n`);
    console.log(`\nResults written to ${path.relative(root, file)}`);
  }
  const failed = verdicts.filter((verdict) => verdict.pass === false);
  console.log(failed.length === 0 ? '\nAll goals met.' : `\n${failed.length} goal(s) failed: ${failed.map((verdict) => verdict.goal.label).join(', ')}`);
  return failed.length === 0 ? 0 : 1;
}

// process.exit, not process.exitCode: embedded-postgres's exit hook would turn a failure into 0.
main().then(
  async (code) => {
    await releaseAll();
    process.exit(code);
  },
  async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await releaseAll();
    process.exit(1);
  },
);
