// /assets/asset/:loanId/details/deactivate (SPEC sections 2, 3, 5 and 8): the deactivation
// request form. The deactivation machine holds the draft, the rules' and the server's errors and
// the submit; this screen renders them and sends the user's input as events.
import { useSelector } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import {
  selectDraft,
  selectFile,
  selectIsChecking,
  selectIsSubmitting,
  selectIsUnavailable,
  selectRefusal,
  selectShowsAssignee,
  selectVisibleErrors,
} from '../../../../machines/deactivation';
import {
  draftValue,
  INSTRUMENT_FILE_FIELD,
  type DeactivationErrors,
  type DeactivationField,
  type DeactivationTextField,
} from '../../../contract/deactivation';
import { APP_PATHS } from '../../../domain/app-paths';
import {
  DEACTIVATION_ENTITY_TYPES,
  DEACTIVATION_REASON_LABELS,
  DEACTIVATION_REASONS,
  PDF_CONTENT_TYPE,
} from '../../../domain/deactivation';
import { ASSET_PAGE_TEXTS } from '../../../domain/asset-texts';
import { DEACTIVATION_TEXTS as T } from '../../../domain/deactivation-texts';
import { US_STATES } from '../../../domain/us-states';
import { selectParticipantId } from '../../../../machines/session';
import { SessionActorContext } from '../../app/actor-contexts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { CONTROL_CLASS, FormField } from '../../ui/form-field';
import { PageHeading } from '../../ui/page-heading';
import { ASSET_LIST_VIEWS, returnPathOf } from '../assets/asset-table-parts';
import { StatusMessage } from '../../ui/status-message';
import { deactivationActors, fieldId, REFUSAL_ID, SUBMIT_ID } from './deactivation-actors';

const sameErrors = (a: DeactivationErrors, b: DeactivationErrors) => {
  const keys = Object.keys(a) as DeactivationField[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

const formatSize = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

export function DeactivationScreen() {
  const { loanId = '' } = useParams();
  const participantId = SessionActorContext.useSelector(selectParticipantId) ?? '';
  return <DeactivationForm key={`${loanId}:${participantId}`} loanId={loanId} participantId={participantId} />;
}

function DeactivationForm({ loanId, participantId }: { loanId: string; participantId: string }) {
  const services = useAppServices();
  // The list view the asset was opened from travels in the router state: list -> asset -> here.
  const location = useLocation();
  const [listView] = useState(() => returnPathOf(location.state, ASSET_LIST_VIEWS));
  const backState = listView ? { returnTo: listView } : undefined;
  const logic = useMemo(() => deactivationActors(services, listView ?? APP_PATHS.assets), [services, listView]);
  const form = useScreenActor(logic, { input: { loanId, participantId } });
  const draft = useSelector(form, selectDraft);
  const file = useSelector(form, selectFile);
  const errors = useSelector(form, selectVisibleErrors, sameErrors);
  const submitting = useSelector(form, selectIsSubmitting);
  const showsAssignee = useSelector(form, selectShowsAssignee);
  const refusal = useSelector(form, selectRefusal);
  const checking = useSelector(form, selectIsChecking);
  const unavailable = useSelector(form, selectIsUnavailable);

  const change = (field: DeactivationTextField, value: string) => form.send({ type: 'form.change', values: { [field]: value } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submit' });
  };

  const text = (field: DeactivationTextField, label: string, options: { required?: boolean; className?: string; list?: string } = {}) => (
    <FormField id={fieldId(field)} label={label} required={options.required} error={errors[field]} className={options.className}>
      {(control) => (
        <input
          {...control}
          type="text"
          className={CONTROL_CLASS}
          value={draftValue(draft, field)}
          list={options.list}
          autoComplete="off"
          onChange={(event) => change(field, event.target.value)}
        />
      )}
    </FormField>
  );

  const select = (field: DeactivationTextField, label: string, options: readonly (readonly [string, string])[]) => (
    <FormField id={fieldId(field)} label={label} required error={errors[field]}>
      {(control) => (
        <select
          {...control}
          className={CONTROL_CLASS}
          value={draftValue(draft, field)}
          onChange={(event) => change(field, event.target.value)}
        >
          <option value="">{T.choose}</option>
          {options.map(([value, optionLabel]) => (
            <option key={value} value={value}>
              {optionLabel}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );

  return (
    <div className="flex max-w-4xl flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p>
          <Link className="text-sm font-medium text-brand-700 underline" to={APP_PATHS.asset(loanId)} state={backState}>
            {T.backToAsset}
          </Link>
        </p>
        <PageHeading>{T.title}</PageHeading>
        <p className="text-sm text-slate-700">{T.requiredHint}</p>
      </div>
      {refusal && (
        <p
          id={REFUSAL_ID}
          role="alert"
          tabIndex={-1}
          className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900 focus:outline-2 focus:outline-red-700"
        >
          {refusal}
        </p>
      )}
      {checking && <StatusMessage>{ASSET_PAGE_TEXTS.loading}</StatusMessage>}
      {!checking && !unavailable && (
        <form noValidate onSubmit={submit} aria-labelledby="page-heading" className="flex flex-col gap-6">
          <fieldset disabled={submitting} className="flex flex-col gap-6">
            <div className="grid gap-4 sm:grid-cols-2">
              {select(
                'reason',
                T.reason,
                DEACTIVATION_REASONS.map((reason) => [reason, DEACTIVATION_REASON_LABELS[reason]] as const),
              )}
              <FormField id={fieldId('effectiveDate')} label={T.effectiveDate} required error={errors.effectiveDate}>
                {(control) => (
                  <input
                    {...control}
                    type="date"
                    className={CONTROL_CLASS}
                    value={draft.effectiveDate}
                    onChange={(event) => change('effectiveDate', event.target.value)}
                  />
                )}
              </FormField>
              {showsAssignee && text('assignee', T.assignee, { className: 'sm:col-span-2' })}
              {select(
                'entityType',
                T.entityType,
                DEACTIVATION_ENTITY_TYPES.map((type) => [type, type] as const),
              )}
              {select(
                'statePostalCode',
                T.statePostalCode,
                US_STATES.map(([code, name]) => [code, `${code} – ${name}`] as const),
              )}
            </div>

            <fieldset className="flex flex-col gap-4 rounded-md border border-slate-300 p-4">
              <legend className="px-1 text-base font-semibold text-slate-900">{T.address}</legend>
              <div className="grid gap-4 sm:grid-cols-2">
                {text('address.street1', T.street1, { required: true })}
                {text('address.street2', T.street2)}
                {text('address.city', T.city, { required: true })}
                <div className="grid grid-cols-2 gap-4">
                  {text('address.state', T.state, { required: true, list: 'deactivation-state-codes' })}
                  {text('address.zip', T.zip, { required: true })}
                </div>
              </div>
              <datalist id="deactivation-state-codes">
                {US_STATES.map(([code, name]) => (
                  <option key={code} value={code}>
                    {name}
                  </option>
                ))}
              </datalist>
            </fieldset>

            <fieldset className="flex flex-col gap-4 rounded-md border border-slate-300 p-4">
              <legend className="px-1 text-base font-semibold text-slate-900">{T.recording}</legend>
              <div className="grid gap-4 sm:grid-cols-3">
                {text('bookNumber', T.bookNumber)}
                {text('pageNumber', T.pageNumber)}
                {text('instrumentNumber', T.instrumentNumber)}
              </div>
            </fieldset>

            <FormField id={fieldId(INSTRUMENT_FILE_FIELD)} label={T.file} required hint={T.fileHint} error={errors[INSTRUMENT_FILE_FIELD]}>
              {(control) => (
                <input
                  {...control}
                  type="file"
                  accept={`${PDF_CONTENT_TYPE},.pdf`}
                  className="text-sm text-slate-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-100 file:px-3 file:py-2 file:font-medium file:text-brand-900"
                  onChange={(event) => form.send({ type: 'form.file', file: event.target.files?.[0] ?? null })}
                />
              )}
            </FormField>
            {file && (
              <p className="-mt-4 text-sm text-slate-700" data-testid="deactivation-file">
                {file.name} ({formatSize(file.size)})
              </p>
            )}
          </fieldset>

          <div className="flex items-center gap-4">
            {/* aria-disabled, not disabled, while it runs: the button keeps the focus; the machine ignores a second submit. */}
            <button
              id={SUBMIT_ID}
              type="submit"
              aria-disabled={submitting}
              aria-busy={submitting}
              className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-600 aria-disabled:opacity-70"
            >
              {submitting ? T.submitting : T.submit}
            </button>
            <Link className="font-medium text-brand-700 underline" to={APP_PATHS.asset(loanId)} state={backState}>
              {T.cancel}
            </Link>
          </div>
        </form>
      )}
    </div>
  );
}
