// /profile (SPEC section 2): the security factors. The list (type, masked value, required), add
// by type, remove where SPEC section 6 allows it (a confirm step; the reason where it does not),
// and the password change for a manageable account. The security-factors machine holds it; this
// screen renders it and sends its events.
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import {
  selectFactorRows,
  selectFactorsLoadFailed,
  selectIsBusy,
  selectIsLoadingFactors,
  selectPasswordManageable,
  selectRemovalCandidate,
} from '../../../../machines/security-factors';
import { FACTOR_TEXTS, FACTOR_TYPE_LABELS, FACTOR_TYPES } from '../../../domain/security-factors';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { StatusMessage } from '../../ui/status-message';
import { LoadFailed } from '../assets/asset-table-parts';
import { FACTORS_HEADING_ID, REMOVAL_QUESTION_ID, returnedFrom, securityFactorsActors } from './security-factors-actors';

export const PROFILE_TEXTS = {
  factorsHeading: 'Sign-in factors',
  loading: 'Loading your security factors…',
  addHeading: 'Add a factor',
  add: (label: string) => `Add ${label.toLowerCase()}`,
  required: 'Required',
  remove: 'Remove',
  removeQuestion: (label: string, value: string) => `Remove the ${label.toLowerCase()} factor ${value}?`,
  removeExplanation: 'You may be asked for your password. A notice goes to your email address.',
  confirmRemove: 'Remove factor',
  removingNow: 'Removing…',
  cancel: 'Cancel',
  passwordHeading: 'Password',
  changePassword: 'Change password',
  passwordManagedElsewhere: 'Your password is managed by your organization and cannot be changed here.',
  noFactors: 'No factors yet.',
} as const;

const BUTTON =
  'inline-flex h-10 items-center rounded-md px-4 text-sm font-semibold aria-disabled:cursor-not-allowed aria-disabled:opacity-60';
const PRIMARY = `${BUTTON} bg-brand-700 text-white hover:bg-brand-800`;
const SECONDARY = `${BUTTON} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`;

export function ProfileScreen() {
  const services = useAppServices();
  const location = useLocation();
  // Back from a hosted page: the nonce it carries is checked once, against the one this tab sent.
  const [returned] = useState(() => returnedFrom(location.search));
  const logic = useMemo(() => securityFactorsActors(services), [services]);
  const factors = useScreenActor(logic, { input: { returned } });
  const rows = useSelector(factors, selectFactorRows);
  const loading = useSelector(factors, selectIsLoadingFactors);
  const loadFailed = useSelector(factors, selectFactorsLoadFailed);
  const busy = useSelector(factors, selectIsBusy);
  const candidate = useSelector(factors, selectRemovalCandidate);
  const passwordManageable = useSelector(factors, selectPasswordManageable);
  const ready = !loading && !loadFailed;

  return (
    <div className="flex max-w-3xl flex-col gap-8">
      <PageHeading>{FACTOR_TEXTS.title}</PageHeading>
      {loading && <StatusMessage>{PROFILE_TEXTS.loading}</StatusMessage>}
      {loadFailed && <LoadFailed message={FACTOR_TEXTS.loadFailed} onRetry={() => factors.send({ type: 'factors.reload' })} />}
      {ready && (
        <>
          <section aria-labelledby={FACTORS_HEADING_ID} className="flex flex-col gap-3">
            <h2 id={FACTORS_HEADING_ID} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
              {PROFILE_TEXTS.factorsHeading}
            </h2>
            {rows.length === 0 ? (
              <p className="text-sm text-slate-700">{PROFILE_TEXTS.noFactors}</p>
            ) : (
              <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
                {rows.map(({ factor, id, refusal }) => (
                  <li key={id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                    <div className="flex flex-col">
                      <span className="font-medium text-slate-900">
                        {FACTOR_TYPE_LABELS[factor.type]}
                        {factor.required && (
                          <span className="ml-2 rounded bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">
                            {PROFILE_TEXTS.required}
                          </span>
                        )}
                      </span>
                      <span className="text-sm text-slate-700">{factor.value}</span>
                    </div>
                    {refusal === null ? (
                      <button
                        type="button"
                        className={SECONDARY}
                        aria-disabled={busy}
                        aria-label={`${PROFILE_TEXTS.remove} ${FACTOR_TYPE_LABELS[factor.type]} ${factor.value}`}
                        onClick={() => {
                          if (!busy) factors.send({ type: 'factor.remove', factorId: id });
                        }}
                      >
                        {PROFILE_TEXTS.remove}
                      </button>
                    ) : (
                      <p className="max-w-xs text-sm text-slate-700">{refusal}</p>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {candidate && (
              <div
                id={REMOVAL_QUESTION_ID}
                role="group"
                aria-labelledby={`${REMOVAL_QUESTION_ID}-question`}
                tabIndex={-1}
                className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 focus:outline-2 focus:outline-amber-700"
              >
                <p id={`${REMOVAL_QUESTION_ID}-question`} className="font-medium text-slate-900">
                  {PROFILE_TEXTS.removeQuestion(FACTOR_TYPE_LABELS[candidate.type], candidate.value)}
                </p>
                <p className="text-sm text-slate-700">{PROFILE_TEXTS.removeExplanation}</p>
                <div className="flex gap-3">
                  <button
                    type="button"
                    className={`${BUTTON} bg-red-700 text-white hover:bg-red-800`}
                    aria-disabled={busy}
                    onClick={() => {
                      if (!busy) factors.send({ type: 'removal.confirm' });
                    }}
                  >
                    {busy ? PROFILE_TEXTS.removingNow : PROFILE_TEXTS.confirmRemove}
                  </button>
                  <button
                    type="button"
                    className={SECONDARY}
                    aria-disabled={busy}
                    onClick={() => {
                      if (!busy) factors.send({ type: 'removal.cancel' });
                    }}
                  >
                    {PROFILE_TEXTS.cancel}
                  </button>
                </div>
              </div>
            )}
          </section>
          <section aria-labelledby="security-factors-add" className="flex flex-col gap-3">
            <h2 id="security-factors-add" className="text-lg font-semibold text-slate-900">
              {PROFILE_TEXTS.addHeading}
            </h2>
            <div className="flex flex-wrap gap-3">
              {FACTOR_TYPES.map((type) => (
                <button
                  key={type}
                  type="button"
                  className={PRIMARY}
                  aria-disabled={busy}
                  onClick={() => {
                    if (!busy) factors.send({ type: 'factor.add', factorType: type });
                  }}
                >
                  {PROFILE_TEXTS.add(FACTOR_TYPE_LABELS[type])}
                </button>
              ))}
            </div>
          </section>
          <section aria-labelledby="security-factors-password" className="flex flex-col gap-3">
            <h2 id="security-factors-password" className="text-lg font-semibold text-slate-900">
              {PROFILE_TEXTS.passwordHeading}
            </h2>
            {passwordManageable ? (
              <div>
                <button
                  type="button"
                  className={SECONDARY}
                  aria-disabled={busy}
                  onClick={() => {
                    if (!busy) factors.send({ type: 'password.change' });
                  }}
                >
                  {PROFILE_TEXTS.changePassword}
                </button>
              </div>
            ) : (
              <p className="text-sm text-slate-700">{PROFILE_TEXTS.passwordManagedElsewhere}</p>
            )}
          </section>
        </>
      )}
    </div>
  );
}
