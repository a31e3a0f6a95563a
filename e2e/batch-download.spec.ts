// The batch download of assignment documents against the real server, its job runner and the
// seeded database: select assets, 'Download assignments', the Downloads progress bar while the
// job runs, the saved zip (one folder per loan, manifest SHA-256s that match the files), the
// toast, axe clean.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import yauzl from 'yauzl';
import type { Job } from '../src/contract/jobs';
import { ZIP_MANIFEST_FILE } from '../src/contract/jobs';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { BATCH_DOWNLOAD_TEXTS } from '../src/domain/texts';
import { ASSET_TEXTS } from '../src/domain/asset-texts';
import { expect, test } from './support/fixtures';

function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const files = new Map<string, Buffer>();
      file.on('end', () => resolve(files));
      file.on('error', reject);
      file.on('entry', (entry: yauzl.Entry) =>
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(parts));
            file.readEntry();
          });
        }),
      );
      file.readEntry();
    });
  });
}

/** The signed-in user's batch jobs in the current organization, as the app asks for them. */
function listJobs(page: Page): Promise<Job[]> {
  return page.evaluate(
    async ({ path, header, key }) => {
      const response = await fetch(`${path}?type=BATCH_DOWNLOAD_AOMS`, {
        headers: { [header]: window.localStorage.getItem(key) ?? '', accept: 'application/json' },
        credentials: 'include',
      });
      return response.json();
    },
    { path: PATHS.jobs, header: PARTICIPANT_HEADER, key: STORAGE_KEYS.participantId },
  );
}

test('select assets, download their assignments with the Downloads progress, and open the zip', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  await signIn('admin@registry.test');
  await page.goto(`/registry${APP_PATHS.assets}`);
  await page.getByRole('checkbox', { name: ASSET_TEXTS.selectPage }).check();
  const before = (await listJobs(page)).length;

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: BATCH_DOWNLOAD_TEXTS.downloadAssignments }).click();
  // The job's progress at the Downloads entry of the navigation, while it runs.
  const progress = page.getByRole('navigation').getByRole('progressbar', { name: BATCH_DOWNLOAD_TEXTS.progressLabel });
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute('aria-valuemin', '0');
  expect(Number(await progress.getAttribute('aria-valuemax'))).toBeGreaterThan(0);

  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^assignments-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.zip$/);
  await expect(page.getByText(BATCH_DOWNLOAD_TEXTS.downloadComplete)).toBeVisible();
  await expect(progress).toHaveCount(0);

  const jobs = await listJobs(page);
  expect(jobs).toHaveLength(before + 1);
  const job = jobs[0] as Job;
  expect(job).toMatchObject({ status: 'DONE', progress: job.total });

  const files = await unzip(await readFile((await download.path()) as string));
  const manifest = (files.get(ZIP_MANIFEST_FILE)?.toString('utf8') ?? '')
    .split('\r\n')
    .slice(1)
    .filter(Boolean)
    .map((line) => line.split(','));
  const leftOut = (files.get('left-out.csv')?.toString('utf8') ?? '').split('\r\n').slice(1).filter(Boolean);
  expect(manifest.length + leftOut.length).toBe(job.total);
  expect(manifest.length).toBeGreaterThan(0);
  for (const [uli, fileName, hash] of manifest) {
    const file = files.get(`${uli}/${fileName}`);
    expect(file, `${uli}/${fileName}`).toBeDefined();
    expect(
      createHash('sha256')
        .update(file as Buffer)
        .digest('hex'),
    ).toBe(hash);
    expect(file?.subarray(0, 5).toString()).toBe('%PDF-');
  }
  await expectNoAxeViolations();
});

test('a job that finishes while the page reloads is offered once after the reload, and not after the next', async ({ page, signIn }) => {
  // Another account than the test above: jobs belong to their user, so neither sees the other's.
  await signIn('user@registry.test');
  await page.goto(`/registry${APP_PATHS.assets}`);
  await page.getByRole('checkbox', { name: ASSET_TEXTS.selectPage }).check();
  const started = page.waitForResponse((response) => response.url().includes(PATHS.jobs) && response.request().method() === 'POST');
  await page.getByRole('button', { name: BATCH_DOWNLOAD_TEXTS.downloadAssignments }).click();
  const job = (await (await started).json()) as Job;
  const participantId = (await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId)) ?? '';
  // Outside the page (which is reloading, and whose calls are held below).
  const jobOf = async () => {
    const response = await page.request.get(`${PATHS.jobs}?type=BATCH_DOWNLOAD_AOMS`, {
      headers: { [PARTICIPANT_HEADER]: participantId, accept: 'application/json' },
    });
    return ((await response.json()) as Job[]).find((listed) => listed.jobId === job.jobId);
  };

  // The reload's first look at the jobs is held until the job is DONE: it finishes while the page reloads.
  const offered: string[] = [];
  page.on('download', (download) => offered.push(download.suggestedFilename()));
  let held = 0;
  const jobsCall = (url: URL) => url.pathname === PATHS.jobs;
  await page.route(jobsCall, async (route) => {
    held += 1;
    await expect.poll(async () => (await jobOf())?.status).toBe('DONE');
    await route.continue();
  });
  const downloading = page.waitForEvent('download');
  await page.reload();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^assignments-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.zip$/);
  await expect(page.getByText(BATCH_DOWNLOAD_TEXTS.downloadComplete)).toBeVisible();
  await page.unroute(jobsCall);
  expect(held).toBeGreaterThan(0);
  expect(await jobOf()).toMatchObject({ status: 'DONE', delivered: true });

  // Reloaded again: the jobs are asked for, and the job is not offered a second time.
  const asked = page.waitForResponse((response) => response.url().includes(PATHS.jobs) && response.request().method() === 'GET');
  await page.reload();
  await asked;
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // Time for a download to begin, were one offered (a poll interval and then some).
  await page.waitForTimeout(1500);
  await expect(page.getByText(BATCH_DOWNLOAD_TEXTS.downloadComplete)).toHaveCount(0);
  expect(offered).toHaveLength(1);
});
