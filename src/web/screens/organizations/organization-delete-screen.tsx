// /administration/organizations/:organizationUuid/delete (SPEC sections 2 and 4): what deactivating
// the organization means, said before the confirmation; the organization-deactivation machine reads
// it, deactivates it once confirmed, then goes back to the list.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  selectDeactivationOrganization,
  selectIsDeactivating,
  type OrganizationDeactivationSnapshot,
} from '../../../../machines/organization-deactivation';
import { APP_PATHS } from '../../../domain/app-paths';
import { ORGANIZATION_TEXTS as T } from '../../../domain/administration-texts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { StatusMessage } from '../../ui/status-message';
import { LoadFailed } from '../assets/asset-table-parts';
import { organizationDeactivationLogic } from './organizations-actors';

const stepOf = (snapshot: OrganizationDeactivationSnapshot) =>
  snapshot.matches('loading')
    ? 'loading'
    : snapshot.matches('notFound')
      ? 'notFound'
      : snapshot.matches('loadFailed')
        ? 'loadFailed'
        : snapshot.matches('alreadyInactive')
          ? 'alreadyInactive'
          : 'confirming';
const selectFailed = (snapshot: OrganizationDeactivationSnapshot) => snapshot.matches('failed');

export function OrganizationDeleteScreen() {
  const { organizationUuid = '' } = useParams();
  return <OrganizationDelete key={organizationUuid} organizationId={organizationUuid} />;
}

function OrganizationDelete({ organizationId }: { organizationId: string }) {
  const services = useAppServices();
  const logic = useMemo(() => organizationDeactivationLogic(services), [services]);
  const deactivation = useScreenActor(logic, { input: { organizationId } });
  const step = useSelector(deactivation, stepOf);
  const organization = useSelector(deactivation, selectDeactivationOrganization);
  const busy = useSelector(deactivation, selectIsDeactivating);
  const failed = useSelector(deactivation, selectFailed);

  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p>
          <Link className="text-sm font-medium text-brand-700 underline" to={APP_PATHS.organizations}>
            {T.backToList}
          </Link>
        </p>
        <PageHeading>{step === 'notFound' ? T.notFoundTitle : T.deactivateTitle}</PageHeading>
      </div>
      {step === 'loading' && <StatusMessage>{T.loadingOrganization}</StatusMessage>}
      {step === 'notFound' && <p>{T.notFound}</p>}
      {step === 'loadFailed' && <LoadFailed message={T.loadFailed} onRetry={() => deactivation.send({ type: 'load.retry' })} />}
      {step === 'alreadyInactive' && organization && (
        <p>
          {T.alreadyInactive}{' '}
          <Link className="font-medium text-brand-700 underline" to={APP_PATHS.organization(organization.id)}>
            {T.reactivate}
          </Link>
        </p>
      )}
      {step === 'confirming' && organization && (
        <section aria-labelledby="deactivate-name" className="flex flex-col gap-4">
          <h2 id="deactivate-name" className="text-lg font-semibold text-slate-900">
            {`${organization.name} (${organization.code})`}
          </h2>
          <ul className="list-disc space-y-1 pl-6 text-sm text-slate-800">
            {T.deactivateExplanation.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {failed && (
            <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
              {T.deactivateFailed}
            </p>
          )}
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              className="inline-flex h-10 items-center rounded-md bg-red-700 px-4 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
              disabled={busy}
              onClick={() => deactivation.send({ type: 'deactivation.confirm' })}
            >
              {busy ? T.deactivating : T.deactivateConfirm}
            </button>
            <Link
              to={APP_PATHS.organization(organization.id)}
              className="inline-flex h-10 items-center rounded-md border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800"
            >
              {T.cancel}
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
