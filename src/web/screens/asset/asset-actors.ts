// The asset page's actors over the app's services: the asset (details and events together) and
// the Documents tab's viewer (the list, a PDF, and its download). The role transfer dialog's are
// in role-transfer-actors.ts.
import { fromPromise } from 'xstate';
import { assetPageMachine } from '../../../../machines/asset-page';
import { documentViewerMachine } from '../../../../machines/document-viewer';
import { pagedListOf } from '../../../../machines/paged-list';
import { pageOffset } from '../../../domain/asset-table';
import type { AppServices } from '../../app/services';

/** The asset-page machine over the API: details and events together, aborted on leave. */
export function assetPageActors({ api }: AppServices) {
  return assetPageMachine.provide({
    actors: {
      loadAsset: fromPromise(async ({ input, signal }) => {
        const [details, events] = await Promise.all([api.loanDetails(input.loanId, signal), api.loanEvents(input.loanId, signal)]);
        return { details, events };
      }),
    },
  });
}

/** The document-viewer machine over the API and downloads. */
export function documentViewerActors({ api, download }: AppServices) {
  return documentViewerMachine.provide({
    actors: {
      loadDocuments: fromPromise(({ input, signal }) => api.loanDocuments(input.loanId, signal)),
      loadDocument: fromPromise(({ input, signal }) => api.loanDocumentPdf(input.loanId, input.documentId, signal)),
    },
    actions: { saveFile: (_, { file, fileName }) => download(file, fileName) },
  });
}

/** The Activity tab's list (machines/paged-list.ts) over GET v1 /loans/{id}/activity, newest first. */
export const assetActivityLogic = ({ api }: Pick<AppServices, 'api'>, loanId: string) =>
  pagedListOf(async (view, signal) => {
    const page = await api.loanActivity(loanId, { limit: view.limit, offset: pageOffset(view.page, view.limit) }, signal);
    return { items: page.entries, totalCount: page.totalCount };
  });
