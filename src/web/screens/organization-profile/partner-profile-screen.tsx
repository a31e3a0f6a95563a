// The partner view (SPEC sections 2 and 6): a relationship's partner profile, read only; no
// Update button is offered. Reached from the relationships on the profile page and from
// RELATIONSHIP messages. A relationship the organization is not part of is 'not found'.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { selectHasFailed, selectIsNotFound, selectPartner } from '../../../../machines/partner-profile';
import { selectParticipantId } from '../../../../machines/session';
import { APP_PATHS } from '../../../domain/app-paths';
import { PROFILE_TEXTS as T } from '../../../domain/administration-texts';
import { SessionActorContext } from '../../app/actor-contexts';
import { useScreenActor } from '../../app/screen-actor';
import { useAppServices } from '../../app/services';
import { PageHeading } from '../../ui/page-heading';
import { StatusMessage } from '../../ui/status-message';
import { LoadFailed } from '../assets/asset-table-parts';
import { partnerProfileActors } from './partner-profile-actors';
import { ProfileDetails } from './profile-details';

export function PartnerProfileScreen() {
  const { relationshipId = '' } = useParams();
  const participantId = SessionActorContext.useSelector(selectParticipantId) ?? '';
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link className="text-sm font-medium text-brand-700 underline" to={APP_PATHS.organizationProfile}>
          {T.backToProfile}
        </Link>
      </p>
      <PageHeading>{T.partnerTitle}</PageHeading>
      <PartnerProfile key={`${relationshipId}:${participantId}`} relationshipId={relationshipId} />
    </div>
  );
}

function PartnerProfile({ relationshipId }: { relationshipId: string }) {
  const services = useAppServices();
  const logic = useMemo(() => partnerProfileActors(services), [services]);
  const actor = useScreenActor(logic, { input: { relationshipId } });
  const loaded = useSelector(actor, selectPartner);
  const notFound = useSelector(actor, selectIsNotFound);
  const failed = useSelector(actor, selectHasFailed);
  if (notFound) return <p role="alert">{T.relationshipNotFound}</p>;
  if (failed) return <LoadFailed message={T.loadFailed} onRetry={() => actor.send({ type: 'partner.retry' })} />;
  if (!loaded) return <StatusMessage>Loading the partner profile…</StatusMessage>;
  const { relationship, partner } = loaded;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-slate-700">{`${relationship.type} relationship with ${relationship.partnerName}: ${relationship.state}`}</p>
      <ProfileDetails profile={partner} />
    </div>
  );
}
