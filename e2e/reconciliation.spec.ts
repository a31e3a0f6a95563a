// Reconciliation against a loan tape, against the real server, its job runner and the seeded
// database: a tape made from the organization's own assets CSV with one loan left out, one loan
// that is not the organization's and one servicer changed; the three differences in the report,
// the report downloaded as CSV, axe clean.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { PATHS } from '../src/contract/paths';
import type { Reconciliation } from '../src/contract/reconciliation';
import { APP_PATHS } from '../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { FILTERABLE_ROLES } from '../src/domain/loan';
import { DIFFERENCE_KIND_LABELS, RECONCILIATION_CSV_HEADERS, RECONCILIATION_TEXTS } from '../src/domain/reconciliation';
import { expect, test } from './support/fixtures';

/** The organization's loans (every role) as ULI and servicer, from its assets CSV. */
async function organizationLoans(page: Page): Promise<{ uli: string; servicer: string }[]> {
  const participantId = (await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId)) ?? '';
  const response = await page.request.get(`${PATHS.loans}?participantRoles=${FILTERABLE_ROLES.join(',')}`, {
    headers: { [PARTICIPANT_HEADER]: participantId, accept: 'text/csv' },
  });
  expect(response.status()).toBe(200);
  const [header, ...records] = parse((await response.text()).replace(/^\uFEFF/, '')) as string[][];
  const uli = header?.indexOf('ULI') ?? -1;
  const servicer = header?.indexOf('Servicer') ?? -1;
  // A servicer name written as a quoted cell stays one cell on the tape.
  const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  return records.map((record) => ({ uli: record[uli] ?? '', servicer: cell(record[servicer] ?? '') }));
}

/** Uploads a tape through the API and waits for its counts. */
async function reconcileByApi(page: Page, tape: string): Promise<NonNullable<Reconciliation['counts']>> {
  const participantId = (await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId)) ?? '';
  const headers = { [PARTICIPANT_HEADER]: participantId };
  const started = await page.request.post(PATHS.reconciliations, {
    headers: { ...headers, origin: new URL(page.url()).origin },
    multipart: { tape: { name: 'baseline.csv', mimeType: 'text/csv', buffer: Buffer.from(tape) } },
  });
  expect(started.status()).toBe(202);
  const { jobId } = (await started.json()) as Reconciliation;
  let done: Reconciliation | undefined;
  await expect
    .poll(
      async () => {
        const listed = (await (await page.request.get(PATHS.reconciliations, { headers })).json()) as Reconciliation[];
        done = listed.find((job) => job.jobId === jobId);
        return done?.status;
      },
      { timeout: 30_000 },
    )
    .toBe('DONE');
  return done?.counts as NonNullable<Reconciliation['counts']>;
}

test('upload a tape with one loan missing, one extra and one different servicer; see the three and download the report', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  await signIn('user@registry.test');
  await page.goto(`/registry${APP_PATHS.assets}`);
  await page.getByRole('link', { name: RECONCILIATION_TEXTS.action }).click();
  await expect(page.getByRole('heading', { level: 1, name: RECONCILIATION_TEXTS.heading })).toBeVisible();

  const loans = await organizationLoans(page);
  expect(loans.length).toBeGreaterThan(3);
  const [missing, changed, ...rest] = loans;
  const extra = 'US0000000000000000000000EXTRA';
  const line = (loan: { uli: string; servicer: string }) => `${loan.uli},${loan.servicer}`;
  // The baseline: the organization's own loans as the assets CSV lists them, compared through the API.
  const baseline = await reconcileByApi(page, ['ULI,Servicer', ...loans.map(line)].join('\r\n'));
  const tape = ['ULI,Servicer', `${changed?.uli},Different Servicing Co`, ...rest.map(line), `${extra},Different Servicing Co`].join(
    '\r\n',
  );

  // A file that is not CSV is refused with the server's words.
  await page
    .getByLabel(RECONCILIATION_TEXTS.fileLabel)
    .setInputFiles({ name: 'tape.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7') });
  await page.getByRole('button', { name: RECONCILIATION_TEXTS.upload }).click();
  await expect(page.getByRole('alert')).toHaveText(RECONCILIATION_TEXTS.notCsv);

  await page
    .getByLabel(RECONCILIATION_TEXTS.fileLabel)
    .setInputFiles({ name: 'tape.csv', mimeType: 'text/csv', buffer: Buffer.from(tape) });
  await page.getByRole('button', { name: RECONCILIATION_TEXTS.upload }).click();
  await expect(page.getByRole('heading', { level: 2, name: `${RECONCILIATION_TEXTS.summaryHeading}: tape.csv` })).toBeVisible({
    timeout: 30_000,
  });
  const count = (kind: keyof typeof DIFFERENCE_KIND_LABELS) => page.locator(`dd[data-kind="${kind}"]`);
  // One more of each kind than the baseline.
  await expect(count('NOT_IN_REGISTRY')).toHaveText(String(baseline.NOT_IN_REGISTRY + 1));
  await expect(count('MISSING_FROM_TAPE')).toHaveText(String(baseline.MISSING_FROM_TAPE + 1));
  await expect(count('FIELD_DIFFERS')).toHaveText(String(baseline.FIELD_DIFFERS + 1));
  await expect(count('UNREADABLE_ROW')).toHaveText('0');

  const table = page.getByRole('table', { name: RECONCILIATION_TEXTS.tableLabel });
  const show = (kind: keyof typeof DIFFERENCE_KIND_LABELS) => page.getByLabel(RECONCILIATION_TEXTS.kindFilter).selectOption(kind);
  await show('NOT_IN_REGISTRY');
  await expect(table.getByRole('row').filter({ hasText: extra })).toContainText(DIFFERENCE_KIND_LABELS.NOT_IN_REGISTRY);
  await show('MISSING_FROM_TAPE');
  await expect(table.getByRole('row').filter({ hasText: missing?.uli ?? '' })).toContainText(DIFFERENCE_KIND_LABELS.MISSING_FROM_TAPE);
  await show('FIELD_DIFFERS');
  const differs = table.getByRole('row').filter({ hasText: changed?.uli ?? '' });
  await expect(differs).toContainText(DIFFERENCE_KIND_LABELS.FIELD_DIFFERS);
  await expect(differs).toContainText('Different Servicing Co');
  await expectNoAxeViolations();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: RECONCILIATION_TEXTS.download }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^reconciliation-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.csv$/);
  const report = (await readFile((await download.path()) as string, 'utf8'))
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n');
  expect(report[0]).toBe(RECONCILIATION_CSV_HEADERS.join(','));
  const total = baseline.NOT_IN_REGISTRY + baseline.MISSING_FROM_TAPE + baseline.FIELD_DIFFERS + 3;
  expect(report).toHaveLength(1 + total);
  expect(report.some((line) => line.startsWith('NOT_IN_REGISTRY,') && line.includes(extra))).toBe(true);
  expect(report.some((line) => line.startsWith('MISSING_FROM_TAPE,') && line.includes(missing?.uli ?? '-'))).toBe(true);
  expect(report.some((line) => line.startsWith('FIELD_DIFFERS,') && line.includes('Different Servicing Co'))).toBe(true);

  // The report is still there after a reload: the newest reconciliation is shown.
  await page.reload();
  await expect(count('FIELD_DIFFERS')).toHaveText(String(baseline.FIELD_DIFFERS + 1));
});
