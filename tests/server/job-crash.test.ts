// A batch download survives a crash: a real server (its own process group, with its embedded
// PostgreSQL) is killed with SIGKILL while the job runs, restarted on the same data folder, and the
// job completes with a whole zip.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobListSchema, jobSchema, ZIP_MANIFEST_FILE, type Job } from '../../src/contract/jobs';
import { PATHS } from '../../src/contract/paths';
import { DEMO_PASSWORD } from '../../src/domain/constants';
import { SESSION_COOKIE } from '../../src/server/identity/sessions';
import { parseCsv } from './support/csv-parse';
import { sha256, unzip } from './support/zip-fixtures';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-crash-'));
fs.chmodSync(dataDir, 0o755);
/** Each zipped document waits this long, so the job is still running when the server is killed. */
const STEP_DELAY_MS = 150;

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
}

const servers: ChildProcess[] = [];

function startServer(): Promise<Server> {
  const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['src/server/main.ts'], {
    cwd: root,
    // Its own process group: SIGKILL to the group takes the server and its PostgreSQL at once.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(dataDir, 'data'),
      HOST: '127.0.0.1',
      PORT: '0',
      SEED_LOANS: '200',
      SIGN_IN_RATE_LIMIT: '1000',
      STATIC_DIR: path.join(dataDir, 'no-dist'),
      JOB_TEST_DELAY_MS: String(STEP_DELAY_MS),
    },
  });
  servers.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /Loan registry running at (http:\/\/[^/\s]+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1] });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it started:\n${output}`)));
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, signal);
  } catch {
    return Promise.resolve();
  }
  return exited;
}

/** Live processes whose command line names this folder (Linux /proc). */
function processesUsing(folder: string): number {
  let count = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      if (commandLine.includes(folder) && !/^State:\s+Z/m.test(status)) count++;
    } catch {
      // The process ended while we looked.
    }
  }
  return count;
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}${PATHS.signIn}`, {
    method: 'POST',
    redirect: 'manual',
    // Writes without a same-origin Origin (or Referer) are refused; fetch in Node sends none.
    headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'admin@registry.test', password: DEMO_PASSWORD }).toString(),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error(`no session cookie (${response.status})`);
  return cookie;
}

async function jobOf(url: string, cookie: string, jobId: string): Promise<Job | undefined> {
  const response = await fetch(`${url}${PATHS.jobs}?type=BATCH_DOWNLOAD_AOMS`, { headers: { cookie } });
  if (!response.ok) throw new Error(`GET jobs: ${response.status}`);
  return jobListSchema.parse(await response.json()).find((job) => job.jobId === jobId);
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

afterAll(async () => {
  for (const child of servers) await killGroup(child, 'SIGKILL');
  // PostgreSQL outlives its killed server for a moment and writes autoprewarm.blocks as it stops:
  // wait until no process runs on the folder, then remove it.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && processesUsing(dataDir) > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

describe('a batch download job and a crash', () => {
  it('is finished after a kill -9 and restart, and its zip is whole', { timeout: 180_000 }, async () => {
    const first = await startServer();
    const cookie = await signIn(first.url);
    const started = await fetch(`${first.url}${PATHS.jobs}`, {
      method: 'POST',
      headers: { origin: first.url, cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'BATCH_DOWNLOAD_AOMS', filters: {} }),
    });
    expect(started.status).toBe(202);
    const job = jobSchema.parse(await started.json());
    expect(job.total).toBeGreaterThanOrEqual(8);

    // Kill the whole process group (server and PostgreSQL) once the job is part-way.
    let seen: Job | undefined;
    await waitFor(
      'the job to be part-way',
      async () => {
        seen = await jobOf(first.url, cookie, job.jobId);
        return seen?.status === 'RUNNING' && seen.progress >= 2;
      },
      60_000,
    );
    expect(seen?.progress).toBeLessThan(job.total);
    await killGroup(first.child, 'SIGKILL');
    // The killed PostgreSQL's processes take a moment to go; a start before that is refused as a
    // data folder in use (the server waits for them by itself).
    await waitFor('the killed PostgreSQL to exit', async () => processesUsing(path.join(dataDir, 'data')) === 0, 30_000);

    const second = await startServer();
    // The session survived too: it lives in the database.
    let finished: Job | undefined;
    await waitFor(
      'the job to finish after the restart',
      async () => {
        finished = await jobOf(second.url, cookie, job.jobId);
        return finished?.status === 'DONE' || finished?.status === 'FAILED';
      },
      90_000,
    );
    expect(finished).toMatchObject({ status: 'DONE', progress: job.total, total: job.total });

    const zipResponse = await fetch(`${second.url}${PATHS.documentsZip}?jobId=${job.jobId}`, { headers: { cookie } });
    expect(zipResponse.status).toBe(200);
    const files = await unzip(Buffer.from(await zipResponse.arrayBuffer()));
    const manifest = parseCsv(files.get(ZIP_MANIFEST_FILE)?.toString('utf8') ?? '')
      .slice(1)
      .filter((row) => row.length > 1);
    const leftOut = parseCsv(files.get('left-out.csv')?.toString('utf8') ?? '')
      .slice(1)
      .filter((row) => row.length > 1);
    expect(manifest.length + leftOut.length).toBe(job.total);
    for (const [uli, fileName, hash] of manifest) expect(sha256(files.get(`${uli}/${fileName}`) ?? Buffer.alloc(0))).toBe(hash);
    expect([...files.keys()].filter((name) => name.endsWith('.pdf'))).toHaveLength(manifest.length);

    await killGroup(second.child, 'SIGTERM');
  });
});
