// @vitest-environment jsdom
// Model-based test of the app-wide batch-download machine through the app: sign-in and an
// organization switch (it asks for the jobs), 'Download assignments' on the asset table, the
// Downloads progress bar in the navigation while the job is polled every 1000 ms, the saved zip
// with 'Download complete!', the error toasts, and sign-out.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { batchDownloadMachine } from '../../machines/batch-download';
import { zipFileName, type Job } from '../../src/contract/jobs';
import { APP_PATHS } from '../../src/domain/app-paths';
import { JOB_POLL_INTERVAL_MS } from '../../src/domain/constants';
import { BATCH_DOWNLOAD_TEXTS, NAVIGATION_LABELS, TEXTS } from '../../src/domain/texts';
import { ASSET_TEXTS } from '../../src/domain/asset-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { JOB_ID, TOTAL, filteredRequest, job, zip, walk } from '../machines/walks/batch-download';
import { loanIdOf, sampleLoanPage } from '../support/loan-list-fixtures';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderApp } from './support/render-app';

const walker = createModelWalker(batchDownloadMachine, walk);

const user = userEvent.setup();
const progressbar = () => screen.queryByRole('progressbar', { name: BATCH_DOWNLOAD_TEXTS.progressLabel });
const downloadButton = () => screen.queryByRole('button', { name: BATCH_DOWNLOAD_TEXTS.downloadAssignments });
const output = (event: unknown) => (event as { output: unknown }).output;
const errorOf = (event: unknown) => (event as { error: unknown }).error;

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/assets/assets-screen'),
    import('../../src/web/screens/dashboard/dashboard-screen'),
  ]);
});

describe('batch-download machine, driven through the asset table and the Downloads entry', () => {
  // The session remembers the organization chosen last: each path starts from the default one.
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = renderApp({ path: APP_PATHS.assets, organizations: [sampleOrganization(1, true), sampleOrganization(2)] });
      const calls = deferProductCalls(app.fake.api, ['listLoans', 'listJobs', 'startJob', 'documentsZip']);
      let signedIn = false;
      let organization = 1;
      /** What the progress bar should say while the job is followed. */
      let shown = { progress: 0, total: TOTAL };
      const listJobsMade = () => calls.calls('listJobs').length;
      let listJobsBefore = 0;

      await path.test({
        states: {
          idle: () => expect(progressbar()).toBeNull(),
          active: async () => expect(await screen.findByRole('button', { name: NAVIGATION_LABELS.downloads })).toBeInTheDocument(),
          'active.loading': async () => {
            await waitFor(() => expect(listJobsMade()).toBe(listJobsBefore + 1), { timeout: 5000 });
            expect(calls.calls('listJobs').at(-1)?.[0]).toBe('BATCH_DOWNLOAD_AOMS');
            await waitFor(() => expect(progressbar()).toBeNull());
          },
          'active.ready': async () => {
            await waitFor(() => expect(progressbar()).toBeNull());
            const button = downloadButton();
            if (button) expect(button).toHaveAttribute('aria-disabled', 'false');
          },
          'active.starting': async () => {
            await waitFor(() => expect(calls.pendingCount('startJob')).toBe(1));
            expect(calls.calls('startJob').at(-1)?.[0]).toEqual(filteredRequest);
            expect(downloadButton()).toHaveAttribute('aria-busy', 'true');
            expect(downloadButton()).toHaveAttribute('aria-disabled', 'true');
          },
          'active.polling': async () => {
            const bar = await screen.findByRole('progressbar', { name: BATCH_DOWNLOAD_TEXTS.progressLabel });
            expect(bar).toHaveAttribute('aria-valuemax', String(shown.total));
            expect(bar).toHaveAttribute('aria-valuemin', '0');
          },
          'active.polling.waiting': async () => {
            await waitFor(() => expect(progressbar()).toHaveAttribute('aria-valuenow', String(shown.progress)));
            const text = BATCH_DOWNLOAD_TEXTS.progressText(shown.progress, shown.total);
            expect(screen.getByText(text)).toBeInTheDocument();
            expect(progressbar()).toHaveAttribute('aria-valuetext', text);
            // The open Downloads panel shows the same bar and text in their place: once, not twice.
            const downloads = screen.getByRole('button', { name: NAVIGATION_LABELS.downloads });
            await user.click(downloads);
            expect(downloads).toHaveAttribute('aria-expanded', 'true');
            expect(screen.getAllByText(text)).toHaveLength(1);
            expect(screen.getAllByRole('progressbar')).toHaveLength(1);
            await user.click(downloads);
            expect(screen.getAllByText(text)).toHaveLength(1);
          },
          'active.polling.checking': async () => {
            await waitFor(() => expect(calls.pendingCount('listJobs')).toBe(1));
          },
          'active.downloading': async () => {
            await waitFor(() => expect(calls.pendingCount('documentsZip')).toBe(1));
            expect(calls.calls('documentsZip').at(-1)?.[0]).toBe(JOB_ID);
            expect(progressbar()).toHaveAttribute('aria-valuenow', String(TOTAL));
            expect(progressbar()).toHaveAttribute('aria-valuetext', BATCH_DOWNLOAD_TEXTS.savingText);
            expect(screen.getByText(BATCH_DOWNLOAD_TEXTS.savingText)).toBeInTheDocument();
          },
        },
        events: {
          'batch.load': async () => {
            listJobsBefore = listJobsMade();
            if (!signedIn) {
              await app.fake.settle('figureInfo', { value: sampleIdentity });
              await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
              signedIn = true;
              return;
            }
            // Another organization: its jobs are asked for.
            const next = organization === 1 ? 2 : 1;
            await user.click(screen.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }));
            await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: `Organization ${next}` }));
            organization = next;
            await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.dashboard));
          },
          'batch.reset': async () => {
            await user.click(screen.getByRole('button', { name: TEXTS.signOut }));
          },
          'batch.start': async () => {
            if (!downloadButton()) await act(() => app.router.navigate(APP_PATHS.assets));
            await user.click(await screen.findByRole('button', { name: BATCH_DOWNLOAD_TEXTS.downloadAssignments }));
          },
          'done: fetchJobs': async ({ event }) => {
            const jobs = output(event) as Job[];
            if (jobs[0]?.status === 'RUNNING') shown = { progress: jobs[0].progress, total: jobs[0].total };
            await calls.settle('listJobs', { value: jobs });
            if (jobs[0]?.status === 'FAILED') expect(await screen.findByText('The zip could not be stored.')).toBeInTheDocument();
          },
          'error: fetchJobs': async ({ event }) => {
            await calls.settle('listJobs', { error: errorOf(event) });
          },
          'done: startJob': async ({ event }) => {
            const started = output(event) as Job;
            shown = { progress: started.progress, total: started.total };
            await calls.settle('startJob', { value: started });
          },
          'error: startJob': async ({ event }) => {
            await calls.settle('startJob', { error: errorOf(event) });
            expect(await screen.findByText(BATCH_DOWNLOAD_TEXTS.startFailed)).toBeInTheDocument();
          },
          // On the real clock: the machine asks again once the poll interval has passed.
          'after: pollInterval': async () => {
            const before = listJobsMade();
            await waitFor(() => expect(listJobsMade()).toBe(before + 1), { timeout: 3 * JOB_POLL_INTERVAL_MS });
          },
          'done: downloadZip': async () => {
            await calls.settle('documentsZip', { value: zip });
            await waitFor(() => expect(app.download).toHaveBeenCalledWith(zip, zipFileName(job('DONE', TOTAL))));
            expect(await screen.findByText(BATCH_DOWNLOAD_TEXTS.downloadComplete)).toBeInTheDocument();
          },
          'error: downloadZip': async ({ event }) => {
            await calls.settle('documentsZip', { error: errorOf(event) });
            expect(await screen.findByText(BATCH_DOWNLOAD_TEXTS.downloadFailed)).toBeInTheDocument();
            expect(app.download).not.toHaveBeenCalled();
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });

  it('with rows selected, starts the job for those loans only', async () => {
    const app = renderApp({ path: APP_PATHS.assets, organizations: [sampleOrganization(1, true)] });
    const calls = deferProductCalls(app.fake.api, ['listLoans', 'listJobs', 'startJob']);
    await app.fake.settle('figureInfo', { value: sampleIdentity });
    await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
    await calls.settle('listJobs', { value: [] });
    await calls.settle('listLoans', { value: sampleLoanPage(0, 10, 25) });
    await user.click(await screen.findByRole('checkbox', { name: ASSET_TEXTS.selectRow('ULI000000') }));
    await user.click(screen.getByRole('button', { name: BATCH_DOWNLOAD_TEXTS.downloadAssignments }));
    await waitFor(() => expect(calls.pendingCount('startJob')).toBe(1));
    expect(calls.calls('startJob')[0]?.[0]).toEqual({ type: 'BATCH_DOWNLOAD_AOMS', loanIds: [loanIdOf(0)] });
  });
});
