// Lighthouse (desktop) on the asset list, signed in. Used by `npm run bench -- --lighthouse`, and
// on its own against a running server (`npm start` first):
//
//   npm run lighthouse -- [--url http://127.0.0.1:8080] [--email admin@registry.test] [--password ...]
//
// Lighthouse 13 needs Node 22, so this runs lighthouse@12 from npm (npx) with Debian Chromium
// (CHROME_PATH, default /usr/bin/chromium). The session cookie comes from the hosted sign-in
// page's form and reaches every request of the page through Lighthouse's extraHeaders.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { BASE_PATH, DEMO_PASSWORD } from '../src/domain/constants';

export const LIGHTHOUSE_PACKAGE = 'lighthouse@12.8.2';
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-background-networking';
const RUN_TIMEOUT_MS = 240_000;

export interface LighthouseResult {
  readonly url: string;
  /** Category scores, 0-100. */
  readonly performance: number;
  readonly accessibility: number;
  /** Audits that lowered a score (score < 1), with their titles, for the report. */
  readonly failingAudits: readonly { readonly category: string; readonly id: string; readonly title: string; readonly score: number }[];
  readonly metrics: Readonly<Record<string, number>>;
  readonly reportFile: string;
}

/** Signs in through the hosted sign-in page's form; answers the `name=value` session cookie. */
export async function signInCookie(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await fetch(baseUrl + PATHS.signIn, {
    method: 'POST',
    // Writes need a same-origin Origin (or Referer), as browsers send (plugins/security.ts).
    headers: { origin: new URL(baseUrl).origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, returnTo: `${BASE_PATH}${APP_PATHS.assets}` }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie()[0]?.split(';')[0];
  if (response.status !== 303 || !cookie) throw new Error(`Sign-in as ${email} answered ${response.status} without a session cookie`);
  return cookie;
}

interface LighthouseJson {
  readonly finalDisplayedUrl?: string;
  readonly runtimeError?: { readonly message: string };
  readonly categories: Record<
    string,
    { readonly score: number | null; readonly auditRefs: readonly { readonly id: string; readonly weight: number }[] }
  >;
  readonly audits: Record<string, { readonly title: string; readonly score: number | null; readonly numericValue?: number }>;
}

const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

/** Runs Lighthouse desktop (performance, accessibility) on a URL with a session cookie. */
export async function runLighthouse(url: string, cookie: string, options: { outDir?: string } = {}): Promise<LighthouseResult> {
  const outDir = options.outDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'registry-lighthouse-'));
  fs.mkdirSync(outDir, { recursive: true });
  const reportFile = path.join(outDir, `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const headersFile = path.join(outDir, 'lighthouse-headers.json');
  // A file, not the command line: the cookie stays out of the process list.
  fs.writeFileSync(headersFile, JSON.stringify({ Cookie: cookie }), { mode: 0o600 });
  const args = [
    '--yes',
    LIGHTHOUSE_PACKAGE,
    url,
    '--preset=desktop',
    '--only-categories=performance,accessibility',
    '--output=json',
    `--output-path=${reportFile}`,
    `--extra-headers=${headersFile}`,
    `--chrome-flags=${CHROME_FLAGS}`,
    '--quiet',
  ];
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('npx', args, {
        env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`Lighthouse took longer than ${RUN_TIMEOUT_MS / 1000} s`));
      }, RUN_TIMEOUT_MS);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (code === 0) resolve();
        else reject(new Error(`Lighthouse exited with ${code ?? signal}`));
      });
    });
  } finally {
    fs.rmSync(headersFile, { force: true });
  }
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as LighthouseJson;
  if (report.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${report.runtimeError.message}`);
  const score = (category: string) => Math.round((report.categories[category]?.score ?? 0) * 100);
  const failingAudits = Object.entries(report.categories).flatMap(([category, { auditRefs }]) =>
    auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => ({ ref, audit: report.audits[ref.id] }))
      .filter(({ audit }) => audit && audit.score !== null && audit.score < 1)
      .map(({ ref, audit }) => ({ category, id: ref.id, title: audit?.title ?? ref.id, score: audit?.score ?? 0 })),
  );
  const metrics = Object.fromEntries(METRICS.map((id) => [id, report.audits[id]?.numericValue ?? Number.NaN]));
  return { url, performance: score('performance'), accessibility: score('accessibility'), failingAudits, metrics, reportFile };
}

export function printLighthouse(result: LighthouseResult): void {
  console.log(`Lighthouse desktop on ${result.url}: performance ${result.performance}, accessibility ${result.accessibility}`);
  const ms = (id: string) => `${Math.round(result.metrics[id] ?? Number.NaN)} ms`;
  console.log(
    `  FCP ${ms('first-contentful-paint')}, LCP ${ms('largest-contentful-paint')}, TBT ${ms('total-blocking-time')}, ` +
      `CLS ${(result.metrics['cumulative-layout-shift'] ?? Number.NaN).toFixed(3)}, Speed Index ${ms('speed-index')}`,
  );
  for (const audit of result.failingAudits) console.log(`  ${audit.category}: ${audit.title} (${audit.id}, score ${audit.score})`);
  console.log(`  Report: ${result.reportFile}`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 && args[index + 1] ? (args[index + 1] as string) : fallback;
  };
  const baseUrl = option('url', `http://127.0.0.1:${process.env.PORT ?? '8080'}`).replace(/\/$/, '');
  const email = option('email', 'admin@registry.test');
  const cookie = await signInCookie(baseUrl, email, option('password', DEMO_PASSWORD));
  const result = await runLighthouse(`${baseUrl}${BASE_PATH}${APP_PATHS.assets}`, cookie, { outDir: option('out', 'bench-results') });
  printLighthouse(result);
  const pass = result.performance >= 95 && result.accessibility === 100;
  console.log(pass ? 'PASS: performance >= 95 and accessibility 100' : 'FAIL: performance >= 95 and accessibility 100 expected');
  process.exitCode = pass ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
