// /administration/organizations/:organizationUuid/users/:userUuid/delete (SPEC section 2): the
// member named and what removal means, then Remove user; a refusal (409: the last administrator,
// oneself) is said above the buttons. The user-removal machine holds it; this screen renders it.
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import {
  selectIsRemovalLoading,
  selectIsRemoving,
  selectRemovalFailed,
  selectRemovalFailure,
  selectRemovalLoadFailed,
  selectRemovalUser,
} from '../../../../machines/user-removal';
import { APP_PATHS } from '../../../domain/app-paths';
import { ORGANIZATION_USERS_TEXTS, USER_FORM_TEXTS, USER_REMOVAL_TEXTS as T, userRoleLabel } from '../../../domain/organization-users';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { StatusMessage } from '../../ui/status-message';
import { LoadFailed } from '../assets/asset-table-parts';
import { REMOVAL_FAILURE_ID, userRemovalActors } from './organization-users-actors';
import { memberOf } from './organization-users-screen';

export function UserRemovalScreen() {
  const { organizationUuid = '', userUuid = '' } = useParams();
  return <UserRemoval key={`${organizationUuid}:${userUuid}`} participantId={organizationUuid} userId={userUuid} />;
}

function UserRemoval({ participantId, userId }: { participantId: string; userId: string }) {
  const services = useAppServices();
  const location = useLocation();
  const [user] = useState(() => memberOf(location.state));
  const logic = useMemo(() => userRemovalActors(services, participantId), [services, participantId]);
  const removal = useScreenActor(logic, { input: { participantId, userId, user } });
  const member = useSelector(removal, selectRemovalUser);
  const loading = useSelector(removal, selectIsRemovalLoading);
  const loadFailed = useSelector(removal, selectRemovalLoadFailed);
  const removing = useSelector(removal, selectIsRemoving);
  const failed = useSelector(removal, selectRemovalFailed);
  const failure = useSelector(removal, selectRemovalFailure);
  const listPath = APP_PATHS.organizationUsers(participantId);

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p>
          <Link className="text-sm font-medium text-brand-700 underline" to={listPath}>
            {ORGANIZATION_USERS_TEXTS.backToUsers}
          </Link>
        </p>
        <PageHeading>{T.title}</PageHeading>
      </div>
      {loading && <StatusMessage>{USER_FORM_TEXTS.loading}</StatusMessage>}
      {loadFailed && <LoadFailed message={failure ?? USER_FORM_TEXTS.loadFailed} onRetry={() => removal.send({ type: 'user.reload' })} />}
      {member && !loading && !loadFailed && (
        <section className="flex flex-col gap-4">
          <p className="text-base font-medium text-slate-900">{T.question(member.fullName, null)}</p>
          <p className="text-sm text-slate-700">
            {member.email} · {member.roles.map(userRoleLabel).join(', ')}
          </p>
          <p className="text-sm text-slate-700">{T.explanation}</p>
          {failed && (
            <div
              id={REMOVAL_FAILURE_ID}
              role="alert"
              tabIndex={-1}
              className="rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900 focus:outline-2 focus:outline-red-700"
            >
              <p className="font-semibold">{T.failed}</p>
              {failure && <p className="mt-1">{failure}</p>}
            </div>
          )}
          <div className="flex gap-3">
            <button
              type="button"
              aria-disabled={removing}
              onClick={() => {
                if (!removing) removal.send({ type: 'removal.confirm' });
              }}
              className="inline-flex h-10 items-center rounded-md bg-red-700 px-4 text-sm font-semibold text-white hover:bg-red-800 aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
            >
              {removing ? T.removing : T.confirm}
            </button>
            <Link
              to={listPath}
              className="inline-flex h-10 items-center rounded-md border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50"
            >
              {T.cancel}
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
