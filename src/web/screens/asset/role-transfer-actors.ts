// The role transfer dialog's actors (machines/role-transfer.ts) over the app's services: the
// directory and the request through the API, the focus on a field in error, the toasts (the app's
// toasts actor) and the asset page's reload, both reached with sendTo after the machine's step.
import { fromPromise, sendTo, type ActorRefFrom } from 'xstate';
import type { assetPageMachine } from '../../../../machines/asset-page';
import { roleTransferMachine } from '../../../../machines/role-transfer';
import { toastShow } from '../../../../machines/toasts';
import { ROLE_TRANSFER_TEXTS as T } from '../../../domain/role-transfer';
import type { AppServices } from '../../app/services';
import { roleTransferFieldId } from './role-transfer-form';

/** The machine over the services; a request sent reloads `asset` (the page shows Pending Update). */
export function roleTransferActors(services: AppServices, asset: ActorRefFrom<typeof assetPageMachine>) {
  const { api } = services;
  const toasts = services.appActor('toasts');
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
      notifySent: sendTo(toasts, toastShow('success', T.sent)),
      notifyFailed: sendTo(toasts, toastShow('error', T.failed)),
      reloadAsset: sendTo(asset, { type: 'asset.reload' }),
    },
  });
}
