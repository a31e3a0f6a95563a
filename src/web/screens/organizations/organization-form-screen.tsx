// /administration/organizations/- (add) and /administration/organizations/:organizationUuid (edit)
// (SPEC sections 2, 4, 5 and 8): the organization form machine holds the draft, the rules' and the
// server's errors and the steps (form, review and confirm, save, then on add the 'Add users'
// dialog); this screen renders them and sends the user's input as events.
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { useSelector } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  selectFormStep,
  selectIsBusy,
  selectOrganizationDraft,
  selectOrganizationErrors,
  selectOrganizationId,
  selectOrganizationMode,
  selectOrganizationRefusal,
  selectSaveFailed,
  selectStoredOrganization,
  type OrganizationFormSnapshot,
} from '../../../../machines/organization-form';
import {
  organizationDraftValue,
  type OrganizationDraft,
  type OrganizationErrors,
  type OrganizationField,
  type OrganizationTextField,
} from '../../../contract/organizations';
import { APP_PATHS } from '../../../domain/app-paths';
import { phoneValueFromText, phoneValueToText } from '../../../domain/phone';
import { ORGANIZATION_TEXTS as T } from '../../../domain/administration-texts';
import { US_STATES } from '../../../domain/us-states';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { CONTROL_CLASS, FormField } from '../../ui/form-field';
import { PageHeading } from '../../ui/page-heading';
import { PhoneField } from '../../ui/phone-field';
import { StatusMessage } from '../../ui/status-message';
import { LoadFailed } from '../assets/asset-table-parts';
import { newOrganizationId, organizationFieldId, organizationFormLogic, REVIEW_HEADING_ID } from './organizations-actors';

type FormActor = ReturnType<typeof useScreenActor<ReturnType<typeof organizationFormLogic>>>;

const sameErrors = (a: OrganizationErrors, b: OrganizationErrors) => {
  const keys = Object.keys(a) as OrganizationField[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

const primaryButton =
  'inline-flex h-10 items-center rounded-md bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60';
const secondaryButton =
  'inline-flex h-10 items-center rounded-md border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 disabled:opacity-60';

/** The route's organization: '-' (the add route) is none. */
export function OrganizationFormScreen() {
  const { organizationUuid } = useParams();
  const id = organizationUuid && organizationUuid !== '-' ? organizationUuid : null;
  return <OrganizationForm key={id ?? '-'} organizationId={id} />;
}

function OrganizationForm({ organizationId }: { organizationId: string | null }) {
  const services = useAppServices();
  const logic = useMemo(() => organizationFormLogic(services), [services]);
  const [newId] = useState(newOrganizationId);
  const form = useScreenActor(logic, { input: { organizationId, newId } });
  const step = useSelector(form, selectFormStep);
  const mode = useSelector(form, selectOrganizationMode);
  const title = mode === 'add' ? T.addTitle : T.editTitle;

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p>
          <Link className="text-sm font-medium text-brand-700 underline" to={APP_PATHS.organizations}>
            {T.backToList}
          </Link>
        </p>
        <PageHeading>{step === 'notFound' ? T.notFoundTitle : title}</PageHeading>
      </div>
      {step === 'loading' && <StatusMessage>{T.loadingOrganization}</StatusMessage>}
      {step === 'notFound' && <p>{T.notFound}</p>}
      {step === 'loadFailed' && <LoadFailed message={T.loadFailed} onRetry={() => form.send({ type: 'load.retry' })} />}
      {step === 'form' && <OrganizationFields form={form} />}
      {(step === 'review' || step === 'dialog' || step === 'done') && <OrganizationReview form={form} />}
      <AddUsersDialog form={form} />
    </div>
  );
}

function IdField({ id }: { id: string }) {
  return (
    <FormField id="organization-id" label={T.id}>
      {(control) => <input {...control} type="text" readOnly className={`${CONTROL_CLASS} bg-slate-50 font-mono`} value={id} />}
    </FormField>
  );
}

function InactiveNotice({ form }: { form: FormActor }) {
  const stored = useSelector(form, selectStoredOrganization);
  const busy = useSelector(form, selectIsBusy);
  if (!stored || stored.isActive) return null;
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950">
      <p>{T.inactiveNotice}</p>
      <button type="button" className={secondaryButton} disabled={busy} onClick={() => form.send({ type: 'organization.reactivate' })}>
        {busy ? T.reactivating : T.reactivate}
      </button>
    </div>
  );
}

function OrganizationFields({ form }: { form: FormActor }) {
  const draft = useSelector(form, selectOrganizationDraft);
  const errors = useSelector(form, selectOrganizationErrors, sameErrors);
  const id = useSelector(form, selectOrganizationId);
  const mode = useSelector(form, selectOrganizationMode);
  const busy = useSelector(form, selectIsBusy);

  const change = (field: OrganizationTextField, value: string) => form.send({ type: 'form.change', values: { [field]: value } });
  const review = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.review' });
  };

  const text = (field: OrganizationTextField, label: string, options: { required?: boolean; type?: string; maxLength?: number } = {}) => (
    <FormField id={organizationFieldId(field)} label={label} required={options.required} error={errors[field]}>
      {(control) => (
        <input
          {...control}
          type={options.type ?? 'text'}
          className={CONTROL_CLASS}
          value={organizationDraftValue(draft, field)}
          maxLength={options.maxLength}
          autoComplete="off"
          onChange={(event) => change(field, event.target.value)}
        />
      )}
    </FormField>
  );

  return (
    <form noValidate onSubmit={review} aria-labelledby="page-heading" className="flex flex-col gap-6">
      <InactiveNotice form={form} />
      <p className="text-sm text-slate-700">{T.requiredHint}</p>
      <fieldset disabled={busy} className="flex flex-col gap-6">
        <div className="grid gap-4 sm:grid-cols-2">
          <IdField id={id} />
          {text('code', T.code, { required: true, maxLength: 3 })}
          {text('participantName', T.name, { required: true })}
          {text('organizationName', T.organizationName, { required: true })}
          {text('email', T.email, { required: true, type: 'email' })}
          <PhoneField
            id={organizationFieldId('phoneNumber')}
            label={T.phoneNumber}
            required
            value={phoneValueFromText(draft.phoneNumber)}
            onChange={(value) => change('phoneNumber', phoneValueToText(value))}
            error={errors.phoneNumber}
          />
        </div>
        <fieldset className="flex flex-col gap-4 rounded-md border border-slate-300 p-4">
          <legend className="px-1 text-base font-semibold text-slate-900">{T.address}</legend>
          <div className="grid gap-4 sm:grid-cols-2">
            {text('address.street', T.street, { required: true })}
            {text('address.street2', T.street2)}
            {text('address.city', T.city, { required: true })}
            <div className="grid grid-cols-2 gap-4">
              <FormField id={organizationFieldId('address.state')} label={T.state} required error={errors['address.state']}>
                {(control) => (
                  <select
                    {...control}
                    className={CONTROL_CLASS}
                    value={draft.address.state}
                    onChange={(event) => change('address.state', event.target.value)}
                  >
                    <option value="">{T.chooseState}</option>
                    {US_STATES.map(([code, name]) => (
                      <option key={code} value={code}>
                        {`${code} – ${name}`}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
              {text('address.zip', T.zip, { required: true, maxLength: 10 })}
            </div>
          </div>
        </fieldset>
        <div className="flex items-center gap-2">
          <input
            id={organizationFieldId('grantedLimitedPowerOfAttorney')}
            type="checkbox"
            className="h-4 w-4"
            checked={draft.grantedLimitedPowerOfAttorney}
            onChange={(event) => form.send({ type: 'form.powerOfAttorney', granted: event.target.checked })}
          />
          <label htmlFor={organizationFieldId('grantedLimitedPowerOfAttorney')} className="text-sm font-medium text-slate-800">
            {T.powerOfAttorney}
          </label>
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primaryButton} disabled={busy}>
          {T.review}
        </button>
        <Link to={APP_PATHS.organizations} className={secondaryButton}>
          {T.cancel}
        </Link>
        {mode === 'edit' && (
          <Link
            to={APP_PATHS.deleteOrganization(id)}
            className="ml-auto inline-flex h-10 items-center text-sm font-semibold text-red-800 underline"
          >
            {T.deactivate}
          </Link>
        )}
      </div>
    </form>
  );
}

/** The review rows: what will be saved, as the form holds it. */
function reviewRows(id: string, draft: OrganizationDraft): ReadonlyArray<readonly [string, string]> {
  const { address } = draft;
  return [
    [T.id, id],
    [T.code, draft.code.trim().toUpperCase()],
    [T.name, draft.participantName.trim()],
    [T.organizationName, draft.organizationName.trim()],
    [T.email, draft.email.trim()],
    [T.phoneNumber, draft.phoneNumber],
    [
      T.address,
      [address.street, address.street2, `${address.city}, ${address.state} ${address.zip}`]
        .map((part) => part.trim())
        .filter(Boolean)
        .join(', '),
    ],
    [T.powerOfAttorney, draft.grantedLimitedPowerOfAttorney ? T.yes : T.no],
  ];
}

function OrganizationReview({ form }: { form: FormActor }) {
  const draft = useSelector(form, selectOrganizationDraft);
  const id = useSelector(form, selectOrganizationId);
  const busy = useSelector(form, selectIsBusy);
  const failed = useSelector(form, selectSaveFailed);
  const refusal = useSelector(form, selectOrganizationRefusal);
  return (
    <section aria-labelledby={REVIEW_HEADING_ID} className="flex flex-col gap-4">
      <h2 id={REVIEW_HEADING_ID} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
        {T.reviewTitle}
      </h2>
      <p className="text-sm text-slate-700">{T.reviewHint}</p>
      {failed && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <p className="font-semibold">{T.somethingWentWrong}</p>
          {refusal && <p>{refusal}</p>}
        </div>
      )}
      <dl className="grid gap-x-6 gap-y-2 rounded-md border border-slate-200 bg-white p-4 text-sm sm:grid-cols-[max-content_1fr]">
        {reviewRows(id, draft).map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-700">{label}</dt>
            <dd className="break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap gap-3">
        <button type="button" className={primaryButton} disabled={busy} onClick={() => form.send({ type: 'review.confirm' })}>
          {busy ? T.saving : T.confirm}
        </button>
        <button type="button" className={secondaryButton} disabled={busy} onClick={() => form.send({ type: 'review.back' })}>
          {T.backToForm}
        </button>
      </div>
    </section>
  );
}

const selectDialogOpen = (snapshot: OrganizationFormSnapshot) => snapshot.matches('offeringUsers');

/** SPEC section 4: after creation, 'Add users' or 'I'll do it later' (Escape is the latter). */
function AddUsersDialog({ form }: { form: FormActor }) {
  const open = useSelector(form, selectDialogOpen);
  const draft = useSelector(form, selectOrganizationDraft);
  return (
    <Dialog open={open} onClose={() => form.send({ type: 'dialog.later' })} className="relative z-50">
      <DialogBackdrop className="fixed inset-0 bg-black/40" />
      <div className="fixed inset-0 flex items-center justify-center overflow-y-auto p-4">
        <DialogPanel className="flex w-full max-w-lg flex-col gap-4 rounded-lg bg-white p-6 shadow-xl">
          <DialogTitle as="h2" className="text-lg font-semibold text-slate-900">
            {T.createdDialogTitle}
          </DialogTitle>
          <p className="text-sm text-slate-700">{T.createdDialogBody(draft.participantName.trim())}</p>
          <div className="flex flex-wrap gap-3">
            <button type="button" className={primaryButton} onClick={() => form.send({ type: 'dialog.addUsers' })}>
              {T.addUsers}
            </button>
            <button type="button" className={secondaryButton} onClick={() => form.send({ type: 'dialog.later' })}>
              {T.later}
            </button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
