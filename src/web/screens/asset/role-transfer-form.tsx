// The steps of the role transfer dialog: the form (the role among those the organization
// may transfer, a PENDING one disabled; the receiving organization searched in the directory) and
// the review (role, receiver, asset ULI) with the server's refusal when there is one.
import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions, Description, Field } from '@headlessui/react';
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import {
  selectChoices,
  selectDraft,
  selectReceiver,
  selectReceiverOptions,
  selectFailure,
  selectStep,
  selectUli,
  selectVisibleErrors,
  type roleTransferMachine,
} from '../../../../machines/role-transfer';
import type { DirectoryEntry } from '../../../contract/role-requests';
import { partyRoleLabel } from '../../../domain/loan';
import {
  ROLE_TRANSFER_TEXTS as T,
  type RoleTransferDraft,
  type RoleTransferErrors,
  type TransferableRole,
} from '../../../domain/role-transfer';
import { CONTROL_CLASS, FormField } from '../../ui/form-field';
import { Icon } from '../../ui/icons';

type RoleTransferRef = ActorRefFrom<typeof roleTransferMachine>;

/** The id of a field's control: `role-transfer-role`, `role-transfer-receiverId`. */
export const roleTransferFieldId = (field: keyof RoleTransferDraft): string => `role-transfer-${field}`;

export const SECONDARY_BUTTON = 'rounded-md border border-slate-400 px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100';
const PRIMARY_BUTTON =
  'rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-600 aria-disabled:cursor-wait aria-disabled:opacity-70';
const optionClasses =
  'group flex cursor-pointer items-center gap-2 rounded px-3 py-2 text-sm text-slate-800 data-[focus]:bg-brand-100 data-[selected]:font-semibold';

const sameErrors = (a: RoleTransferErrors, b: RoleTransferErrors) => a.role === b.role && a.receiverId === b.receiverId;
const sameEntries = (a: readonly DirectoryEntry[], b: readonly DirectoryEntry[]) =>
  a.length === b.length && a.every((entry, index) => entry.id === b[index]?.id);

export function RoleTransferForm({ transfer }: { transfer: RoleTransferRef }) {
  const choices = useSelector(transfer, selectChoices);
  const draft = useSelector(transfer, selectDraft);
  const receiver = useSelector(transfer, selectReceiver);
  const options = useSelector(transfer, selectReceiverOptions, sameEntries);
  const errors = useSelector(transfer, selectVisibleErrors, sameErrors);
  const review = (event: FormEvent) => {
    event.preventDefault();
    transfer.send({ type: 'form.review' });
  };

  return (
    <form noValidate onSubmit={review} className="flex flex-col gap-4">
      <FormField id={roleTransferFieldId('role')} label={T.role} required error={errors.role}>
        {(control) => (
          <select
            {...control}
            // The step's first control: it takes the focus when the form shows.
            autoFocus
            className={CONTROL_CLASS}
            value={draft.role}
            onChange={(event) => transfer.send({ type: 'form.role', role: event.target.value as TransferableRole | '' })}
          >
            <option value="">{T.chooseRole}</option>
            {choices.map(({ role, pending }) => (
              <option key={role} value={role} disabled={pending}>
                {pending ? `${partyRoleLabel(role)} (${T.pending})` : partyRoleLabel(role)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {/* headlessui's Field ties the Description (the error) to the combobox's input; the label names it by its id. */}
      <Field className="flex flex-col gap-1">
        <label htmlFor={roleTransferFieldId('receiverId')} className="text-sm font-medium text-slate-800">
          {T.receiver}
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        </label>
        <Combobox
          value={receiver}
          by="id"
          immediate
          onChange={(entry: DirectoryEntry | null) => {
            if (entry) transfer.send({ type: 'form.receiver', receiverId: entry.id });
          }}
          onClose={() => transfer.send({ type: 'form.search', query: '' })}
        >
          <div className="relative">
            <ComboboxInput
              id={roleTransferFieldId('receiverId')}
              aria-required
              aria-invalid={errors.receiverId ? true : undefined}
              className={`${CONTROL_CLASS} pr-9`}
              placeholder={T.searchReceiver}
              autoComplete="off"
              displayValue={(entry: DirectoryEntry | null) => entry?.name ?? ''}
              onChange={(event) => transfer.send({ type: 'form.search', query: event.target.value })}
            />
            <ComboboxButton className="absolute inset-y-0 right-0 px-2 text-slate-600" aria-label={T.searchReceiver}>
              <Icon name="chevronDown" className="h-4 w-4" />
            </ComboboxButton>
            {options.length > 0 && (
              <ComboboxOptions
                modal={false}
                className="absolute left-0 z-10 mt-1 max-h-60 w-full overflow-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg focus:outline-none"
              >
                {options.map((entry) => (
                  <ComboboxOption key={entry.id} value={entry} className={optionClasses}>
                    <Icon name="check" className="invisible h-4 w-4 group-data-[selected]:visible" />
                    {entry.name}
                  </ComboboxOption>
                ))}
              </ComboboxOptions>
            )}
          </div>
        </Combobox>
        {errors.receiverId && <Description className="text-sm text-red-800">{errors.receiverId}</Description>}
      </Field>
      {options.length === 0 && (
        <p role="status" className="text-sm text-slate-600">
          {T.noOrganizations}
        </p>
      )}
      <div className="flex justify-end gap-3">
        <button type="button" className={SECONDARY_BUTTON} onClick={() => transfer.send({ type: 'transfer.close' })}>
          {T.cancel}
        </button>
        <button type="submit" className={PRIMARY_BUTTON}>
          {T.review}
        </button>
      </div>
    </form>
  );
}

export function RoleTransferReview({ transfer }: { transfer: RoleTransferRef }) {
  const draft = useSelector(transfer, selectDraft);
  const receiver = useSelector(transfer, selectReceiver);
  const uli = useSelector(transfer, selectUli);
  const failure = useSelector(transfer, selectFailure);
  const sending = useSelector(transfer, (snapshot) => selectStep(snapshot) === 'submitting');
  const rows: ReadonlyArray<readonly [string, string]> = [
    [T.role, draft.role ? partyRoleLabel(draft.role) : ''],
    [T.receiver, receiver?.name ?? ''],
    [T.asset, uli],
  ];
  return (
    <div className="flex flex-col gap-4" aria-busy={sending || undefined}>
      <p className="text-sm text-slate-700">{T.reviewIntro}</p>
      <dl className="flex flex-col gap-3 rounded-md border border-slate-200 p-4">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-col">
            <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{label}</dt>
            <dd className="break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {failure && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {failure}
        </p>
      )}
      <div className="flex justify-end gap-3">
        <button type="button" className={SECONDARY_BUTTON} onClick={() => transfer.send({ type: 'transfer.close' })}>
          {T.cancel}
        </button>
        <button type="button" className={SECONDARY_BUTTON} onClick={() => transfer.send({ type: 'form.back' })}>
          {T.back}
        </button>
        {/* Not disabled while sending (a disabled button drops the focus): the machine ignores a second send. */}
        <button
          type="button"
          // The step's action: it takes the focus when the review shows.
          autoFocus
          className={PRIMARY_BUTTON}
          aria-disabled={sending || undefined}
          onClick={() => transfer.send({ type: 'form.submit' })}
        >
          {sending ? T.sending : T.submit}
        </button>
      </div>
    </div>
  );
}
