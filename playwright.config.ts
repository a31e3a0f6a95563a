// Playwright against the real registry server (ARCHITECTURE.md section 7): Debian Chromium
// (scripts/ensure-browser.ts makes sure it exists), a fresh seeded embedded database per run.
import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT || 8181);
const origin = `http://127.0.0.1:${port}`;
// Each port gets its own data directory, so two runs on different ports never share a database.
const dataDir = process.env.E2E_PORT ? `.data-e2e-${port}` : '.data-e2e';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  // Two cores: one worker for the specs, the other for the server and its database.
  workers: Number(process.env.E2E_WORKERS || 1),
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: 'list',
  use: {
    baseURL: `${origin}/registry/`,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    // A fresh database every run: the demo seed only runs on an empty embedded database. The
    // suite signs in far more often than a person, so the sign-in rate limit is raised.
    command: `rm -rf ${dataDir} && PORT=${port} HOST=127.0.0.1 DATA_DIR=${dataDir} SEED_LOANS=300 SIGN_IN_RATE_LIMIT=1000 npx tsx scripts/start.ts`,
    url: `${origin}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
