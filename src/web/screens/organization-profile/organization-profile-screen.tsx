// /administration/profile (SPEC sections 2, 3, 5, 6 and 8): the acting organization's contact
// profile read only, with an Update button for its ORG_ADMIN that opens the form (the profile's
// fields, the phone field, the additional contacts); below, the organization's relationships,
// each leading to the partner view. One actor per organization: a switch starts afresh.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import {
  selectCanEdit,
  selectIsEditing,
  selectIsLoading,
  selectLoadFailed,
  selectProfile,
  type organizationProfileMachine,
} from '../../../../machines/organization-profile';
import { selectHasFailed } from '../../../../machines/paged-list';
import { parseRelationshipsView, relationshipsListInput, serializeRelationshipsView } from '../../../../machines/relationships-list';
import { selectParticipantId } from '../../../../machines/session';
import type { Relationship } from '../../../contract/profile';
import { APP_PATHS } from '../../../domain/app-paths';
import { PROFILE_TEXTS as T } from '../../../domain/administration-texts';
import { SessionActorContext } from '../../app/actor-contexts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { createDataTableColumnHelper, ListDataTable, type DataTableColumn } from '../../ui/data-table';
import { PageHeading } from '../../ui/page-heading';
import { ListPagination } from '../../ui/pagination';
import { StatusMessage } from '../../ui/status-message';
import { useListUrl } from '../../ui/use-list-url';
import { LoadFailed } from '../assets/asset-table-parts';
import { organizationProfileActors, relationshipsListLogic } from './organization-profile-actors';
import { ProfileDetails } from './profile-details';
import { ProfileForm } from './profile-form';
import type { ActorRefFrom } from 'xstate';

export type OrganizationProfileRef = ActorRefFrom<typeof organizationProfileMachine>;

export function OrganizationProfileScreen() {
  const participantId = SessionActorContext.useSelector(selectParticipantId) ?? '';
  return (
    <div className="flex flex-col gap-8">
      <PageHeading>{T.title}</PageHeading>
      <OrganizationProfile key={participantId} participantId={participantId} />
      <RelationshipsSection key={`relationships-${participantId}`} />
    </div>
  );
}

function OrganizationProfile({ participantId }: { participantId: string }) {
  const services = useAppServices();
  const logic = useMemo(() => organizationProfileActors(services, participantId), [services, participantId]);
  const actor = useScreenActor(logic);
  const profile = useSelector(actor, selectProfile);
  const loading = useSelector(actor, selectIsLoading);
  const loadFailed = useSelector(actor, selectLoadFailed);
  const editing = useSelector(actor, selectIsEditing);
  const canEdit = useSelector(actor, selectCanEdit);

  if (loadFailed) return <LoadFailed message={T.loadFailed} onRetry={() => actor.send({ type: 'profile.retry' })} />;
  if (loading || !profile) return <StatusMessage>Loading the profile…</StatusMessage>;
  if (editing) return <ProfileForm actor={actor} />;
  return (
    <div className="flex flex-col gap-4">
      {canEdit && (
        <div>
          <button
            type="button"
            className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white"
            onClick={() => actor.send({ type: 'profile.edit' })}
          >
            {T.update}
          </button>
        </div>
      )}
      <ProfileDetails profile={profile} />
    </div>
  );
}

const helper = createDataTableColumnHelper<Relationship>();

const relationshipColumns: readonly DataTableColumn<Relationship>[] = [
  helper.accessor('partnerName', {
    id: 'partnerName',
    header: T.partner,
    size: 280,
    cell: ({ row }) => (
      <Link className="font-medium text-brand-700 underline" to={APP_PATHS.partnerProfile(row.original.id)}>
        {row.original.partnerName}
      </Link>
    ),
  }),
  helper.accessor('type', { id: 'type', header: T.relationshipType, size: 160 }),
  helper.accessor('state', { id: 'state', header: T.relationshipState, size: 160 }),
];

const RELATIONSHIPS_URL = { parse: parseRelationshipsView, serialize: serializeRelationshipsView };

function RelationshipsSection() {
  const services = useAppServices();
  const location = useLocation();
  const logic = useMemo(() => relationshipsListLogic(services), [services]);
  const list = useActorRef(logic, { input: relationshipsListInput(parseRelationshipsView(location.search)) });
  useListUrl(list, RELATIONSHIPS_URL);
  const failed = useSelector(list, selectHasFailed);
  return (
    <div className="flex flex-col gap-3">
      <h2 id="relationships-heading" className="text-lg font-semibold text-slate-900">
        {T.relationships}
      </h2>
      {failed ? (
        <LoadFailed message={T.relationshipsFailed} onRetry={() => list.send({ type: 'list.reload' })} />
      ) : (
        <div>
          <ListDataTable
            list={list}
            label={T.relationships}
            columns={relationshipColumns}
            getRowId={(relationship) => relationship.id}
            loadingMessage="Loading relationships…"
            emptyMessage={T.noRelationships}
          />
          <ListPagination list={list} />
        </div>
      )}
    </div>
  );
}
