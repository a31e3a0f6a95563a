// /administration/organizations/:organizationUuid/users/new and .../users/:userUuid (SPEC sections
// 2, 4, 5 and 8): the user form, then its review with Confirm, then (a new person) the
// invitation link with Copy link. The user-form machine holds the draft, the search, the rules'
// and the server's errors and the steps; this screen renders them and sends the user's input.
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react';
import { useSelector } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import {
  selectChosen,
  selectDraft,
  selectFailure,
  selectHasFailed,
  selectHiddenRoles,
  selectInvitationLink,
  selectIsSaving,
  selectIsSearching,
  selectMode,
  selectQuery,
  selectSearchAnswered,
  selectSearchFailed,
  selectStep,
  selectSuggestions,
  selectVisibleErrors,
  type UserFormErrors,
  type UserFormSnapshot,
  type UserTextField,
} from '../../../../machines/user-form';
import type { User } from '../../../contract/users';
import { APP_PATHS } from '../../../domain/app-paths';
import { ORGANIZATION_USERS_TEXTS, USER_FORM_TEXTS as T, userRoleLabel } from '../../../domain/organization-users';
import { ASSIGNABLE_USER_ROLES } from '../../../domain/roles';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { CONTROL_CLASS, FormField } from '../../ui/form-field';
import { PageHeading } from '../../ui/page-heading';
import { StatusMessage } from '../../ui/status-message';
import { LoadFailed } from '../assets/asset-table-parts';
import { memberOf } from './organization-users-screen';
import { FAILURE_ID, INVITATION_LINK_ID, REVIEW_HEADING_ID, userFieldId, userFormActors } from './organization-users-actors';

const sameErrors = (a: UserFormErrors, b: UserFormErrors) => JSON.stringify(a) === JSON.stringify(b);
const primaryButton =
  'inline-flex h-10 items-center rounded-md bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 aria-disabled:cursor-not-allowed aria-disabled:opacity-60';
const secondaryButton =
  'inline-flex h-10 items-center rounded-md border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50';
const optionClasses = 'cursor-pointer rounded px-3 py-2 text-sm text-slate-800 data-[focus]:bg-brand-100';

export function NewUserScreen() {
  const { organizationUuid = '' } = useParams();
  return <UserForm key={organizationUuid} participantId={organizationUuid} userId={null} />;
}

export function EditUserScreen() {
  const { organizationUuid = '', userUuid = '' } = useParams();
  return <UserForm key={`${organizationUuid}:${userUuid}`} participantId={organizationUuid} userId={userUuid} />;
}

type FormRef = ReturnType<typeof useScreenActor<ReturnType<typeof userFormActors>>>;

function UserForm({ participantId, userId }: { participantId: string; userId: string | null }) {
  const services = useAppServices();
  const location = useLocation();
  // The member as the list showed it travels in the router state (a deep link reads it).
  const [user] = useState(() => memberOf(location.state));
  const logic = useMemo(() => userFormActors(services, participantId), [services, participantId]);
  const form = useScreenActor(logic, {
    input: userId ? { participantId, mode: 'edit', userId, user } : { participantId, mode: 'new' },
  });
  const step = useSelector(form, selectStep);
  const failure = useSelector(form, selectFailure);
  const editing = userId !== null;

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p>
          <Link className="text-sm font-medium text-brand-700 underline" to={APP_PATHS.organizationUsers(participantId)}>
            {ORGANIZATION_USERS_TEXTS.backToUsers}
          </Link>
        </p>
        <PageHeading>{editing ? T.editTitle : T.addTitle}</PageHeading>
      </div>
      {step === 'loading' && <StatusMessage>{T.loading}</StatusMessage>}
      {step === 'loadFailed' && <LoadFailed message={failure ?? T.loadFailed} onRetry={() => form.send({ type: 'user.reload' })} />}
      {step === 'form' && <FormStep form={form} participantId={participantId} />}
      {step === 'review' && <ReviewStep form={form} />}
      {step === 'invited' && <InvitedStep form={form} />}
    </div>
  );
}

function FormStep({ form, participantId }: { form: FormRef; participantId: string }) {
  const mode = useSelector(form, selectMode);
  const draft = useSelector(form, selectDraft);
  const errors = useSelector(form, selectVisibleErrors, sameErrors);
  const hiddenRoles = useSelector(form, selectHiddenRoles);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    form.send({ type: 'form.submit' });
  };
  const namesReadOnly = mode !== 'new';

  const text = (field: UserTextField, label: string, required: boolean) => (
    <FormField id={userFieldId(field)} label={label} required={required && !namesReadOnly} error={errors[field]}>
      {(control) => (
        <input
          {...control}
          type={field === 'email' ? 'email' : 'text'}
          className={`${CONTROL_CLASS} read-only:bg-slate-100`}
          value={draft[field]}
          readOnly={namesReadOnly}
          autoComplete="off"
          onChange={(event) => form.send({ type: 'form.change', values: { [field]: event.target.value } })}
        />
      )}
    </FormField>
  );

  return (
    <form noValidate onSubmit={submit} aria-labelledby="page-heading" className="flex flex-col gap-6">
      <p className="text-sm text-slate-700">{T.requiredHint}</p>
      {mode !== 'edit' && (
        <div className="flex items-start gap-2">
          <input
            id="user-form-existing"
            type="checkbox"
            className="mt-1 h-4 w-4"
            checked={mode === 'existing'}
            aria-describedby="user-form-existing-hint"
            onChange={() => form.send({ type: 'mode.toggle' })}
          />
          <div>
            <label htmlFor="user-form-existing" className="text-sm font-medium text-slate-800">
              {T.addExisting}
            </label>
            <p id="user-form-existing-hint" className="text-xs text-slate-600">
              {T.addExistingHint}
            </p>
          </div>
        </div>
      )}
      {mode === 'existing' && <UserSearch form={form} error={errors.search} />}
      <div className="grid gap-4 sm:grid-cols-3">
        {text('firstName', T.firstName, true)}
        {text('middleName', T.middleName, false)}
        {text('lastName', T.lastName, true)}
      </div>
      {text('email', T.email, true)}
      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={errors.roles ? `${userFieldId('roles')}-error` : undefined}
        aria-invalid={errors.roles ? true : undefined}
      >
        <legend className="mb-1 text-sm font-medium text-slate-800">
          {T.roles}
          <span aria-hidden="true" className="ml-0.5 text-red-700">
            *
          </span>
        </legend>
        {ASSIGNABLE_USER_ROLES.map((role, index) => (
          <label key={role} className="flex items-center gap-2 text-sm text-slate-800">
            <input
              id={index === 0 ? userFieldId('roles') : undefined}
              type="checkbox"
              className="h-4 w-4"
              checked={draft.roles.includes(role)}
              aria-invalid={errors.roles ? true : undefined}
              aria-describedby={errors.roles ? `${userFieldId('roles')}-error` : undefined}
              onChange={() => form.send({ type: 'role.toggle', role })}
            />
            {userRoleLabel(role)}
          </label>
        ))}
        {hiddenRoles.length > 0 && <p className="text-xs text-slate-600">{T.hiddenRoles(hiddenRoles.map(userRoleLabel).join(', '))}</p>}
        {errors.roles && (
          <p id={`${userFieldId('roles')}-error`} className="text-sm text-red-800">
            {errors.roles}
          </p>
        )}
      </fieldset>
      <div className="flex gap-3">
        <button type="submit" className={primaryButton}>
          {T.review}
        </button>
        <Link to={APP_PATHS.organizationUsers(participantId)} className={secondaryButton}>
          {T.cancel}
        </Link>
      </div>
    </form>
  );
}

/** 'Add existing user': a combobox searching the registry by name or email; choosing fills the fields. */
function UserSearch({ form, error }: { form: FormRef; error: string | undefined }) {
  const query = useSelector(form, selectQuery);
  const suggestions = useSelector(form, selectSuggestions);
  const chosen = useSelector(form, selectChosen);
  const searching = useSelector(form, selectIsSearching);
  const answered = useSelector(form, selectSearchAnswered);
  const searchFailed = useSelector(form, selectSearchFailed);
  const id = userFieldId('search');
  const status = searching ? T.searching : searchFailed ? T.searchFailed : answered && suggestions.length === 0 ? T.noSuggestions : '';
  return (
    <div className="relative flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {T.search}
        <span aria-hidden="true" className="ml-0.5 text-red-700">
          *
        </span>
      </label>
      <Combobox<User | null>
        value={chosen}
        by={(a, b) => a?.userId === b?.userId}
        onChange={(user) => {
          if (user) form.send({ type: 'suggestion.choose', user });
        }}
      >
        <ComboboxInput
          id={id}
          className={CONTROL_CLASS}
          autoComplete="off"
          aria-required
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          displayValue={() => query}
          onChange={(event) => form.send({ type: 'search.change', query: event.target.value })}
        />
        <ComboboxOptions
          modal={false}
          className="absolute top-full left-0 z-40 mt-1 max-h-80 w-full overflow-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg empty:invisible"
        >
          {suggestions.map((user) => (
            <ComboboxOption key={user.userId} value={user} className={optionClasses}>
              <span className="font-medium">{user.fullName}</span> <span className="text-slate-600">{user.email}</span>
            </ComboboxOption>
          ))}
        </ComboboxOptions>
      </Combobox>
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        {T.searchHint}
      </p>
      <p role="status" className="text-sm text-slate-700">
        {status}
      </p>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

function ReviewStep({ form }: { form: FormRef }) {
  const draft = useSelector(form, selectDraft);
  const saving = useSelector(form, selectIsSaving);
  const failed = useSelector(form, selectHasFailed);
  const failure = useSelector(form, selectFailure);
  const rows: readonly (readonly [string, string])[] = [
    [T.firstName, draft.firstName],
    [T.middleName, draft.middleName || T.none],
    [T.lastName, draft.lastName],
    [T.email, draft.email],
    [T.roles, draft.roles.map(userRoleLabel).join(', ')],
  ];
  return (
    <section aria-labelledby={REVIEW_HEADING_ID} className="flex flex-col gap-4">
      <h2 id={REVIEW_HEADING_ID} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
        {T.reviewTitle}
      </h2>
      <p className="text-sm text-slate-700">{T.reviewIntro}</p>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 rounded-md border border-slate-200 bg-white p-4 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-700">{label}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {failed && (
        <div
          id={FAILURE_ID}
          role="alert"
          tabIndex={-1}
          className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900 focus:outline-2 focus:outline-red-700"
        >
          <p className="font-semibold">{T.somethingWentWrong}</p>
          {failure && <p className="mt-1">{failure}</p>}
        </div>
      )}
      <div className="flex gap-3">
        <button
          type="button"
          className={primaryButton}
          aria-disabled={saving}
          onClick={() => {
            if (!saving) form.send({ type: 'review.confirm' });
          }}
        >
          {saving ? T.saving : failed ? T.tryAgain : T.confirm}
        </button>
        <button
          type="button"
          className={secondaryButton}
          aria-disabled={saving}
          onClick={() => {
            if (!saving) form.send({ type: 'review.back' });
          }}
        >
          {T.edit}
        </button>
      </div>
    </section>
  );
}

function InvitedStep({ form }: { form: FormRef }) {
  const link = useSelector(form, selectInvitationLink) ?? '';
  const email = useSelector(form, (snapshot: UserFormSnapshot) => snapshot.context.draft.email);
  return (
    <section aria-labelledby="user-form-invited" className="flex flex-col gap-4">
      <h2 id="user-form-invited" className="text-lg font-semibold text-slate-900">
        {T.invitedTitle}
      </h2>
      <p className="text-sm text-slate-700">{T.invitedIntro(email)}</p>
      <div className="flex flex-col gap-1">
        <label htmlFor={INVITATION_LINK_ID} className="text-sm font-medium text-slate-800">
          {T.invitationLink}
        </label>
        <input
          id={INVITATION_LINK_ID}
          readOnly
          value={link}
          onFocus={(event) => event.currentTarget.select()}
          className={`${CONTROL_CLASS} bg-slate-50`}
        />
      </div>
      <div className="flex gap-3">
        <button type="button" className={primaryButton} onClick={() => form.send({ type: 'link.copy' })}>
          {ORGANIZATION_USERS_TEXTS.copyLink}
        </button>
        <button type="button" className={secondaryButton} onClick={() => form.send({ type: 'invitation.done' })}>
          {T.done}
        </button>
      </div>
    </section>
  );
}
