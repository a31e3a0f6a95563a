// `npm run seed -- --loans N`: fills an empty database with the deterministic demo data, then
// prints the rows per table, the largest organization and the time taken. Uses MIGRATION_DATABASE_URL
// (the owner role) or else DATABASE_URL when set, else the embedded PostgreSQL in DATA_DIR (default
// .data) as its owner role. A million loans:
// `npm run seed -- --loans 1000000` (minutes, about 3 GB of disk). The administration at scale
// (3,000 organizations, 200,000 users; seconds): `npm run seed -- --organizations 3000 --users 200000`.
import { sql } from 'drizzle-orm';
import { connectDatabase, migrateDatabase, type DatabaseHandle } from '../src/server/db/database';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/server/db/embedded-postgres';
import { DEMO_ACCOUNTS, SEED_TABLES, seedDemoData } from '../src/server/seed';
import { DEMO_PASSWORD } from '../src/domain/constants';

const elapsed = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

interface SeedArgs {
  readonly loans: number;
  /** The administration's scale (src/server/seed/scale.ts): organizations and users in all, at least. */
  readonly organizations: number | undefined;
  readonly users: number | undefined;
}

const USAGE =
  'Usage: npm run seed -- [--loans N] [--organizations N] [--users N]\n' +
  '  --loans N           loans (default: SEED_LOANS or 2000)\n' +
  '  --organizations N   organizations in all, at least (the administration at scale; the added ones hold no loans)\n' +
  '  --users N           registry users in all, at least, with memberships spread over the organizations';

function wholeNumber(name: string, raw: string): number {
  const value = Number(raw.replaceAll('_', ''));
  if (raw.trim() === '' || !Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number >= 0, got '${raw}'`);
  return value;
}

function parseArgs(argv: readonly string[]): SeedArgs {
  const raw: Record<'loans' | 'organizations' | 'users', string | undefined> = {
    loans: process.env.SEED_LOANS ?? '2000',
    organizations: undefined,
    users: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    const match = /^--(loans|organizations|users)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`Unknown argument: ${arg}\n\n${USAGE}`);
    raw[match[1] as keyof typeof raw] = match[2] ?? argv[++i] ?? '';
  }
  return {
    loans: wholeNumber('--loans', raw.loans ?? ''),
    organizations: raw.organizations === undefined ? undefined : wholeNumber('--organizations', raw.organizations),
    users: raw.users === undefined ? undefined : wholeNumber('--users', raw.users),
  };
}

async function main(): Promise<void> {
  const { loans, organizations, users } = parseArgs(process.argv.slice(2));
  const scale = organizations !== undefined || users !== undefined ? { organizations, users } : undefined;
  const started = performance.now();
  let embedded: EmbeddedDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  try {
    // The seed drops and rebuilds indexes, truncates and vacuums: it needs the tables' owner.
    let url = process.env.MIGRATION_DATABASE_URL || process.env.DATABASE_URL;
    if (!url) {
      const dataDir = process.env.DATA_DIR ?? '.data';
      console.log(`Starting embedded PostgreSQL in ${dataDir}`);
      embedded = await startEmbeddedPostgres(dataDir);
      url = embedded.connectionString();
    }
    handle = connectDatabase(url, 2);
    await migrateDatabase(handle);
    const seedStarted = performance.now();
    const summary = await seedDemoData(handle.db, {
      loans,
      ...(scale ? { scale } : {}),
      log: (message) => console.log(`  ${message} [${elapsed(seedStarted)}]`),
    });
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    console.log('\nSeeded rows:');
    for (const table of SEED_TABLES) {
      const result = await handle.db.execute<{ count: number }>(sql.raw(`SELECT count(*)::int AS count FROM ${table}`));
      console.log(`  ${table.padEnd(24)} ${result.rows[0]?.count ?? 0}`);
    }
    const size = await handle.db.execute<{ size: string }>(sql`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`);
    console.log(`  ${'database size'.padEnd(24)} ${size.rows[0]?.size ?? '?'}`);
    const largest = summary.largestOrganization;
    console.log(`\nOrganizations: ${summary.organizations} (${summary.activeOrganizations} active).`);
    if (summary.scale) {
      const { scale: added } = summary;
      console.log(
        `Scale: ${added.addedUsers} users, ${added.addedMemberships} memberships added; ` +
          `the most members: ${added.largestOrganization.name} (${added.largestOrganization.users}).`,
      );
    }
    console.log(`Largest: ${largest.name} (${largest.code}), the admin's default organization, holds a role on ${largest.loans} loans.`);
    console.log(`\nDemo accounts (password '${DEMO_PASSWORD}'):`);
    for (const account of DEMO_ACCOUNTS) console.log(`  ${account.email.padEnd(28)} ${account.description}`);
    const rate = seedSeconds > 0 ? Math.round(loans / seedSeconds) : 0;
    console.log(
      `\nSeeded ${loans} loans in ${seedSeconds.toFixed(2)} s, ${rate} loans/s (total ${elapsed(started)} with start-up and migrations).`,
    );
  } finally {
    await handle?.close();
    await embedded?.stop();
  }
}

/** Database errors from drizzle carry the whole statement and its parameters: show the cause. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `\n  cause: ${error.cause.message}` : '';
  const message = error.message.length > 300 ? `${error.message.slice(0, 300)}...` : error.message;
  return message + cause;
}

// process.exit, not process.exitCode: embedded-postgres's exit hook (async-exit-hook) exits
// with 0 on beforeExit and would swallow a failure.
main().catch((error: unknown) => {
  console.error(describe(error));
  process.exit(1);
});
