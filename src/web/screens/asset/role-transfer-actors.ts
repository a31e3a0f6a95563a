// The role transfer dialog's actors (machines/role-transfer.ts) over the app's services: the
// directory and the request through the API, the focus on a field in error and the asset page's
// reload, reached with sendTo after the machine's step. Its toasts are the machine's own (it runs
// in the app's actor system).
import { fromPromise, sendTo, type ActorRefFrom } from 'xstate';
import type { assetPageMachine } from '../../../../machines/asset-page';
import { roleTransferMachine } from '../../../../machines/role-transfer';
import type { AppServices } from '../../app/services';
import { roleTransferFieldId } from './role-transfer-form';

/** The machine over the services; a request sent reloads `asset` (the page shows Pending Update). */
export function roleTransferActors(services: AppServices, asset: ActorRefFrom<typeof assetPageMachine>) {
  const { api } = services;
  return roleTransferMachine.provide({
    actors: {
      loadDirectory: fromPromise(({ signal }) => api.participantDirectory(signal)),
      sendRequest: fromPromise(({ input, signal }) => api.requestRoleTransfer(input.loanId, input.body, signal)),
    },
    actions: {
      // After React has shown the error the control is described by.
      focusField: (_, { field }) => {
        if (field) setTimeout(() => document.getElementById(roleTransferFieldId(field))?.focus(), 0);
      },
      reloadAsset: sendTo(asset, { type: 'asset.reload' }),
    },
  });
}
