// `npm run bench`: seeds an embedded PostgreSQL (a temporary one, or a kept data folder that is
// seeded once and reused), starts the real registry server on a loopback port, and measures it
// over HTTP with a bounded closed-loop load per scenario (the load runs in a child process,
// scripts/bench-client.ts, so it does not share the server's event loop). Beside the account
// scenarios it measures the asset list of the largest organization (pages, sorts, searches, a
// date filter; each with the page cache, on a second server without it, and as raw SQL on
// PostgreSQL), a loan's details and events, the CSV of the
// whole set (rows/s, server RSS growth), the initial JavaScript of the build, and optionally
// Lighthouse. Prints tables, checks the goals (PASS/FAIL each) and exits 1 when any goal fails.
//
//   npm run bench -- [--loans N] [--data-dir DIR] [--concurrency N] [--duration S] [--warmup S]
//                    [--max-requests N] [--lighthouse] [--out DIR | --no-out]
//                    [--organizations N] [--users N] [--only TEXT]
//   (defaults: BENCH_LOANS or 20000, a temporary data folder, BENCH_CONCURRENCY or 16,
//    BENCH_DURATION or 5 s, 1 s warm-up, 100000 requests per scenario at most; JSON in bench-results/)
//   A million loans, seeded once and kept:  npm run bench -- --loans 1000000 --data-dir .data/bench-1m
//   The administration at scale (scripts/bench-admin.ts), alone:
//     npm run bench -- --only admin --organizations 3000 --users 200000 --data-dir .data/bench-admin
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { LOAN_SORT_COLUMNS, loanListSchema } from '../src/contract/loans';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { BASE_PATH, DEMO_PASSWORD, PARTICIPANT_HEADER } from '../src/domain/constants';
import { parseConfig } from '../src/server/config';
import { connectDatabase, migrateDatabase, type DatabaseHandle } from '../src/server/db/database';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/server/db/embedded-postgres';
import { addScale, seedDemoData } from '../src/server/seed';
import { startServer, type RunningServer } from '../src/server/main';
import { detailsScenario, listRequest, listStatements, listViews, loanBenchData, sqlScenario, type LoanBenchData } from './bench-loans';
import {
  httpScenario,
  type ChildMessage,
  type DownloadResult,
  type DownloadSpec,
  type LoadOptions,
  type LoadResult,
  type ParentMessage,
  type ScenarioSpec,
} from './bench-load';
import { initialJs, type InitialJs } from './bench-web';
import { messagesRenderGoal, runMessagesRenderBench, type MessagesRenderResult } from './bench-messages-render';
import { DOCUMENT_READ_SCENARIO, documentScenarios, prepareBenchDocument } from './bench-documents';
import { DEACTIVATION_SCENARIO, runDeactivationBench } from './bench-deactivation';
import { MESSAGE_SCENARIOS, messageBenchData, messageReadScenarios, runMessageWrites } from './bench-messages';
import { runZipBench, ZIP_SCENARIO, ZIP_TIMEOUT_MS, type ZipBenchReport } from './bench-zip';
import {
  ADDRESS_SCALE,
  ADDRESS_SCENARIO,
  addressBenchData,
  addressScenario,
  addressYardstick,
  type AddressBenchData,
} from './bench-addresses';
import { BACKUP_SCENARIO, runBackupBench, type BackupBenchReport } from './bench-backup';
import { RECONCILE_SCENARIO, runReconcileBench, type ReconcileBenchReport } from './bench-reconcile';
import { printLighthouse, runLighthouse, type LighthouseResult } from './lighthouse';
import {
  mergeRounds,
  startBareServer,
  STRESS_DEFAULTS,
  STRESS_ROUNDS,
  STRESS_SCENARIOS,
  stressScenarios,
  bareScenario,
  barePgScenario,
  barePgSlowScenario,
} from './bench-stress';
import {
  BARE_CPU_SCENARIO,
  BARE_PG_CPU_SCENARIO,
  BARE_PG_SLOW_CPU_SCENARIO,
  cpuGoals,
  cpuMicrosPerCall,
  idleCpu,
  ownCpuMs,
  type CpuMeasured,
} from './bench-cpu';
import {
  ADMIN_SCALE,
  ADMIN_SCENARIOS,
  adminBenchData,
  adminReadScenarios,
  createUserScenario,
  probeCreateUser,
  removeInvitees,
} from './bench-admin';

// ---------------------------------------------------------------------------------------------
// Goals. Calibrated on the 2-core CI machine (Node 20, 20,000 loans, 16 concurrent, 5 s after a
// 1 s warm-up) with about 2x headroom over the measured values, so a real regression fails and
// noise does not. They hold for the default options; other options print a reminder with them.
// Measured there over three runs: seed 3,600-4,650 loans/s; p95 figureinfo 12-20 ms, users/me
// 23-34 ms (800-1,150 req/s), participants 20-28 ms, SPA 12-16 ms, healthz 8-10 ms; sign-in
// 26-28/s with p95 610-670 ms; RSS after load 230-255 MB (the seed runs in this process first).
// Sign-in is scrypt-bound: at 16 concurrent its latency is mostly queueing, so it has a throughput
// goal too. Sign-in uses scrypt at OWASP's minimum (N=2^17, r=8, p=1: 128 MiB and about four
// times the CPU of the N=2^15 these goals were first set for, 26-28/s and 610-670 ms): measured
// 5/s and p95 3.2 s on the 2-core machine (about 2x headroom below).

interface Goal {
  readonly label: string;
  readonly unit: string;
  readonly op: '<' | '<=' | '>=';
  readonly target: number;
  /** undefined: not measured this run (the goal is skipped, not failed). */
  readonly measure: (report: Report) => number | undefined;
  /** A reason the goal does not apply to this run (shown with SKIP). */
  readonly skip?: (report: Report) => string | undefined;
}

const scenario = (report: Report, name: string): CpuMeasured | undefined => report.results.find((result) => result.name === name);
const p95 = (name: string) => (report: Report) => scenario(report, name)?.p95;
const p99 = (name: string) => (report: Report) => scenario(report, name)?.p99;
const throughput = (name: string) => (report: Report) => scenario(report, name)?.requestsPerSecond;

const ACCOUNT_GOALS: readonly Goal[] = [
  {
    label: 'seed rate',
    unit: 'loans/s',
    op: '>=',
    target: 2_000,
    measure: (report) => (report.seed.reused || report.seed.loans === 0 ? undefined : report.seed.loansPerSecond),
  },
  { label: 'figureinfo p95', unit: 'ms', op: '<', target: 30, measure: p95('figureinfo') },
  { label: 'users/me p95', unit: 'ms', op: '<', target: 60, measure: p95('users/me') },
  { label: 'users/me throughput', unit: 'req/s', op: '>=', target: 450, measure: throughput('users/me') },
  { label: 'users/:id/participants p95', unit: 'ms', op: '<', target: 60, measure: p95('users/:id/participants') },
  { label: 'sign-in p95', unit: 'ms', op: '<', target: 6_500, measure: p95('sign-in') },
  { label: 'sign-in throughput', unit: 'req/s', op: '>=', target: 3, measure: throughput('sign-in') },
  { label: 'dashboard (SPA) p95', unit: 'ms', op: '<', target: 30, measure: p95('dashboard (SPA)') },
  { label: 'healthz p95', unit: 'ms', op: '<', target: 20, measure: p95('healthz') },
];

// The asset list goals, set for a million loans (the largest organization holding >= 200,000): p95
// under the run's concurrency (16 by default). The list goals apply at any size; the CSV goals
// need the full-size set, below it they are skipped.
const SCALE_ROWS = 200_000;
/** At a million loans, the organization with the most messages holds at least this many. */
const MESSAGE_SCALE = 50_000;
const SQL_SUFFIX = ' [SQL]';
/** The same list view on a second server whose page cache is off (LOAN_PAGE_CACHE_MB=0): what a first look costs. */
const UNCACHED_SUFFIX = ' (page cache off)';
const belowScale = (report: Report) =>
  report.assets && report.assets.organization.loans < SCALE_ROWS
    ? `largest organization holds ${grouped(report.assets.organization.loans)} loans (< ${grouped(SCALE_ROWS)}): --loans 1000000`
    : undefined;

function assetGoals(report: Report): Goal[] {
  const views = report.assets?.views ?? [];
  // A list view's latency goal holds for the slower of the two servers: with the page cache (a view
  // seen again) and without it (the first look at a view, or after a change).
  const worstP95 = (name: string) => (r: Report) => {
    const values = [p95(name)(r), p95(name + UNCACHED_SUFFIX)(r)].filter((value): value is number => value !== undefined);
    return values.length === 0 ? undefined : Math.max(...values);
  };
  const latency = (label: string, name: string | undefined, target: number): Goal => ({
    label: `${label} p95`,
    unit: 'ms',
    op: '<=',
    target,
    measure: name === undefined ? () => undefined : name.startsWith('list: ') ? worstP95(name) : p95(name),
  });
  const byPrefix = (prefix: string) => views.filter((view) => view.name.startsWith(prefix)).map((view) => view.name);
  return [
    latency('asset list first page', 'list: first page', 50),
    latency('asset list last page', 'list: last page', 150),
    ...LOAN_SORT_COLUMNS.map((column) => latency(`sort ${column} (asc) first page`, `list: sort ${column}`, 150)),
    ...(byPrefix('list: search').length > 0 ? byPrefix('list: search') : [undefined]).map((name) =>
      latency(name ? name.replace('list: ', '') : 'text search', name, 150),
    ),
    latency('date filter (last 7 days)', 'list: updated in the last 7 days', 100),
    latency('loan details + events', 'loan details + events', 30),
    // The server's own CPU per call against the bare route's (scripts/bench-cpu.ts); the
    // API / raw SQL ratios are printed for information only.
    ...cpuGoals(
      views.map((view) => view.name),
      UNCACHED_SUFFIX,
    ).map((goal): Goal => ({
      label: goal.label,
      unit: 'x',
      op: '<=',
      target: goal.target,
      measure: (r) => goal.ratio((name) => scenario(r, name)),
    })),
    {
      label: 'CSV rows (largest organization)',
      unit: 'rows',
      op: '>=',
      target: SCALE_ROWS,
      measure: (r) => r.assets?.csv?.rows,
      skip: belowScale,
    },
    { label: 'CSV rate', unit: 'rows/s', op: '>=', target: 50_000, measure: (r) => r.assets?.csv?.rowsPerSecond, skip: belowScale },
    {
      label: 'server RSS growth during CSV',
      unit: 'MB',
      op: '<=',
      target: 100,
      measure: (r) => r.assets?.csv?.rssGrowthMb,
      skip: belowScale,
    },
  ];
}

function webGoals(): Goal[] {
  return [
    {
      label: 'initial JS (entry + static imports), gzip',
      unit: 'kB',
      op: '<=',
      target: 170,
      measure: (r) => (r.web.initialJs ? r.web.initialJs.gzipBytes / 1000 : undefined),
    },
    {
      label: 'Lighthouse performance (desktop, assets)',
      unit: '',
      op: '>=',
      target: 95,
      measure: (r) => r.web.lighthouse?.performance,
      skip: (r) => (r.options.lighthouse ? undefined : 'run with --lighthouse'),
    },
    {
      label: 'Lighthouse accessibility (desktop, assets)',
      unit: '',
      op: '>=',
      target: 100,
      measure: (r) => r.web.lighthouse?.accessibility,
      skip: (r) => (r.options.lighthouse ? undefined : 'run with --lighthouse'),
    },
  ];
}

/** Issue 25's goals: reads at the run's concurrency (16 by default), the creation one at a time. */
function adminGoals(): Goal[] {
  const belowAdminScale = (r: Report) =>
    !r.admin
      ? 'run with --organizations 3000 --users 200000 (or --only admin)'
      : r.admin.organizations < ADMIN_SCALE.organizations || r.admin.users < ADMIN_SCALE.users
        ? `${grouped(r.admin.organizations)} organizations, ${grouped(r.admin.users)} users: --organizations 3000 --users 200000`
        : undefined;
  return (
    [
      ['organization list first page p95', ADMIN_SCENARIOS.organizationList, 20],
      ['user suggestions (3-character prefix) p95', ADMIN_SCENARIOS.userSuggestions, 30],
      ["an organization's users first page p95", ADMIN_SCENARIOS.organizationUsers, 20],
      ['create user (membership, invitation, audit) p95', ADMIN_SCENARIOS.createUser, 50],
    ] as const
  ).map(([label, name, target]): Goal => ({ label, unit: 'ms', op: '<=', target, measure: p95(name), skip: belowAdminScale }));
}

function goals(report: Report): Goal[] {
  return [
    ...ACCOUNT_GOALS,
    ...assetGoals(report),
    ...webGoals(),
    messagesRenderGoal<Report>(),
    // A 200 KB PDF read as the document viewer asks for it (scripts/bench-documents.ts).
    { label: 'document read (200 KB PDF) p95', unit: 'ms', op: '<=', target: 30, measure: p95(DOCUMENT_READ_SCENARIO) },
    // A deactivation request with a 10 MB PDF, 2 at a time (scripts/bench-deactivation.ts).
    { label: 'deactivation submit (10 MB PDF) p95', unit: 'ms', op: '<=', target: 500, measure: p95(DEACTIVATION_SCENARIO) },
    // The inbox of the organization with the most messages (scripts/bench-messages.ts).
    { label: 'messages first page p95', unit: 'ms', op: '<=', target: 50, measure: p95(MESSAGE_SCENARIOS.firstPage) },
    { label: 'messages unread count p95', unit: 'ms', op: '<=', target: 20, measure: p95(MESSAGE_SCENARIOS.unreadCount) },
    { label: 'messages bulk update (100) p95', unit: 'ms', op: '<=', target: 100, measure: p95(MESSAGE_SCENARIOS.bulk) },
    { label: 'message confirm (transfer) p95', unit: 'ms', op: '<=', target: 50, measure: p95(MESSAGE_SCENARIOS.confirm) },
    {
      label: 'messages of the organization measured',
      unit: 'messages',
      op: '>=',
      target: MESSAGE_SCALE,
      measure: (r) => r.messages?.organization.messages,
      skip: (r) => (r.seed.loans < 1_000_000 ? `a seed of ${grouped(r.seed.loans)} loans: --loans 1000000` : undefined),
    },
    // The administration at 3,000 organizations and 200,000 users (scripts/bench-admin.ts).
    ...adminGoals(),
    // The address autocomplete over the million-loan seed's 3 million addresses (scripts/bench-addresses.ts).
    {
      label: 'address suggestions (6+ characters) p95',
      unit: 'ms',
      op: '<=',
      target: 30,
      measure: p95(ADDRESS_SCENARIO),
      skip: (r) =>
        r.addresses && r.addresses.rows < ADDRESS_SCALE
          ? `${grouped(r.addresses.rows)} addresses (< ${grouped(ADDRESS_SCALE)}): --loans 1000000`
          : undefined,
    },
    // The batch download's zip of 1,000 documents (scripts/bench-zip.ts).
    { label: 'assignment zip streamed (1,000 documents)', unit: 'MB/s', op: '>=', target: 20, measure: (r) => r.zip?.streamMbPerSecond },
    { label: 'server RSS growth during the zip (build + stream)', unit: 'MB', op: '<=', target: 100, measure: (r) => r.zip?.rssGrowthMb },
    // A 400,000-row loan tape against the largest organization (scripts/bench-reconcile.ts).
    {
      label: 'reconcile a 400,000-row tape (upload to DONE)',
      unit: 's',
      op: '<=',
      target: 60,
      measure: (r) => r.reconcile?.seconds,
      skip: (r) => (r.reconcile ? undefined : 'run with --only reconcile (or without --only)'),
    },
    {
      label: 'server RSS growth during the reconciliation',
      unit: 'MB',
      op: '<=',
      target: 150,
      measure: (r) => r.reconcile?.rssGrowthMb,
      skip: (r) => (r.reconcile ? undefined : 'run with --only reconcile (or without --only)'),
    },
    // 50 connections for 30 s (scripts/bench-stress.ts).
    { label: 'stress users/me p99', unit: 'ms', op: '<=', target: 250, measure: p99(STRESS_SCENARIOS.usersMe) },
    { label: 'stress asset list first page p99', unit: 'ms', op: '<=', target: 250, measure: p99(STRESS_SCENARIOS.loanList) },
    { label: 'stress message list first page p99', unit: 'ms', op: '<=', target: 250, measure: p99(STRESS_SCENARIOS.messageList) },
    ...(['usersMe', 'loanList'] as const).map((key): Goal => ({
      label: `${STRESS_SCENARIOS[key].replace('stress: ', '')} / bare Fastify + zod throughput`,
      unit: '%',
      op: '>=',
      target: 25,
      measure: (r) => {
        const measured = throughput(STRESS_SCENARIOS[key])(r);
        const bare = throughput(STRESS_SCENARIOS.bare)(r);
        return measured === undefined || bare === undefined || !(bare > 0) ? undefined : (100 * measured) / bare;
      },
    })),
    {
      label: 'errors (all scenarios)',
      unit: '',
      op: '<',
      target: 1,
      measure: (r) => r.results.reduce((sum, result) => sum + result.errors, 0),
    },
    { label: 'server RSS after load', unit: 'MB', op: '<', target: 500, measure: (r) => r.memory.after.rss / MB },
    // An online backup and a restore of it (scripts/bench-backup.ts; --only backup).
    { label: 'restore of the backup (extract + WAL replay)', unit: 's', op: '<', target: 600, measure: (r) => r.backup?.restoreSeconds },
  ];
}

const DEFAULTS = { loans: 20_000, concurrency: 16, durationS: 5, warmupS: 1, maxRequests: 100_000 } as const;
const LIMITS = {
  loans: 2_000_000,
  concurrency: 256,
  durationS: 120,
  warmupS: 30,
  maxRequests: 1_000_000,
  organizations: 15_000,
  users: 2_000_000,
} as const;
/** A single request that takes longer than this is aborted and counted as an error. */
const REQUEST_TIMEOUT_MS = 10_000;
const VITE_BUILD_TIMEOUT_MS = 300_000;
/** The whole-set CSV download may take this long at most. */
const CSV_TIMEOUT_MS = 600_000;
const LIGHTHOUSE_BUDGET_MS = 300_000;
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
  /** A kept data folder: seeded when its database holds no loans, reused as it is otherwise. */
  readonly dataDir: string | undefined;
  /** Run Lighthouse on the asset list. */
  readonly lighthouse: boolean;
  /** Folder for the JSON results; undefined: none written. */
  readonly outDir: string | undefined;
  /** Only the scenarios whose name holds this text (case-insensitive); undefined: all. */
  readonly only: string | undefined;
  /** The load section (bench-stress.ts): connections and measured seconds per scenario. */
  readonly stressConcurrency: number;
  readonly stressDurationMs: number;
  /** The administration's scale (src/server/seed/scale.ts): organizations and users in all, at least; undefined: as seeded. */
  readonly organizations: number | undefined;
  readonly users: number | undefined;
}

function usage(): string {
  return [
    'Usage: npm run bench -- [options]',
    `  --loans N          loans to seed (default BENCH_LOANS or ${DEFAULTS.loans}, at most ${LIMITS.loans})`,
    `  --concurrency N    requests in flight per scenario (default BENCH_CONCURRENCY or ${DEFAULTS.concurrency}, at most ${LIMITS.concurrency})`,
    `  --duration S       measured seconds per scenario (default BENCH_DURATION or ${DEFAULTS.durationS}, at most ${LIMITS.durationS})`,
    `  --warmup S         unmeasured warm-up seconds per scenario (default ${DEFAULTS.warmupS}, at most ${LIMITS.warmupS})`,
    `  --max-requests N   hard cap on measured requests per scenario (default BENCH_MAX_REQUESTS or ${DEFAULTS.maxRequests})`,
    '  --data-dir DIR     keep the embedded PostgreSQL in DIR (default BENCH_DATA_DIR, else a temporary folder removed at',
    '                     the end): seeded with --loans when its database holds no loans, reused as it is otherwise',
    '  --lighthouse       also run Lighthouse (desktop) on the asset list, signed in (lighthouse@12 from npm, Debian Chromium)',
    '  --out DIR          where the JSON results go (default bench-results); --no-out writes none',
    "  --only TEXT        run only the scenarios whose name holds TEXT, e.g. --only 'first page' (goals of the others: not measured)",
    `  --stress-concurrency N  connections of the 'stress:' scenarios (default ${STRESS_DEFAULTS.concurrency}, at most ${LIMITS.concurrency})`,
    `  --stress-duration S     measured seconds of each 'stress:' scenario (default ${STRESS_DEFAULTS.durationS}, at most ${LIMITS.durationS})`,
    '  --organizations N  organizations in all, at least (added to the seed or to a kept folder); with --users N, users in all:',
    "                     the registry the 'admin:' scenarios need (issue 25's goals at 3000 and 200000). They run when",
    '                     either is given, or with --only admin',
  ].join('\n');
}

function numberOption(name: string, raw: string | undefined, min: number, max: number, integer: boolean): number {
  const value = Number((raw ?? '').replaceAll('_', ''));
  if (
    raw === undefined ||
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value)) ||
    value < min ||
    value > max
  ) {
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
    'data-dir': env.BENCH_DATA_DIR || undefined,
    out: 'bench-results',
    only: undefined,
    'stress-concurrency': String(STRESS_DEFAULTS.concurrency),
    'stress-duration': String(STRESS_DEFAULTS.durationS),
    organizations: undefined,
    users: undefined,
  };
  let lighthouse = false;
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
    if (arg === '--lighthouse') {
      lighthouse = true;
      continue;
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    const key = match?.[1];
    if (!match || key === undefined || !Object.hasOwn(raw, key)) throw new Error(`Unknown argument: ${arg}\n\n${usage()}`);
    raw[key] = match[2] ?? argv[++i];
  }
  return {
    loans: numberOption('--loans', raw.loans, 0, LIMITS.loans, true),
    concurrency: numberOption('--concurrency', raw.concurrency, 1, LIMITS.concurrency, true),
    durationMs: numberOption('--duration', raw.duration, 0.5, LIMITS.durationS, false) * 1000,
    warmupMs: numberOption('--warmup', raw.warmup, 0, LIMITS.warmupS, false) * 1000,
    maxRequests: numberOption('--max-requests', raw['max-requests'], 1, LIMITS.maxRequests, true),
    dataDir: raw['data-dir'] === undefined || raw['data-dir'] === '' ? undefined : path.resolve(root, raw['data-dir']),
    lighthouse,
    outDir: raw.out === undefined || raw.out === '' ? undefined : path.resolve(root, raw.out),
    only: raw.only === undefined || raw.only === '' ? undefined : raw.only.toLowerCase(),
    stressConcurrency: numberOption('--stress-concurrency', raw['stress-concurrency'], 1, LIMITS.concurrency, true),
    stressDurationMs: numberOption('--stress-duration', raw['stress-duration'], 0.5, LIMITS.durationS, false) * 1000,
    organizations:
      raw.organizations === undefined ? undefined : numberOption('--organizations', raw.organizations, 0, LIMITS.organizations, true),
    users: raw.users === undefined ? undefined : numberOption('--users', raw.users, 0, LIMITS.users, true),
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
  /** Loans seeded now, or found in a reused data folder. */
  readonly loans: number;
  /** True when a kept data folder already held them (nothing seeded). */
  readonly reused: boolean;
  readonly seconds: number;
  readonly loansPerSecond: number;
  /** The administration's scale added (after the loans, timed apart), when asked. */
  readonly scale?: { readonly seconds: number; readonly addedOrganizations: number; readonly addedUsers: number };
}

/** The longest wait for pg_prewarm's autoprewarm to read a reused folder's cached pages back. */
const AUTOPREWARM_WAIT_MS = 5 * 60_000;
/** How long a saved list of cached pages may take to start its loading worker. */
const AUTOPREWARM_START_WAIT_MS = 10_000;

/**
 * A reused data folder: waits until autoprewarm (embedded-postgres.ts) has read the pages cached at
 * the last shutdown back, so the first scenarios measure the server, not its disk reads competing
 * with the warm-up's (at a million loans it fills 3 GB of shared buffers and takes both cores for
 * 10 to 20 s: the first scenario measured 355 req/s instead of 1,300). Asked as the superuser: its
 * worker is a superuser's background process, which pg_stat_activity hides from the other roles.
 * Its loading worker ends when done; the leader that saves the list stays.
 */
async function awaitAutoprewarm(superuserConnectionString: string, pagesSaved: boolean): Promise<void> {
  const started = performance.now();
  const monitor = new pg.Client({ connectionString: superuserConnectionString });
  await monitor.connect();
  try {
    const running = async () =>
      (
        await monitor.query<{ count: number }>(
          "SELECT count(*)::int AS count FROM pg_stat_activity WHERE backend_type = 'autoprewarm worker'",
        )
      ).rows[0]?.count ?? 0;
    const pause = () => new Promise((resolve) => setTimeout(resolve, 500));
    // With a saved list the worker comes, but not always before this first look: a run that
    // looked too early measured its first minute against the loading (users/me 745 req/s, not 4,400).
    if (pagesSaved) while ((await running()) === 0 && performance.now() - started < AUTOPREWARM_START_WAIT_MS) await pause();
    while ((await running()) > 0 && performance.now() - started < AUTOPREWARM_WAIT_MS) await pause();
  } finally {
    await monitor.end();
  }
  const seconds = (performance.now() - started) / 1000;
  if (seconds >= 1) console.log(`Waited ${seconds.toFixed(1)} s for autoprewarm to read the cached pages back.`);
}

/** The loans (seedLoans), then the administration's scale when asked. */
async function prepareDatabase(
  embedded: EmbeddedDatabase,
  dataDir: string,
  loans: number,
  scale: { organizations?: number; users?: number } | undefined,
): Promise<SeedReport> {
  const connectionString = embedded.connectionString();
  const handle: DatabaseHandle = connectDatabase(connectionString, 2);
  try {
    const report = await seedLoans(handle, embedded, dataDir, loans);
    if (!scale) return report;
    // Apart from the loans (their seed rate is a goal), and onto a kept folder as well.
    const started = performance.now();
    const added = await addScale(handle.pool, scale);
    const seconds = (performance.now() - started) / 1000;
    if (added.addedOrganizations > 0 || added.addedUsers > 0) {
      console.log(
        `  scale: ${grouped(added.addedOrganizations)} organizations and ${grouped(added.addedUsers)} users added in ${fixed(seconds, 1)} s ` +
          `(${grouped(added.organizations)} and ${grouped(added.users)} in all)`,
      );
    }
    return { ...report, scale: { seconds, addedOrganizations: added.addedOrganizations, addedUsers: added.addedUsers } };
  } finally {
    await handle.close();
  }
}

/** Migrates, then seeds `loans` unless the database already holds loans (a reused data folder). */
async function seedLoans(handle: DatabaseHandle, embedded: EmbeddedDatabase, dataDir: string, loans: number): Promise<SeedReport> {
  await migrateDatabase(handle);
  const existing = (await handle.pool.query<{ count: number }>('SELECT count(*)::int AS count FROM loans')).rows[0]?.count ?? 0;
  if (existing > 0) {
    const pagesSaved = fs.existsSync(path.join(dataDir, 'postgres', 'autoprewarm.blocks'));
    await awaitAutoprewarm(embedded.superuserConnectionString(), pagesSaved);
    return { loans: existing, reused: true, seconds: 0, loansPerSecond: 0 };
  }
  const started = performance.now();
  let lastPrinted = 0;
  const summary = await seedDemoData(handle.db, {
    loans,
    log: (message) => {
      // A progress line at most every 2 s keeps long seeds visible without flooding.
      if (performance.now() - lastPrinted > 2000) {
        lastPrinted = performance.now();
        console.log(`  ${message}`);
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`  largest organization: ${summary.largestOrganization.name} (${grouped(summary.largestOrganization.loans)} loans)`);
  return { loans, reused: false, seconds, loansPerSecond: seconds > 0 ? loans / seconds : 0 };
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
  readonly email: string;
  readonly cookie: string;
  readonly userId: string;
  readonly participantId: string;
}

const signInBody = (email: string) => new URLSearchParams({ email, password: DEMO_PASSWORD, returnTo: '/registry/dashboard' }).toString();

async function signIn(baseUrl: string, email: string): Promise<Session> {
  const response = await fetch(baseUrl + PATHS.signIn, {
    method: 'POST',
    // Writes need a same-origin Origin (or Referer), as browsers send (plugins/security.ts).
    headers: { origin: new URL(baseUrl).origin, 'content-type': 'application/x-www-form-urlencoded' },
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
  return { email, cookie, userId: body.user.id, participantId: body.participant.id };
}

function scenarios(baseUrl: string, session: Session, email: string): ScenarioSpec[] {
  const authed = { cookie: session.cookie };
  return [
    httpScenario('figureinfo', { method: 'GET', url: baseUrl + PATHS.figureInfo, headers: authed, expectStatus: 200 }),
    httpScenario('users/me', {
      method: 'GET',
      url: baseUrl + PATHS.usersMe,
      headers: { ...authed, [PARTICIPANT_HEADER]: session.participantId },
      expectStatus: 200,
    }),
    httpScenario('users/:id/participants', {
      method: 'GET',
      url: baseUrl + PATHS.userParticipants(session.userId),
      headers: authed,
      expectStatus: 200,
    }),
    // No cookie: every request is a fresh sign-in (scrypt verify, new session row).
    httpScenario('sign-in', {
      method: 'POST',
      url: baseUrl + PATHS.signIn,
      headers: { origin: new URL(baseUrl).origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: signInBody(email),
      expectStatus: 303,
      expectHeader: 'set-cookie',
    }),
    httpScenario('dashboard (SPA)', { method: 'GET', url: `${baseUrl}/registry/dashboard`, headers: {}, expectStatus: 200 }),
    httpScenario('healthz', { method: 'GET', url: baseUrl + PATHS.health, headers: {}, expectStatus: 200 }),
  ];
}

// ---------------------------------------------------------------------------------------------
// The load generator process

interface LoadClient {
  run(spec: ScenarioSpec, options: LoadOptions): Promise<LoadResult>;
  download(spec: DownloadSpec): Promise<DownloadResult>;
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
    async download(spec) {
      const answer = next(spec.timeoutMs + 10_000, `download of ${spec.url}`);
      child.send({ type: 'download', spec } satisfies ParentMessage);
      const message = await answer;
      if (message.type === 'downloaded') return message.result;
      throw new Error(`Download of ${spec.url} failed in the load generator: ${message.type === 'error' ? message.message : message.type}`);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Report

interface CsvReport {
  readonly status: number;
  /** Matching rows (the list's totalCount for the same filter). */
  readonly rows: number;
  readonly bytes: number;
  readonly lineFeeds: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
  /** Server process RSS (VmRSS of /proc/<pid>/status) right before, and its peak during, the download. */
  readonly rssBeforeMb: number;
  readonly rssPeakMb: number;
  readonly rssGrowthMb: number;
  readonly rssSamples: number;
}

interface AssetsReport {
  readonly organization: { readonly id: string; readonly name: string; readonly loans: number };
  readonly email: string;
  readonly searchTerms: LoanBenchData['searchTerms'];
  /** List views measured over HTTP and as raw SQL (`<name> [SQL]` in results). */
  readonly views: readonly { readonly name: string; readonly totalCount: number }[];
  readonly csv?: CsvReport;
}

interface WebReport {
  readonly initialJs?: InitialJs;
  readonly lighthouse?: LighthouseResult;
  readonly messagesRender?: MessagesRenderResult;
}

interface Report {
  readonly startedAt: string;
  readonly machine: { readonly cpus: number; readonly cpuModel: string; readonly node: string; readonly totalMemoryMb: number };
  readonly options: Omit<Options, 'outDir'>;
  readonly seed: SeedReport;
  readonly results: readonly CpuMeasured[];
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  readonly memory: { readonly atStart: NodeJS.MemoryUsage; readonly beforeLoad: NodeJS.MemoryUsage; readonly after: NodeJS.MemoryUsage };
  readonly assets?: AssetsReport;
  /** The batch download's zip (scripts/bench-zip.ts). */
  readonly zip?: ZipBenchReport;
  /** The online backup and its restore (scripts/bench-backup.ts). */
  readonly backup?: BackupBenchReport;
  readonly reconcile?: ReconcileBenchReport;
  /** The organization whose inbox was measured (scripts/bench-messages.ts). */
  readonly admin?: {
    readonly organizations: number;
    readonly users: number;
    readonly organization: { readonly id: string; readonly name: string; readonly users: number };
    readonly organizationAdmin: string;
    readonly prefixes: readonly string[];
  };
  readonly messages?: {
    readonly organization: { readonly id: string; readonly name: string; readonly messages: number };
    readonly email: string;
  };
  readonly web: WebReport;
  readonly addresses?: Omit<AddressBenchData, 'prefixes' | 'pieces'>;
}

interface Verdict {
  readonly goal: Goal;
  readonly value: number | undefined;
  readonly pass: boolean | undefined;
  readonly note?: string;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const grouped = (value: number) => Math.round(value).toLocaleString('en-US');

function table(header: readonly string[], rows: readonly (readonly string[])[], rightAligned: readonly number[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (rightAligned.includes(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

function evaluate(report: Report): Verdict[] {
  return goals(report).map((goal) => {
    const reason = goal.skip?.(report);
    if (reason) return { goal, value: goal.measure(report), pass: undefined, note: reason };
    const value = goal.measure(report);
    if (value === undefined || Number.isNaN(value)) return { goal, value: undefined, pass: undefined, note: 'not measured' };
    const pass = goal.op === '<' ? value < goal.target : goal.op === '<=' ? value <= goal.target : value >= goal.target;
    return { goal, value, pass };
  });
}

function print(report: Report, verdicts: readonly Verdict[]): void {
  const { options, seed, memory } = report;
  console.log(
    `\nLoad: closed loop, ${options.concurrency} concurrent, ${fixed(options.warmupMs / 1000, 1)} s warm-up + ${fixed(options.durationMs / 1000, 1)} s per scenario, at most ${grouped(options.maxRequests)} requests; latency in ms.`,
  );
  console.log(
    seed.reused
      ? `Data: ${grouped(seed.loans)} loans reused from ${options.dataDir ?? 'the data folder'} (not seeded this run).\n`
      : `Seed: ${grouped(seed.loans)} loans in ${fixed(seed.seconds, 2)} s (${grouped(seed.loansPerSecond)} loans/s).\n`,
  );
  if (report.admin) {
    const added = seed.scale && seed.scale.addedUsers + seed.scale.addedOrganizations > 0 ? seed.scale : undefined;
    console.log(
      `Administration: ${grouped(report.admin.organizations)} organizations, ${grouped(report.admin.users)} users` +
        `${added ? ` (${grouped(added.addedOrganizations)} and ${grouped(added.addedUsers)} added in ${fixed(added.seconds, 1)} s)` : ''}; ` +
        `users page of ${report.admin.organization.name} (${grouped(report.admin.organization.users)} members).\n`,
    );
  }
  const rows = report.results.map((result) => [
    result.name,
    grouped(result.count),
    fixed(result.requestsPerSecond, 0),
    fixed(result.p50, 2),
    fixed(result.p95, 2),
    fixed(result.p99, 2),
    fixed(result.max, 2),
    String(result.errors) + (result.capped ? ' (capped)' : ''),
  ]);
  for (const skipped of report.skipped) rows.push([skipped.name, '-', '-', '-', '-', '-', '-', skipped.reason]);
  console.log(table(['scenario', 'requests', 'req/s', 'p50', 'p95', 'p99', 'max', 'errors'], rows, [1, 2, 3, 4, 5, 6]));
  for (const result of report.results) {
    if (result.errorSamples.length > 0) console.log(`  ${result.name} errors: ${result.errorSamples.join('; ')}`);
  }
  const bareCpu = scenario(report, BARE_CPU_SCENARIO)?.serverCpuMicrosPerCall;
  const barePgCpu = scenario(report, BARE_PG_CPU_SCENARIO)?.serverCpuMicrosPerCall;
  const listRows = (report.assets?.views ?? []).map((view) => {
    const [cached, uncached, sql] = ['', UNCACHED_SUFFIX, SQL_SUFFIX].map((suffix) => scenario(report, view.name + suffix)?.p95);
    const ratio = (api: number | undefined) => (api === undefined || sql === undefined || !(sql > 0) ? '-' : `${fixed(api / sql, 2)}x`);
    const floorRatio = (micros: number | undefined) =>
      micros === undefined || barePgCpu === undefined || !(barePgCpu > 0) ? '-' : `${fixed(micros / barePgCpu, 2)}x`;
    const cpu = (suffix: string) => {
      const micros = scenario(report, view.name + suffix)?.serverCpuMicrosPerCall;
      return micros === undefined ? '-' : `${fixed(micros, 0)}${bareCpu ? ` (${fixed(micros / bareCpu, 2)}x)` : ''}`;
    };
    return [
      view.name.replace('list: ', ''),
      fixed(cached ?? Number.NaN, 2),
      fixed(uncached ?? Number.NaN, 2),
      fixed(sql ?? Number.NaN, 2),
      cpu(''),
      cpu(UNCACHED_SUFFIX),
      floorRatio(scenario(report, view.name + UNCACHED_SUFFIX)?.serverCpuMicrosPerCall),
      ratio(cached),
      ratio(uncached),
    ];
  });
  if (listRows.length > 0) {
    console.log(
      '\nList views, p95 in ms: the API with its page cache (as deployed), without it (a first look), and the raw SQL; ' +
        `the server's CPU per call in µs, its idle CPU subtracted (x the bare Fastify + zod route's ${bareCpu === undefined ? '-' : fixed(bareCpu, 0)} µs); ` +
        `the uncached CPU over the bare route with one PostgreSQL query (${barePgCpu === undefined ? '-' : fixed(barePgCpu, 0)} µs); ` +
        'API/SQL for information.',
    );
    console.log(
      table(
        ['view', 'API', 'API, cache off', 'SQL', 'CPU/call', 'CPU/call, cache off', 'cache off/pg floor', 'API/SQL', 'cache off/SQL'],
        listRows,
        [1, 2, 3, 4, 5, 6, 7, 8],
      ),
    );
  }

  const mb = (bytes: number) => `${fixed(bytes / MB, 1)} MB`;
  // The seed ran in this process before the server started: 'before load' includes what it left.
  console.log('\nServer process memory (process.memoryUsage(); the seed ran in this process before the server started):');
  console.log(
    table(
      ['when', 'rss', 'heap used', 'heap total', 'external'],
      [
        ['at start', mb(memory.atStart.rss), mb(memory.atStart.heapUsed), mb(memory.atStart.heapTotal), mb(memory.atStart.external)],
        [
          'before load',
          mb(memory.beforeLoad.rss),
          mb(memory.beforeLoad.heapUsed),
          mb(memory.beforeLoad.heapTotal),
          mb(memory.beforeLoad.external),
        ],
        ['after load', mb(memory.after.rss), mb(memory.after.heapUsed), mb(memory.after.heapTotal), mb(memory.after.external)],
      ],
      [1, 2, 3, 4],
    ),
  );

  printAssets(report);
  printWeb(report);

  console.log('\nGoals:');
  console.log(
    table(
      ['goal', 'target', 'measured', 'verdict'],
      verdicts.map(({ goal, value, pass, note }) => {
        const unit = goal.unit ? ` ${goal.unit}` : '';
        const digits = goal.unit === 'x' ? 2 : 1;
        const shown = value === undefined ? '-' : ['ms', 'MB', 'kB', 'x', '%'].includes(goal.unit) ? fixed(value, digits) : grouped(value);
        const target = goal.unit === 'x' ? fixed(goal.target, 1) : grouped(goal.target);
        const verdict = pass === undefined ? `SKIP${note ? ` (${note})` : ''}` : pass ? 'PASS' : 'FAIL';
        return [goal.label, `${goal.op} ${target}${unit}`, `${shown}${value === undefined ? '' : unit}`, verdict];
      }),
      [2],
    ),
  );
  if (!isDefault(report.options)) console.log('(The account goals are calibrated for the default loans, concurrency and duration.)');
}

function printAssets(report: Report): void {
  const assets = report.assets;
  if (!assets) return;
  const { organization, searchTerms } = assets;
  console.log(
    `\nAssets of the largest organization: ${organization.name} (${grouped(organization.loans)} loans), as ${assets.email}; ` +
      `search terms '${searchTerms.lastName}' (last name), '${searchTerms.street}' (street).`,
  );
  console.log(
    table(
      ['list view', 'matching', 'API p95', 'SQL p95', 'API/SQL'],
      assets.views.map((view) => {
        const api = scenario(report, view.name)?.p95 ?? Number.NaN;
        const sql = scenario(report, view.name + SQL_SUFFIX)?.p95 ?? Number.NaN;
        return [view.name, grouped(view.totalCount), fixed(api, 2), fixed(sql, 2), `${fixed(api / sql, 2)}x`];
      }),
      [1, 2, 3, 4],
    ),
  );
  const csv = assets.csv;
  if (csv) {
    console.log(
      `CSV of the whole set: ${grouped(csv.rows)} rows, ${fixed(csv.bytes / MB, 1)} MB in ${fixed(csv.seconds, 2)} s ` +
        `(${grouped(csv.rowsPerSecond)} rows/s); server RSS ${fixed(csv.rssBeforeMb, 1)} MB before, peak ${fixed(csv.rssPeakMb, 1)} MB ` +
        `(+${fixed(csv.rssGrowthMb, 1)} MB, ${csv.rssSamples} samples).`,
    );
  }
}

function printWeb(report: Report): void {
  const js = report.web.initialJs;
  if (js) {
    const kb = (bytes: number) => `${fixed(bytes / 1000, 1)} kB`;
    console.log('\nInitial JavaScript (entry chunk and its static imports, dist/.vite/manifest.json):');
    console.log(
      table(
        ['file', 'raw', 'gzip', 'brotli'],
        [
          ...js.files.map((file) => [file.file, kb(file.bytes), kb(file.gzipBytes), kb(file.brotliBytes)]),
          ['total', kb(js.bytes), kb(js.gzipBytes), kb(js.brotliBytes)],
        ],
        [1, 2, 3],
      ),
    );
  }
  if (report.web.lighthouse) {
    console.log('');
    printLighthouse(report.web.lighthouse);
  }
}

// ---------------------------------------------------------------------------------------------

/** The process's resident set size in bytes, from /proc/<pid>/status (VmRSS); Node's own figure elsewhere. */
function residentBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux: fall through.
  }
  return process.memoryUsage().rss;
}

/** --only: the scenarios to run (set once in main). */
let onlyScenarios: string | undefined;
const isSelected = (name: string) => onlyScenarios === undefined || name.toLowerCase().includes(onlyScenarios);

async function runScenario(
  client: LoadClient,
  spec: ScenarioSpec,
  options: LoadOptions,
  results: CpuMeasured[],
  measure: { readonly serverCpu?: boolean; readonly always?: boolean } = {},
): Promise<void> {
  if (!measure.always && !isSelected(spec.name)) return;
  process.stdout.write(`  ${spec.name}...`);
  // The servers run in this process, and only the one under load is busy: its CPU is ours, less
  // what the process spends with no call (measured just before, subtracted pro rata).
  const idle = measure.serverCpu ? await idleCpu() : undefined;
  const cpuBefore = ownCpuMs();
  const started = performance.now();
  const result = await client.run(spec, options);
  const run = { cpuMs: ownCpuMs() - cpuBefore, elapsedMs: performance.now() - started };
  const micros = idle ? cpuMicrosPerCall(run, result.count + (result.warmupCount ?? 0), idle) : undefined;
  results.push(micros === undefined ? result : { ...result, serverCpuMicrosPerCall: micros });
  process.stdout.write(
    ` ${grouped(result.count)} ${spec.kind === 'sql' ? 'runs' : 'requests'}, p95 ${fixed(result.p95, 2)} ms` +
      `${micros === undefined || !idle ? '' : `, server CPU ${fixed(micros, 0)} µs/call (idle ${fixed((idle.cpuMs / idle.elapsedMs) * 1000, 1)} ms/s subtracted)`}\n`,
  );
}

/** The stress scenarios in STRESS_ROUNDS turns (see there), each reported as one merged result. */
async function runStressRounds(client: LoadClient, specs: readonly ScenarioSpec[], options: LoadOptions, results: LoadResult[]) {
  const selected = specs.filter((spec) => isSelected(spec.name));
  const rounds = new Map<string, LoadResult[]>(selected.map((spec) => [spec.name, []]));
  const slice: LoadOptions = { ...options, durationMs: options.durationMs / STRESS_ROUNDS };
  for (let round = 1; round <= STRESS_ROUNDS; round++) {
    process.stdout.write(`  stress round ${round}/${STRESS_ROUNDS}:`);
    for (const spec of selected) {
      const result = await client.run(spec, slice);
      rounds.get(spec.name)?.push(result);
      process.stdout.write(` ${spec.name.replace('stress: ', '')} ${grouped(Math.round(result.requestsPerSecond))}/s;`);
    }
    process.stdout.write('\n');
  }
  for (const spec of selected) results.push(mergeRounds(rounds.get(spec.name) ?? []));
}

/**
 * The asset scenarios on the organization with the most loans: every list view over HTTP then as
 * raw SQL, details and events, and the whole-set CSV while sampling the server's RSS (the server
 * runs in this process: its pid is ours).
 */
async function runAssets(
  client: LoadClient,
  loadOptions: LoadOptions,
  baseUrl: string,
  uncachedUrl: string,
  connectionString: string,
  session: Session,
  results: LoadResult[],
  skipped: { name: string; reason: string }[],
): Promise<AssetsReport | undefined> {
  const data = await loanBenchData(connectionString);
  if (!data) {
    skipped.push({ name: 'asset scenarios', reason: 'no organization holds loans' });
    return undefined;
  }
  console.log(`Assets: ${data.participantName} (${grouped(data.loans)} loans), signed in as ${data.email}.`);
  const cookie = data.email === session.email ? session.cookie : (await signIn(baseUrl, data.email)).cookie;
  const auth = { cookie };
  const views: { name: string; totalCount: number }[] = [];
  // The yardstick: the bare route's CPU per call, measured the same way in the same run.
  if (listViews(data).some((view) => isSelected(view.name))) {
    // The floor of an uncached read answers the size of the real first page.
    const [first] = listViews(data);
    const firstRequest = first ? listRequest(baseUrl, auth, data, first) : undefined;
    const answer = firstRequest
      ? await fetch(firstRequest.url, { headers: firstRequest.headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).then((r) =>
          r.text(),
        )
      : '{}';
    const bare = await startBareServer(HOST, { connectionString, answer });
    try {
      await runScenario(client, bareScenario(BARE_CPU_SCENARIO, bare.url), loadOptions, results, { serverCpu: true, always: true });
      await runScenario(client, barePgScenario(BARE_PG_CPU_SCENARIO, bare.url), loadOptions, results, { serverCpu: true, always: true });
      await runScenario(client, barePgSlowScenario(BARE_PG_SLOW_CPU_SCENARIO, bare.url), loadOptions, results, {
        serverCpu: true,
        always: true,
      });
    } finally {
      await bare.close();
    }
  }
  for (const view of listViews(data)) {
    const request = listRequest(baseUrl, auth, data, view);
    // One request first: the route must answer, and its count sizes the SQL side's page window.
    const probe = await fetch(request.url, { headers: request.headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = await probe.text();
    const parsed = probe.status === 200 ? loanListSchema.safeParse(JSON.parse(body)) : undefined;
    if (!parsed?.success) {
      skipped.push({ name: view.name, reason: `GET answered ${probe.status}: ${body.slice(0, 120)}` });
      continue;
    }
    const totalCount = parsed.data.totalCount;
    await runScenario(client, httpScenario(view.name, request), loadOptions, results, { serverCpu: true });
    await runScenario(client, httpScenario(view.name + UNCACHED_SUFFIX, listRequest(uncachedUrl, auth, data, view)), loadOptions, results, {
      serverCpu: true,
    });
    await runScenario(
      client,
      sqlScenario(view.name + SQL_SUFFIX, connectionString, listStatements(data, view, totalCount)),
      loadOptions,
      results,
    );
    views.push({ name: view.name, totalCount });
  }
  await runScenario(client, detailsScenario(baseUrl, auth, data), loadOptions, results);

  const rows = views.find((view) => view.name === 'list: first page')?.totalCount;
  let csv: CsvReport | undefined;
  if (!isSelected('CSV')) {
    skipped.push({ name: 'CSV', reason: 'not selected by --only' });
  } else if (rows === undefined) {
    skipped.push({ name: 'CSV', reason: 'the list did not answer' });
  } else {
    process.stdout.write(`  CSV of ${grouped(rows)} rows...`);
    const before = residentBytes(process.pid);
    let peak = before;
    let samples = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentBytes(process.pid));
      samples++;
    }, 20);
    let downloaded: DownloadResult;
    try {
      downloaded = await client.download({
        url: baseUrl + PATHS.loans,
        headers: { ...auth, accept: 'text/csv', [PARTICIPANT_HEADER]: data.participantId },
        timeoutMs: CSV_TIMEOUT_MS,
      });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, residentBytes(process.pid));
    const seconds = downloaded.elapsedMs / 1000;
    // Every row ends with a line feed (cells may hold more): fewer means rows are missing.
    const complete = downloaded.status === 200 && downloaded.lineFeeds >= rows + 1;
    if (!complete) skipped.push({ name: 'CSV', reason: `status ${downloaded.status}, ${downloaded.lineFeeds} lines for ${rows} rows` });
    csv = {
      status: downloaded.status,
      rows: complete ? rows : 0,
      bytes: downloaded.bytes,
      lineFeeds: downloaded.lineFeeds,
      seconds,
      rowsPerSecond: complete && seconds > 0 ? rows / seconds : 0,
      rssBeforeMb: before / MB,
      rssPeakMb: peak / MB,
      rssGrowthMb: (peak - before) / MB,
      rssSamples: samples,
    };
    process.stdout.write(` ${fixed(seconds, 2)} s, ${grouped(csv.rowsPerSecond)} rows/s, RSS +${fixed(csv.rssGrowthMb, 1)} MB\n`);
  }
  return {
    organization: { id: data.participantId, name: data.participantName, loans: data.loans },
    email: data.email,
    searchTerms: data.searchTerms,
    views,
    ...(csv ? { csv } : {}),
  };
}

/**
 * The administration scenarios (scripts/bench-admin.ts): the reads at the run's concurrency, then
 * the creations one at a time, a warm-up apart (each creation needs an email of its own, so the
 * warm-up cannot replay the measured requests), and the people they made removed afterwards.
 */
async function runAdmin(
  client: LoadClient,
  loadOptions: LoadOptions,
  baseUrl: string,
  connectionString: string,
  session: Session,
  results: LoadResult[],
  skipped: { name: string; reason: string }[],
): Promise<Report['admin']> {
  const data = await adminBenchData(connectionString);
  if (!data) {
    for (const name of Object.values(ADMIN_SCENARIOS)) skipped.push({ name, reason: 'no organization has an ORG_ADMIN who can sign in' });
    return undefined;
  }
  console.log(
    `Administration: ${grouped(data.organizations)} organizations, ${grouped(data.users)} users; ` +
      `${data.organization.name} has the most members (${grouped(data.organization.users)}), signed in as ${data.organizationAdmin}; ` +
      `suggestions for ${data.prefixes.join(', ')}.`,
  );
  const cookieFor = async (user: string) => (user === session.email ? session.cookie : (await signIn(baseUrl, user)).cookie);
  const cookies = { staff: await cookieFor(data.staff), organizationAdmin: await cookieFor(data.organizationAdmin) };
  for (const spec of adminReadScenarios(baseUrl, cookies, data)) {
    if (!isSelected(spec.name)) continue;
    // One request first: a route that does not answer 200 is reported as skipped, not measured as errors.
    const request = spec.groups[0]?.[0];
    const probe = request
      ? await fetch(request.url, { headers: request.headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
      : undefined;
    const body = probe ? await probe.text() : '';
    if (probe?.status !== 200) {
      skipped.push({ name: spec.name, reason: `GET answered ${probe?.status}: ${body.slice(0, 120)}` });
      continue;
    }
    await runScenario(client, spec, loadOptions, results);
  }
  const name = ADMIN_SCENARIOS.createUser;
  if (isSelected(name)) {
    const removed = await removeInvitees(connectionString);
    if (removed > 0) console.log(`  removed ${removed} people an earlier run invited`);
    try {
      // At a few milliseconds each, one at a time: enough emails for the whole run.
      const perPhase = (ms: number) => Math.max(1, Math.ceil(ms / 2));
      const probe = await probeCreateUser(createUserScenario(name, baseUrl, cookies.organizationAdmin, data, 0, 1, 201));
      if (probe.status < 200 || probe.status > 299) {
        skipped.push({ name, reason: `POST answered ${probe.status}: ${probe.body.slice(0, 120)}` });
      } else {
        const writes = { ...loadOptions, concurrency: 1, warmupMs: 0 };
        const warmup = perPhase(loadOptions.warmupMs);
        if (loadOptions.warmupMs > 0) {
          const spec = createUserScenario(`${name} (warm-up)`, baseUrl, cookies.organizationAdmin, data, 1, warmup, probe.status);
          await client.run(spec, { ...writes, durationMs: loadOptions.warmupMs, maxRequests: warmup });
        }
        const measured = perPhase(loadOptions.durationMs);
        const spec = createUserScenario(name, baseUrl, cookies.organizationAdmin, data, 1 + warmup, measured, probe.status);
        await runScenario(client, spec, { ...writes, maxRequests: Math.min(measured, loadOptions.maxRequests) }, results);
      }
    } finally {
      await removeInvitees(connectionString);
    }
  }
  return {
    organizations: data.organizations,
    users: data.users,
    organization: data.organization,
    organizationAdmin: data.organizationAdmin,
    prefixes: data.prefixes,
  };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2), process.env);
  onlyScenarios = options.only;
  const startedAt = new Date();
  const atStart = process.memoryUsage();
  exitOnSignals();
  // The watchdog: nothing here may run unbounded (seeding budget: 200 loans/s at worst; 6 account
  // scenarios, 2 per list view and the details; the CSV; Lighthouse).
  // (+ 1: the bare route's CPU yardstick) + the two document reads, + deactivation (run, processing), + the four message scenarios and the transfers they prepare
  // + the four administration scenarios (the creation's warm-up apart).
  const scenarioCount = 6 + 1 + 3 * (LOAN_SORT_COLUMNS.length + 8) + 1 + 2 + 2 + 5 + 5;
  const budgetMs =
    180_000 +
    (options.loans / 200) * 1000 +
    // The administration's scale: about 15 s for 200,000 users on the 2-core machine; 10x headroom.
    ((options.users ?? 0) / 1_500) * 1000 +
    scenarioCount * (options.warmupMs + options.durationMs + 2 * REQUEST_TIMEOUT_MS + 10_000) +
    VITE_BUILD_TIMEOUT_MS +
    CSV_TIMEOUT_MS +
    2 * ZIP_TIMEOUT_MS +
    (options.lighthouse ? LIGHTHOUSE_BUDGET_MS : 0) +
    Object.keys(STRESS_SCENARIOS).length *
      (options.stressDurationMs + STRESS_ROUNDS * (options.warmupMs + 2 * REQUEST_TIMEOUT_MS + 10_000));
  const watchdog = setTimeout(() => {
    console.error(`The benchmark took longer than ${Math.round(budgetMs / 1000)} s: stopping.`);
    void releaseAll().finally(() => process.exit(1));
  }, budgetMs);
  watchdog.unref();

  let dataDir: string;
  if (options.dataDir) {
    dataDir = options.dataDir;
    if (!fs.existsSync(dataDir)) {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.chmodSync(dataDir, 0o755);
    }
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-'));
    // As root, PostgreSQL runs as the 'postgres' user and must be able to enter the folder.
    fs.chmodSync(dataDir, 0o755);
    onRelease('the temporary folder', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  }

  console.log(`Starting embedded PostgreSQL in ${dataDir}...`);
  const embedded: EmbeddedDatabase = await startEmbeddedPostgres(dataDir);
  onRelease('PostgreSQL', () => embedded.stop());

  console.log(`Migrating${embedded.initialized || !options.dataDir ? ` and seeding ${grouped(options.loans)} loans` : ''}...`);
  const scale =
    options.organizations !== undefined || options.users !== undefined
      ? {
          ...(options.organizations !== undefined ? { organizations: options.organizations } : {}),
          ...(options.users !== undefined ? { users: options.users } : {}),
        }
      : undefined;
  const seedReport = await prepareDatabase(embedded, dataDir, options.loans, scale);
  console.log(
    seedReport.reused
      ? `Reusing ${grouped(seedReport.loans)} loans in ${dataDir}${seedReport.loans !== options.loans ? ` (--loans ${grouped(options.loans)} not applied)` : ''}.`
      : `Seeded ${grouped(seedReport.loans)} loans in ${fixed(seedReport.seconds, 2)} s (${grouped(seedReport.loansPerSecond)} loans/s).`,
  );

  const config = parseConfig({
    NODE_ENV: 'production',
    HOST,
    PORT: '0',
    // The server runs as the application role (no ownership, rows only), as npm start does.
    DATABASE_URL: embedded.applicationConnectionString(),
    MIGRATION_DATABASE_URL: embedded.connectionString(),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    STATIC_DIR: path.join(root, 'dist'),
    // Every sign-in scenario request is an attempt from 127.0.0.1: the default 10/min would refuse them.
    SIGN_IN_RATE_LIMIT: '100000000',
    // ...and the same account 16 times at once: the per-account throttle counts attempts in flight.
    SIGN_IN_ACCOUNT_LIMIT: '1000',
    // ...each one a new session of that identity: the default cap of 10 would end the session the
    // other scenarios use.
    MAX_SESSIONS_PER_IDENTITY: '1000',
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
  const results: CpuMeasured[] = [];
  for (const spec of scenarios(server.url, session, email)) {
    if (skipped.some((entry) => entry.name === spec.name)) continue;
    await runScenario(client, spec, loadOptions, results);
  }
  // The list views also on a server without the page cache, on the same database and sessions.
  const uncachedServer: RunningServer = await startServer({ ...config, loanPageCacheMb: 0 }, { log: () => undefined });
  onRelease('the server without the page cache', () => uncachedServer.close());
  const assets = await runAssets(
    client,
    loadOptions,
    server.url,
    uncachedServer.url,
    embedded.connectionString(),
    session,
    results,
    skipped,
  );
  // One 200 KB PDF, inserted once per data folder (scripts/bench-documents.ts).
  const benchDocument = await prepareBenchDocument(embedded.connectionString());
  if (!benchDocument) skipped.push({ name: DOCUMENT_READ_SCENARIO, reason: 'no organization holds loans' });
  else {
    console.log(
      `Document: ${grouped(benchDocument.sizeBytes)} bytes on loan ${benchDocument.loanId}${benchDocument.inserted ? ' (inserted)' : ''}.`,
    );
    const cookie = benchDocument.email === session.email ? session.cookie : (await signIn(server.url, benchDocument.email)).cookie;
    for (const spec of documentScenarios(server.url, cookie, benchDocument)) await runScenario(client, spec, loadOptions, results);
  }
  // Deactivation submits with a 10 MB PDF on loans made for them (scripts/bench-deactivation.ts).
  if (isSelected(DEACTIVATION_SCENARIO)) {
    const deactivation = await runDeactivationBench({
      connectionString: embedded.connectionString(),
      baseUrl: server.url,
      cookieFor: async (user) => (user === session.email ? session.cookie : (await signIn(server.url, user)).cookie),
      options: { warmupMs: options.warmupMs, durationMs: options.durationMs, timeoutMs: REQUEST_TIMEOUT_MS },
    });
    if (deactivation.result) results.push(deactivation.result);
    else skipped.push({ name: DEACTIVATION_SCENARIO, reason: deactivation.skipped ?? 'did not run' });
    if (deactivation.unprocessed) console.log(`  ${deactivation.unprocessed} deactivation request(s) still unprocessed after 60 s.`);
  }
  // The inbox of the organization with the most messages: two reads at the run's
  // concurrency, then a bulk update and transfer confirms (scripts/bench-messages.ts).
  let messages: Report['messages'];
  if (Object.values(MESSAGE_SCENARIOS).some(isSelected)) {
    const data = await messageBenchData(embedded.connectionString());
    if (!data) {
      for (const name of Object.values(MESSAGE_SCENARIOS))
        if (isSelected(name)) skipped.push({ name, reason: 'no organization has messages' });
    } else {
      console.log(`Messages: ${data.participantName} (${grouped(data.messages)} messages), signed in as ${data.email}.`);
      messages = { organization: { id: data.participantId, name: data.participantName, messages: data.messages }, email: data.email };
      const cookieFor = async (user: string) => (user === session.email ? session.cookie : (await signIn(server.url, user)).cookie);
      for (const spec of messageReadScenarios(server.url, await cookieFor(data.email), data))
        await runScenario(client, spec, loadOptions, results);
      const writes = await runMessageWrites({
        connectionString: embedded.connectionString(),
        baseUrl: server.url,
        data,
        cookieFor,
        selected: isSelected,
        options: { warmupMs: options.warmupMs, durationMs: options.durationMs, timeoutMs: REQUEST_TIMEOUT_MS },
      });
      results.push(...writes.results);
      skipped.push(...writes.skipped);
    }
  }
  // The administration at scale: three reads at the run's concurrency, then user creations one at
  // a time (scripts/bench-admin.ts). Only when asked: --organizations/--users, or --only admin.
  let admin: Report['admin'];
  const adminAsked = scale !== undefined || (onlyScenarios !== undefined && Object.values(ADMIN_SCENARIOS).some(isSelected));
  if (adminAsked && Object.values(ADMIN_SCENARIOS).some(isSelected)) {
    admin = await runAdmin(client, loadOptions, server.url, embedded.connectionString(), session, results, skipped);
  }
  // 50 connections for 30 s on users/me, the asset list and the message list, and a bare
  // Fastify + zod route in this process beside them (scripts/bench-stress.ts).
  if (Object.values(STRESS_SCENARIOS).some(isSelected)) {
    const bare = await startBareServer(HOST);
    onRelease('the bare Fastify server', () => bare.close());
    const cookieFor = async (user: string) => (user === session.email ? session.cookie : (await signIn(server.url, user)).cookie);
    const loanData = await loanBenchData(embedded.connectionString());
    const messageData = await messageBenchData(embedded.connectionString());
    const stressOptions: LoadOptions = {
      concurrency: options.stressConcurrency,
      warmupMs: options.warmupMs,
      durationMs: options.stressDurationMs,
      maxRequests: LIMITS.maxRequests,
      timeoutMs: REQUEST_TIMEOUT_MS,
    };
    const specs = stressScenarios({
      baseUrl: server.url,
      bareUrl: bare.url,
      usersMe: { cookie: session.cookie, participantId: session.participantId },
      ...(loanData ? { loans: { cookie: await cookieFor(loanData.email), data: loanData } } : {}),
      ...(messageData ? { messages: { cookie: await cookieFor(messageData.email), data: messageData } } : {}),
    });
    await runStressRounds(client, specs, stressOptions, results);
  }
  // The address autocomplete: starts and middle pieces of addresses (scripts/bench-addresses.ts).
  let addresses: Report['addresses'];
  if (isSelected(ADDRESS_SCENARIO)) {
    const { prefixes, pieces, ...data } = await addressBenchData(embedded.connectionString());
    addresses = data;
    console.log(
      `Addresses: ${grouped(data.rows)} in the reference table` +
        `${data.filled ? ` (filled by the seed's statement in ${fixed(data.filled.seconds, 1)} s)` : ''}; e.g. ${[prefixes[0], pieces[0]].join(', ')}.`,
    );
    await runScenario(client, addressYardstick(server.url), loadOptions, results, { serverCpu: true });
    await runScenario(client, addressScenario(server.url, { ...data, prefixes, pieces }), loadOptions, results, { serverCpu: true });
  }
  // A batch download of 1,000 loans' 200 KB assignments, built by the job runner, then streamed.
  let zip: ZipBenchReport | undefined;
  if (isSelected(ZIP_SCENARIO)) {
    process.stdout.write(`  ${ZIP_SCENARIO}...`);
    const outcome = await runZipBench({
      connectionString: embedded.connectionString(),
      baseUrl: server.url,
      cookieFor: async (user) => (user === session.email ? session.cookie : (await signIn(server.url, user)).cookie),
      download: (spec) => client.download(spec),
      residentBytes: () => residentBytes(process.pid),
    });
    zip = outcome.report;
    if (!zip) skipped.push({ name: ZIP_SCENARIO, reason: outcome.skipped ?? 'did not run' });
    process.stdout.write(
      zip
        ? ` ${grouped(zip.documents)} documents, ${fixed(zip.zipBytes / MB, 1)} MB built in ${fixed(zip.buildSeconds, 2)} s, ` +
            `streamed in ${fixed(zip.streamSeconds, 2)} s (${fixed(zip.streamMbPerSecond, 1)} MB/s); server RSS ${fixed(zip.rssBeforeMb, 1)} MB ` +
            `before, peak ${fixed(zip.rssPeakMb, 1)} MB (+${fixed(zip.rssGrowthMb, 1)} MB; ${fixed(zip.rssBuildPeakMb, 1)} MB while building)` +
            `${zip.insertedDocuments > 0 ? `; ${grouped(zip.insertedDocuments)} documents inserted first` : ''}\n`
        : ` skipped: ${outcome.skipped}\n`,
    );
  }
  // An online backup while the server runs, then its restore into a scratch folder beside the data.
  let backup: BackupBenchReport | undefined;
  if (isSelected(BACKUP_SCENARIO)) {
    process.stdout.write(`  ${BACKUP_SCENARIO}...`);
    const scratch = `${dataDir.replace(/\/+$/, '')}-backup-bench`;
    onRelease('the backup scratch folder', () => fs.rmSync(scratch, { recursive: true, force: true }));
    backup = await runBackupBench(dataDir, scratch);
    process.stdout.write(
      ` ${fixed(backup.dataBytes / MB, 0)} MB of data in ${grouped(backup.files)} files, backed up in ${fixed(backup.backupSeconds, 1)} s ` +
        `to ${fixed(backup.fileBytes / MB, 0)} MB, restored in ${fixed(backup.restoreSeconds, 1)} s\n`,
    );
  }
  // A loan tape of 400,000 rows against the largest organization, compared by the job runner.
  let reconcile: ReconcileBenchReport | undefined;
  if (isSelected(RECONCILE_SCENARIO)) {
    process.stdout.write(`  ${RECONCILE_SCENARIO}...`);
    const outcome = await runReconcileBench({
      connectionString: embedded.connectionString(),
      baseUrl: server.url,
      cookieFor: async (user) => (user === session.email ? session.cookie : (await signIn(server.url, user)).cookie),
      residentBytes: () => residentBytes(process.pid),
    });
    reconcile = outcome.report;
    if (!reconcile) skipped.push({ name: RECONCILE_SCENARIO, reason: outcome.skipped ?? 'did not run' });
    process.stdout.write(
      reconcile
        ? ` ${grouped(reconcile.tapeRows)} rows (${fixed(reconcile.tapeBytes / MB, 1)} MB) against ${grouped(reconcile.organizationLoans)} loans: ` +
            `uploaded in ${fixed(reconcile.uploadSeconds, 2)} s, DONE in ${fixed(reconcile.seconds, 2)} s; ${JSON.stringify(reconcile.counts)}; ` +
            `server RSS ${fixed(reconcile.rssBeforeMb, 1)} MB before, peak ${fixed(reconcile.rssPeakMb, 1)} MB (+${fixed(reconcile.rssGrowthMb, 1)} MB)\n`
        : ` skipped: ${outcome.skipped}\n`,
    );
  }
  const after = process.memoryUsage();

  const web: { initialJs?: InitialJs; lighthouse?: LighthouseResult; messagesRender?: MessagesRenderResult } = {};
  await runMessagesRenderBench(server.url, email).then(
    (result) => (web.messagesRender = result),
    (error) => void skipped.push({ name: 'messages render', reason: String(error) }),
  );
  try {
    web.initialJs = initialJs(config.staticDir);
  } catch (error) {
    skipped.push({ name: 'initial JS', reason: error instanceof Error ? error.message : String(error) });
  }
  if (options.lighthouse) {
    console.log('  Lighthouse (desktop) on the asset list...');
    try {
      const cookie = (await signIn(server.url, assets?.email ?? email)).cookie;
      web.lighthouse = await runLighthouse(
        `${server.url}${BASE_PATH}${APP_PATHS.assets}`,
        cookie,
        options.outDir ? { outDir: options.outDir } : {},
      );
    } catch (error) {
      skipped.push({ name: 'Lighthouse', reason: error instanceof Error ? error.message : String(error) });
    }
  }

  const { outDir, ...reported } = options;
  const cpus = os.cpus();
  const report: Report = {
    startedAt: startedAt.toISOString(),
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? 'unknown',
      node: process.version,
      totalMemoryMb: Math.round(os.totalmem() / MB),
    },
    options: reported,
    seed: seedReport,
    results,
    skipped,
    memory: { atStart, beforeLoad, after },
    ...(assets ? { assets } : {}),
    ...(zip ? { zip } : {}),
    ...(backup ? { backup } : {}),
    ...(reconcile ? { reconcile } : {}),
    ...(messages ? { messages } : {}),
    ...(admin ? { admin } : {}),
    ...(addresses ? { addresses } : {}),
    web,
  };
  const verdicts = evaluate(report);
  print(report, verdicts);

  if (outDir) {
    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, `bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
    const goalsJson = verdicts.map(({ goal, value, pass, note }) => ({
      label: goal.label,
      unit: goal.unit,
      op: goal.op,
      target: goal.target,
      value,
      pass,
      note,
    }));
    fs.writeFileSync(file, `${JSON.stringify({ ...report, goals: goalsJson }, null, 2)}\n`);
    console.log(`\nResults written to ${path.relative(root, file)}`);
  }
  const failed = verdicts.filter((verdict) => verdict.pass === false);
  console.log(
    failed.length === 0
      ? '\nAll goals met.'
      : `\n${failed.length} goal(s) failed: ${failed.map((verdict) => verdict.goal.label).join(', ')}`,
  );
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
