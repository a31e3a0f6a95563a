// /servicer-lookup and /servicer-lookup/results (SPEC sections 2, 5 and 8): one servicer-lookup
// actor behind both pages (the form hands the results page its search). The form renders the
// draft, SPEC 5's messages and the ALTCHA widget; the results page renders what the actor found.
// The street field is a combobox (Headless UI: the ARIA 1.2 pattern with arrows, Enter, Escape and
// the pointer) over the lookup's address-autocomplete child.
import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react';
import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useMemo, type FormEvent } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import {
  selectChosen,
  selectHasFailed,
  selectIsEmpty as selectNoSuggestion,
  selectIsLoading as selectSuggestionsLoading,
  selectSuggestions,
} from '../../../../machines/address-autocomplete';
import {
  selectAddressAutocomplete,
  selectDraft,
  selectIsBusy,
  selectIsEmpty,
  selectIsFound,
  selectIsVerifying,
  selectResults,
  selectVisibleErrors,
  type AddressAutocompleteRef,
  type servicerLookupMachine,
} from '../../../../machines/servicer-lookup';
import type { AddressSuggestion } from '../../../contract/address-lookup';
import { SERVICER_LOOKUP_PATHS } from '../../../contract/paths';
import type { ServicerLookupErrors, ServicerLookupField } from '../../../contract/servicer-lookup';
import { APP_PATHS } from '../../../domain/app-paths';
import { ADDRESS_AUTOCOMPLETE_TEXTS as A, SERVICER_LOOKUP_TEXTS as T } from '../../../domain/servicer-lookup';
import { SUPPORT_CONTACT } from '../../../domain/texts';
import { US_STATES } from '../../../domain/us-states';
import { useAppServices } from '../../app/services';
import { SERVICE_BASE_URL } from '../../config';
import { CONTROL_CLASS, FormField } from '../../ui/form-field';
import { PageHeading } from '../../ui/page-heading';
import { StatusMessage } from '../../ui/status-message';
import { AltchaWidget } from './altcha-widget';
import { draftOfSearch, fieldId, servicerLookupActors, WIDGET_ID } from './servicer-lookup-actors';

type LookupRef = ActorRefFrom<typeof servicerLookupMachine>;
const LookupContext = createContext<LookupRef | null>(null);
const useLookup = (): LookupRef => {
  const ref = useContext(LookupContext);
  if (!ref) throw new Error('useLookup() is used outside the servicer lookup');
  return ref;
};

export const TITLES = { form: 'Servicer Lookup', results: 'Servicer Lookup Results' } as const;
const CHALLENGE_URL = `${SERVICE_BASE_URL}${SERVICER_LOOKUP_PATHS.servicerLookupChallenge}`;

const sameErrors = (a: ServicerLookupErrors, b: ServicerLookupErrors) => {
  const keys = Object.keys(a) as ServicerLookupField[];
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
};

/** The frame of both pages (a parent route): the actor lives on while the user goes from one to the other. */
export function ServicerLookupLayout() {
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => servicerLookupActors(services), [services]);
  const opensResults = location.pathname.endsWith(APP_PATHS.servicerLookupResults);
  // Its own actor, not a child of the app root: a public page with no session, and the machine
  // reaches no app-wide actor (the root refused to spawn it before a session was known).
  const lookup = useActorRef(logic, {
    input: opensResults ? { results: draftOfSearch(new URLSearchParams(location.search)) } : {},
  });
  return (
    <LookupContext value={lookup}>
      <main id="main" className="mx-auto flex max-w-3xl flex-col gap-6 p-8">
        <Outlet />
      </main>
    </LookupContext>
  );
}

export function LookupForm() {
  const lookup = useLookup();
  const draft = useSelector(lookup, selectDraft);
  const errors = useSelector(lookup, selectVisibleErrors, sameErrors);
  const busy = useSelector(lookup, selectIsBusy);
  const change = (field: ServicerLookupField, value: string) => lookup.send({ type: 'form.change', values: { [field]: value } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    lookup.send({ type: 'form.submit' });
  };
  const text = (
    field: ServicerLookupField,
    label: string,
    options: { required?: boolean; autoComplete?: string; maxLength?: number } = {},
  ) => (
    <FormField id={fieldId(field)} label={label} required={options.required} error={errors[field]}>
      {(control) => (
        <input
          {...control}
          type="text"
          className={CONTROL_CLASS}
          value={draft[field]}
          autoComplete={options.autoComplete}
          maxLength={options.maxLength}
          disabled={busy}
          onChange={(event) => change(field, event.target.value)}
        />
      )}
    </FormField>
  );
  return (
    <>
      <PageHeading>{TITLES.form}</PageHeading>
      <p className="text-slate-700">Find who services a registered loan: the borrower’s last name and the property address.</p>
      <form noValidate onSubmit={submit} className="grid grid-cols-1 gap-4 sm:grid-cols-2" aria-busy={busy}>
        <div className="sm:col-span-2">
          {text('borrowerLastName', 'Borrower last name', { required: true, autoComplete: 'family-name', maxLength: 128 })}
        </div>
        <div className="sm:col-span-2">
          <StreetField error={errors.street1} busy={busy} />
        </div>
        <div className="sm:col-span-2">{text('street2', 'Apt/Unit', { autoComplete: 'address-line2' })}</div>
        {text('city', 'City', { required: true, autoComplete: 'address-level2' })}
        <FormField id={fieldId('state')} label="State" required error={errors.state}>
          {(control) => (
            <select
              {...control}
              className={CONTROL_CLASS}
              value={draft.state}
              disabled={busy}
              onChange={(event) => change('state', event.target.value)}
            >
              <option value="">Select a state</option>
              {US_STATES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name} ({code})
                </option>
              ))}
            </select>
          )}
        </FormField>
        {text('zip', 'Zip', { required: true, autoComplete: 'postal-code', maxLength: 10 })}
        <div className="sm:col-span-2">
          <AltchaWidget
            id={WIDGET_ID}
            challengeUrl={CHALLENGE_URL}
            onVerified={(payload) => lookup.send({ type: 'challenge.verified', payload })}
            onReset={() => lookup.send({ type: 'challenge.reset' })}
          />
        </div>
        <div className="sm:col-span-2">
          <button
            type="submit"
            aria-busy={busy}
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800 disabled:opacity-60"
          >
            Search
          </button>
        </div>
      </form>
    </>
  );
}

const optionClasses = 'cursor-pointer rounded px-3 py-2 text-sm text-slate-800 data-[focus]:bg-brand-100';
const sameSuggestion = (a: AddressSuggestion | null, b: AddressSuggestion | null) => a?.fullAddress === b?.fullAddress;

/** Street: the combobox while the form's autocomplete runs (a plain field while the results page's actor shows it). */
function StreetField({ error, busy }: { error: string | undefined; busy: boolean }) {
  const lookup = useLookup();
  const street = useSelector(lookup, (snapshot) => snapshot.context.draft.street1);
  const autocomplete = useSelector(lookup, selectAddressAutocomplete);
  const id = fieldId('street1');
  return (
    <FormField id={id} label="Street" required error={error} hint={A.hint}>
      {(control) =>
        autocomplete ? (
          <StreetCombobox autocomplete={autocomplete} control={control} street={street} busy={busy} />
        ) : (
          <input
            {...control}
            type="text"
            className={CONTROL_CLASS}
            value={street}
            autoComplete="address-line1"
            disabled={busy}
            onChange={(event) => lookup.send({ type: 'address.type', value: event.target.value })}
          />
        )
      }
    </FormField>
  );
}

function StreetCombobox({
  autocomplete,
  control,
  street,
  busy,
}: {
  autocomplete: AddressAutocompleteRef;
  control: Parameters<Parameters<typeof FormField>[0]['children']>[0];
  street: string;
  busy: boolean;
}) {
  const lookup = useLookup();
  const suggestions = useSelector(autocomplete, selectSuggestions);
  const chosen = useSelector(autocomplete, selectChosen);
  const loading = useSelector(autocomplete, selectSuggestionsLoading);
  const none = useSelector(autocomplete, selectNoSuggestion);
  const failed = useSelector(autocomplete, selectHasFailed);
  const status = loading
    ? A.searching
    : failed
      ? A.failed
      : none
        ? A.none
        : suggestions.length > 0 && !chosen
          ? A.count(suggestions.length)
          : '';
  return (
    <Combobox<AddressSuggestion | null>
      value={chosen}
      by={sameSuggestion}
      disabled={busy}
      onChange={(suggestion) => {
        if (suggestion) autocomplete.send({ type: 'suggestion.choose', suggestion });
      }}
      onClose={() => autocomplete.send({ type: 'suggestions.dismiss' })}
    >
      <div className="relative">
        <ComboboxInput
          {...control}
          className={CONTROL_CLASS}
          autoComplete="off"
          displayValue={() => street}
          onChange={(event) => lookup.send({ type: 'address.type', value: event.target.value })}
        />
        <ComboboxOptions
          modal={false}
          aria-label={A.listLabel}
          className="absolute top-full left-0 z-40 mt-1 max-h-80 w-full overflow-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg empty:invisible"
        >
          {suggestions.map((suggestion) => (
            <ComboboxOption key={suggestion.fullAddress} value={suggestion} className={optionClasses}>
              {suggestion.fullAddress}
            </ComboboxOption>
          ))}
        </ComboboxOptions>
      </div>
      <p role="status" className="mt-1 min-h-5 text-sm text-slate-700">
        {status}
      </p>
    </Combobox>
  );
}

export function LookupResults() {
  const lookup = useLookup();
  const busy = useSelector(lookup, selectIsBusy);
  const verifying = useSelector(lookup, selectIsVerifying);
  const found = useSelector(lookup, selectIsFound);
  const empty = useSelector(lookup, selectIsEmpty);
  const results = useSelector(lookup, selectResults);
  const back = (
    <Link
      to={APP_PATHS.servicerLookup}
      onClick={() => lookup.send({ type: 'lookup.restart' })}
      className="font-medium text-brand-700 underline"
    >
      {T.returnLink}
    </Link>
  );
  return (
    <>
      <PageHeading>{TITLES.results}</PageHeading>
      {/* The results page solves its own proof of work when it was opened at its URL. */}
      {verifying && (
        <div className="sr-only">
          <AltchaWidget id={WIDGET_ID} challengeUrl={CHALLENGE_URL} />
        </div>
      )}
      {busy && <StatusMessage>{T.searching}</StatusMessage>}
      {found && (
        <ul className="flex flex-col gap-4" aria-label="Servicers found">
          {results.map((result) => (
            <li key={result.uli} className="rounded-md border border-slate-300 p-4">
              <h2 className="text-lg font-semibold text-slate-900">{result.servicerName}</h2>
              <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
                <dt className="text-slate-600">ULI</dt>
                <dd>{result.uli}</dd>
                <dt className="text-slate-600">Loan number</dt>
                <dd>{result.loanNumber}</dd>
                <dt className="text-slate-600">Loan type</dt>
                <dd>{result.loanType}</dd>
                {result.servicerProfile.address.city && (
                  <>
                    <dt className="text-slate-600">Location</dt>
                    <dd>
                      {result.servicerProfile.address.city}, {result.servicerProfile.address.state}
                    </dd>
                  </>
                )}
                {result.servicerProfile.phoneNumber && (
                  <>
                    <dt className="text-slate-600">Phone</dt>
                    <dd>{result.servicerProfile.phoneNumber}</dd>
                  </>
                )}
                {result.servicerProfile.url && (
                  <>
                    <dt className="text-slate-600">Website</dt>
                    <dd>
                      <a className="text-brand-700 underline" href={result.servicerProfile.url} rel="noopener noreferrer">
                        {result.servicerProfile.url}
                      </a>
                    </dd>
                  </>
                )}
              </dl>
            </li>
          ))}
        </ul>
      )}
      {empty && (
        <div role="status" className="flex flex-col gap-2">
          <p className="text-lg font-semibold text-slate-900">{T.noMatches}</p>
          <p className="text-slate-700">
            Questions? Contact{' '}
            <a className="font-medium text-brand-700 underline" href={`mailto:${SUPPORT_CONTACT.email}`}>
              {SUPPORT_CONTACT.email}
            </a>
            .
          </p>
        </div>
      )}
      {!busy && <p>{back}</p>}
    </>
  );
}
