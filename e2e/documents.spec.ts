// The Documents tab against the real server, seeded database and Chromium's pdf.js: the document
// showcase loan (README) reached through 'View Documents' in the asset table; its multi-page deed
// opened and paged through, zoomed and downloaded (bytes matching the SHA-256 shown); the damaged
// scan and the tampered release both 'Unable to load PDF'; the PDF renderer and its worker loaded
// only on this tab, under the server's CSP; axe clean.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import type { DocumentMetadata } from '../src/contract/documents';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { TEXTS } from '../src/domain/texts';
import { ASSET_TEXTS, DOCUMENT_TEXTS } from '../src/domain/asset-texts';
import { DOCUMENT_SHOWCASE_LOAN } from '../src/server/seed/document-showcase';
import { deedPageCount } from '../src/server/seed/documents';
import { expect, test } from './support/fixtures';

/** A product call as the app makes it, as the current organization. */
async function productGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(
    async ({ path, header, key }) => {
      const participantId = window.localStorage.getItem(key) ?? '';
      const response = await fetch(path, { headers: { [header]: participantId, accept: 'application/json' }, credentials: 'include' });
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      return response.json();
    },
    { path, header: PARTICIPANT_HEADER, key: STORAGE_KEYS.participantId },
  );
}

const list = (page: Page) => page.getByRole('navigation', { name: DOCUMENT_TEXTS.listLabel });
const viewer = (page: Page) => page.getByRole('region', { name: DOCUMENT_TEXTS.viewerLabel });
/** A document of the list by its name (its kind and date follow it in the button). */
const documentButton = (page: Page, name: string) =>
  list(page).getByRole('button', { name: new RegExp(`^${name.replace(/[()]/g, '\\$&')} (Deed|Assignment|Release|eNote) ·`) });
const pageNumber = (page: Page) => viewer(page).getByRole('spinbutton', { name: DOCUMENT_TEXTS.pageNumber });
const canvas = (page: Page) => viewer(page).locator('canvas');

/** Signs in, finds the showcase loan in the asset table and takes 'View Documents'; returns its metadata. */
async function openShowcaseDocuments(page: Page, signIn: (email: string) => Promise<void>) {
  await signIn('admin@registry.test');
  await page.goto(`.${APP_PATHS.assets}`);
  await page.getByRole('searchbox', { name: ASSET_TEXTS.search }).fill(DOCUMENT_SHOWCASE_LOAN.loanNumber);
  const actions = page.getByRole('button', { name: ASSET_TEXTS.rowActions(DOCUMENT_SHOWCASE_LOAN.uli) });
  await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(1);
  await actions.click();
  await page.getByRole('menuitem', { name: ASSET_TEXTS.viewDocuments }).click();
  await expect(page).toHaveURL(/\/details\/documents$/);
  const loanId = /asset\/([^/]+)\/details/.exec(page.url())?.[1] as string;
  await expect(list(page)).toBeVisible();
  return { loanId, documents: await productGet<DocumentMetadata[]>(page, PATHS.loanDocumentsMetadata(loanId)) };
}

test.describe('documents', () => {
  test('View Documents lands on the tab; a multi-page deed is paged through, zoomed and downloaded; axe clean', async ({
    page,
    signIn,
    expectNoAxeViolations,
  }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (['script', 'other'].includes(request.resourceType()) || /\.m?js$/.test(request.url())) scripts.push(request.url());
    });
    await signIn('admin@registry.test');
    // From here on, nothing may fail: no CSP refusal (pdf.js runs a module worker, draws on canvas,
    // may not eval), no script error, no failed request (the browser's favicon probe aside).
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) {
        if (!message.location().url.endsWith('/favicon.ico')) problems.push(`${message.text()} ${message.location().url}`);
      }
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) problems.push(`${response.status()} ${response.url()}`);
    });

    // The PDF renderer is not part of any other screen.
    await page.goto(`.${APP_PATHS.assets}`);
    await expect(page.getByRole('table')).toHaveAttribute('aria-busy', 'false');
    expect(scripts.filter((url) => /pdf-document-view|pdf\.worker/.test(url))).toEqual([]);

    const { documents } = await openShowcaseDocuments(page, async () => undefined);
    // Only PDFs of deeds, assignments, releases and the eNote; the closing disclosure is left out.
    await expect(list(page).getByRole('button')).toHaveText([
      /^Deed of Trust Deed/,
      /^Assignment of Mortgage Assignment/,
      /^Electronic Promissory Note eNote/,
      /^Release of Lien Release/,
      /^Deed of Trust \(damaged scan\) Deed/,
    ]);
    expect(documents.map((document) => document.name)).toContain('Closing Disclosure');
    await expect(viewer(page)).toContainText(DOCUMENT_TEXTS.chooseDocument);
    await expectNoAxeViolations();

    const deed = documents.find((document) => document.name === 'Deed of Trust') as DocumentMetadata;
    const pages = deedPageCount(DOCUMENT_SHOWCASE_LOAN.uli);
    expect(pages).toBeGreaterThanOrEqual(3);
    await documentButton(page, 'Deed of Trust').click();
    await expect(canvas(page)).toBeVisible();
    await expect(viewer(page).getByRole('heading', { level: 3, name: 'Deed of Trust' })).toBeVisible();
    await expect(viewer(page).getByTestId('document-sha256')).toHaveText(deed.hash);
    await expect(pageNumber(page)).toHaveValue('1');
    await expect(viewer(page).getByText(DOCUMENT_TEXTS.pageOf(pages), { exact: true })).toBeVisible();
    await expect(viewer(page).getByRole('group', { name: DOCUMENT_TEXTS.pageImage(1, pages) })).toBeVisible();
    // pdf.js draws the page's text into its text layer: the title page, then the covenants.
    await expect(viewer(page).getByText(DOCUMENT_SHOWCASE_LOAN.uli, { exact: true })).toBeVisible();
    expect(scripts.some((url) => /pdf\.worker[^/]*\.mjs$/.test(url))).toBe(true);

    // Page through to the end and back.
    const previous = viewer(page).getByRole('button', { name: DOCUMENT_TEXTS.previousPage });
    const next = viewer(page).getByRole('button', { name: DOCUMENT_TEXTS.nextPage });
    await expect(previous).toBeDisabled();
    for (let shown = 2; shown <= pages; shown++) {
      await next.click();
      await expect(pageNumber(page)).toHaveValue(String(shown));
      await expect(viewer(page).getByRole('group', { name: DOCUMENT_TEXTS.pageImage(shown, pages) })).toBeVisible();
    }
    await expect(viewer(page).getByText('Signatures', { exact: true })).toBeVisible();
    await expect(next).toBeDisabled();
    await previous.click();
    await expect(pageNumber(page)).toHaveValue(String(pages - 1));
    await expect(
      viewer(page)
        .getByText(/^\d+\. /)
        .first(),
    ).toBeVisible();
    // The page number is bounded from 1 to the page count.
    await pageNumber(page).fill('99');
    await pageNumber(page).press('Enter');
    await expect(pageNumber(page)).toHaveValue(String(pages));
    await pageNumber(page).fill('1');
    await pageNumber(page).press('Enter');
    await expect(viewer(page).getByRole('group', { name: DOCUMENT_TEXTS.pageImage(1, pages) })).toBeVisible();

    // Zoom: the page is drawn larger, then back.
    const widthAt = async () => (await canvas(page).boundingBox())?.width ?? 0;
    const normal = await widthAt();
    await viewer(page).getByRole('button', { name: DOCUMENT_TEXTS.zoomIn }).click();
    await expect(viewer(page).getByTestId('document-zoom')).toHaveText('125%');
    await expect.poll(widthAt).toBeGreaterThan(normal * 1.2);
    await viewer(page).getByRole('button', { name: DOCUMENT_TEXTS.resetZoom }).click();
    await expect(viewer(page).getByTestId('document-zoom')).toHaveText('100%');
    await expect.poll(widthAt).toBeLessThan(normal * 1.05);
    await expectNoAxeViolations();

    // Download: the file under its name, its bytes matching the SHA-256 shown.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      viewer(page).getByRole('button', { name: DOCUMENT_TEXTS.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(deed.fileName);
    const bytes = await readFile((await download.path()) as string);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(deed.hash);

    expect(problems).toEqual([]);
  });

  test('the damaged scan and the tampered release show Unable to load PDF; axe clean', async ({ page, signIn, expectNoAxeViolations }) => {
    const { loanId, documents } = await openShowcaseDocuments(page, signIn);

    // Served (its hash matches its bytes), but pdf.js finds no PDF in it.
    const scan = documents.find((document) => document.name === 'Deed of Trust (damaged scan)') as DocumentMetadata;
    const served = page.waitForResponse((response) => response.url().endsWith(PATHS.loanDocument(loanId, scan.documentId)));
    await documentButton(page, 'Deed of Trust (damaged scan)').click();
    expect((await served).status()).toBe(200);
    await expect(viewer(page).getByRole('alert')).toHaveText(DOCUMENT_TEXTS.unableToLoadPdf);
    await expect(viewer(page).getByTestId('document-sha256')).toHaveText(scan.hash);
    await expect(canvas(page)).toHaveCount(0);
    await expectNoAxeViolations();

    // Withheld by the server: its content no longer matches its hash.
    const release = documents.find((document) => document.name === 'Release of Lien') as DocumentMetadata;
    const refused = page.waitForResponse((response) => response.url().endsWith(PATHS.loanDocument(loanId, release.documentId)));
    await documentButton(page, 'Release of Lien').click();
    expect((await refused).status()).toBe(500);
    // It says why, and offers no retry: asking again cannot mend the stored copy.
    await expect(viewer(page).getByRole('alert')).toContainText(DOCUMENT_TEXTS.unableToLoadPdf);
    await expect(viewer(page).getByRole('alert')).toContainText(DOCUMENT_TEXTS.integrityWithheld);
    await expect(viewer(page).getByRole('button', { name: TEXTS.tryAgain })).toHaveCount(0);
    await expect(viewer(page).getByRole('button', { name: DOCUMENT_TEXTS.download })).toHaveCount(0);

    // A sound document opens after either.
    await documentButton(page, 'Assignment of Mortgage').click();
    await expect(canvas(page)).toBeVisible();
    await expect(viewer(page).getByRole('alert')).toHaveCount(0);
  });
});
