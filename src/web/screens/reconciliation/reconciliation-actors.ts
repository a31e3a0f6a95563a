// The Reconcile screen's actors over the app's services: the caller's reconciliations, the upload,
// the report's CSV (saved through the browser's download), and the report's pages for the shared list.
import { fromPromise } from 'xstate';
import { pagedListOf } from '../../../../machines/paged-list';
import { reconciliationMachine, type DifferencesView } from '../../../../machines/reconciliation';
import { pageOffset } from '../../../domain/asset-table';
import { reconciliationFileName, type DifferenceKind } from '../../../domain/reconciliation';
import type { AppServices } from '../../app/services';

export function reconciliationActors(services: AppServices) {
  const { api } = services;
  return reconciliationMachine.provide({
    actors: {
      fetchReconciliations: fromPromise(({ signal }) => api.listReconciliations(signal)),
      uploadTape: fromPromise(({ input, signal }) => api.uploadTape(input, signal)),
      downloadReport: fromPromise(async ({ input, signal }) => ({
        file: await api.reconciliationCsv(input.jobId, signal),
        fileName: reconciliationFileName(input),
      })),
    },
    actions: { saveFile: (_, { file, fileName }) => services.download(file, fileName) },
  });
}

/** The report's pages (each row named by its place in the report). */
export const differencesListLogic = ({ api }: Pick<AppServices, 'api'>, jobId: string) =>
  pagedListOf(async (view, signal) => {
    const { kind } = view as DifferencesView;
    const offset = pageOffset(view.page, view.limit);
    const page = await api.reconciliationDifferences(
      jobId,
      { limit: view.limit, offset, ...(kind ? { kind: kind as DifferenceKind } : {}) },
      signal,
    );
    return { items: page.differences.map((row, index) => ({ ...row, id: String(offset + index) })), totalCount: page.totalCount };
  });
