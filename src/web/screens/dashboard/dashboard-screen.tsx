// /dashboard: hero with the tiles Assets, Messages and Administration; the Assets tile counts
// the current organization's assets (counted again for each organization), the Messages tile
// shows its unread count (the app-wide count the navigation badge shows too).
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { APP_PATHS } from '../../../domain/app-paths';
import { NAVIGATION_LABELS } from '../../../domain/texts';
import { selectCurrentOrganization, selectParticipantId, selectUserFirstName } from '../../../../machines/session';
import { SessionActorContext } from '../../app/actor-contexts';
import { Icon, type IconName } from '../../ui/icons';
import { PageHeading } from '../../ui/page-heading';
import { AssetCountRetry, AssetCountText, useAssetCount } from './asset-count-tile';
import { MessageCountRetry, MessageCountText } from './message-count-tile';

type TileSpec = { to: string; icon: IconName; title: string; description: string };

const assetsTile: TileSpec = {
  to: APP_PATHS.assets,
  icon: 'assets',
  title: NAVIGATION_LABELS.assets,
  description: 'Loans and pools your organization holds a role on.',
};
const messagesTile: TileSpec = {
  to: APP_PATHS.messages,
  icon: 'messages',
  title: NAVIGATION_LABELS.messages,
  description: 'Requests and notices for your organization.',
};
const otherTiles: readonly TileSpec[] = [
  {
    to: APP_PATHS.administration,
    icon: 'administration',
    title: NAVIGATION_LABELS.administration,
    description: 'Your organization’s profile and users.',
  },
];

export function DashboardScreen() {
  const firstName = SessionActorContext.useSelector(selectUserFirstName);
  const organizationName = SessionActorContext.useSelector((snapshot) => selectCurrentOrganization(snapshot)?.participant.name ?? '');
  const participantId = SessionActorContext.useSelector(selectParticipantId);
  return (
    <div className="flex flex-col gap-8">
      <section className="rounded-xl bg-gradient-to-r from-brand-900 to-brand-700 p-8 text-white">
        <PageHeading>
          <span className="text-white">Welcome, {firstName}</span>
        </PageHeading>
        <p className="mt-2 text-brand-100" data-testid="current-organization">
          {organizationName}
        </p>
      </section>
      <ul className="grid gap-4 sm:grid-cols-3" aria-label="Dashboard">
        <AssetsTile key={participantId ?? ''} />
        <Tile tile={messagesTile} after={<MessageCountRetry />}>
          <MessageCountText />
        </Tile>
        {otherTiles.map((tile) => (
          <Tile key={tile.to} tile={tile} />
        ))}
      </ul>
    </div>
  );
}

function Tile({ tile, children, after }: { tile: TileSpec; children?: ReactNode; after?: ReactNode }) {
  return (
    <li className="flex flex-col">
      <Link
        to={tile.to}
        className="flex h-full flex-col gap-2 rounded-xl border border-slate-200 bg-white p-6 shadow-sm hover:border-brand-600 hover:shadow"
      >
        <Icon name={tile.icon} className="h-8 w-8 text-brand-700" />
        <h2 className="text-lg font-semibold">{tile.title}</h2>
        {children}
        <p className="text-sm text-slate-600">{tile.description}</p>
      </Link>
      {after}
    </li>
  );
}

/** Keyed by the organization: each organization gets its own count. */
function AssetsTile() {
  const count = useAssetCount();
  return (
    <Tile tile={assetsTile} after={<AssetCountRetry count={count} />}>
      <AssetCountText count={count} />
    </Tile>
  );
}
