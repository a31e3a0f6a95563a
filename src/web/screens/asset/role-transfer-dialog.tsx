// 'Request transfer' on the asset page's parties, for an organization that may hand over
// a role of the loan (src/domain/role-transfer.ts, the server's rule), and the dialog it opens.
// The role-transfer machine holds the directory, the draft, the review and the request; this
// renders them in a headlessui Dialog (focus trapped, Escape closes, the focus back on the button).
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectLoanDetails, type assetPageMachine } from '../../../../machines/asset-page';
import type { roleTransferMachine } from '../../../../machines/role-transfer';
import { selectIsOpen, selectStep, transferSubject } from '../../../../machines/role-transfer';
import { selectParticipantId } from '../../../../machines/session';
import { ROLE_TRANSFER_TEXTS as T } from '../../../domain/role-transfer';
import { TEXTS } from '../../../domain/texts';
import { SessionActorContext } from '../../app/actor-contexts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { StatusMessage } from '../../ui/status-message';
import { roleTransferActors } from './role-transfer-actors';
import { RoleTransferForm, RoleTransferReview, SECONDARY_BUTTON } from './role-transfer-form';

export type RoleTransferRef = ActorRefFrom<typeof roleTransferMachine>;

export function RoleTransfer({ asset }: { asset: ActorRefFrom<typeof assetPageMachine> }) {
  const services = useAppServices();
  const participantId = SessionActorContext.useSelector(selectParticipantId);
  const details = useSelector(asset, selectLoanDetails);
  const subject = useMemo(() => transferSubject(details, participantId), [details, participantId]);
  const logic = useMemo(() => roleTransferActors(services, asset), [services, asset]);
  const transfer = useScreenActor(logic);
  const open = useSelector(transfer, selectIsOpen);

  if (!subject) return null;
  return (
    <>
      <button
        type="button"
        className="rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100"
        aria-haspopup="dialog"
        onClick={() => transfer.send({ type: 'transfer.open', subject })}
      >
        {T.open}
      </button>
      <Dialog open={open} onClose={() => transfer.send({ type: 'transfer.close' })} className="relative z-50">
        <DialogBackdrop className="fixed inset-0 bg-black/40" />
        <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
          <DialogPanel
            className="flex w-full max-w-lg flex-col gap-4 rounded-lg bg-white p-6 shadow-xl"
            // Escape while the request is on its way: the machine keeps the dialog open, and the
            // Dialog must not drop the focus either (it leaves alone an Escape already handled).
            onKeyDown={(event) => {
              if (event.key === 'Escape' && !transfer.getSnapshot().can({ type: 'transfer.close' })) event.preventDefault();
            }}
          >
            <DialogTitle as="h2" className="text-lg font-semibold text-slate-900">
              {T.title}
            </DialogTitle>
            <RoleTransferStep transfer={transfer} />
          </DialogPanel>
        </div>
      </Dialog>
    </>
  );
}

function RoleTransferStep({ transfer }: { transfer: RoleTransferRef }) {
  const step = useSelector(transfer, selectStep);
  const cancel = () => transfer.send({ type: 'transfer.close' });

  // Each step mounts afresh and puts the focus on its first action (the one that was focused is gone).
  if (step === 'loading') {
    return (
      <div key="loading" className="flex flex-col gap-4">
        <StatusMessage>{T.loadingDirectory}</StatusMessage>
        <div className="flex justify-end gap-3">
          <button type="button" autoFocus className={SECONDARY_BUTTON} onClick={cancel}>
            {T.cancel}
          </button>
        </div>
      </div>
    );
  }
  if (step === 'directoryFailed') {
    return (
      <div key="directoryFailed" className="flex flex-col gap-4">
        <p role="alert" className="text-red-900">
          {T.directoryFailed}
        </p>
        <div className="flex justify-end gap-3">
          <button type="button" className={SECONDARY_BUTTON} onClick={cancel}>
            {T.cancel}
          </button>
          <button
            type="button"
            autoFocus
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600"
            onClick={() => transfer.send({ type: 'directory.retry' })}
          >
            {TEXTS.tryAgain}
          </button>
        </div>
      </div>
    );
  }
  if (step === 'closed') return null;
  return step === 'editing' ? <RoleTransferForm transfer={transfer} /> : <RoleTransferReview transfer={transfer} />;
}
