// /dashboard: hero with the tiles Assets, Messages and Administration.
import { Link } from 'react-router-dom';
import { APP_PATHS } from '../../../domain/app-paths';
import { NAVIGATION_LABELS } from '../../../domain/texts';
import { selectCurrentOrganization, selectUserFirstName } from '../../../../machines/session';
import { SessionActorContext } from '../../app/actor-contexts';
import { Icon, type IconName } from '../../ui/icons';
import { PageHeading } from '../../ui/page-heading';

const tiles: ReadonlyArray<{ to: string; icon: IconName; title: string; description: string }> = [
  { to: APP_PATHS.assets, icon: 'assets', title: NAVIGATION_LABELS.assets, description: 'Loans and pools your organization holds a role on.' },
  { to: APP_PATHS.messages, icon: 'messages', title: NAVIGATION_LABELS.messages, description: 'Requests and notices for your organization.' },
  { to: APP_PATHS.administration, icon: 'administration', title: NAVIGATION_LABELS.administration, description: 'Your organization’s profile and users.' },
];

export function DashboardScreen() {
  const firstName = SessionActorContext.useSelector(selectUserFirstName);
  const organizationName = SessionActorContext.useSelector((snapshot) => selectCurrentOrganization(snapshot)?.participant.name ?? '');
  return (
    <div className="flex flex-col gap-8">
      <section className="rounded-xl bg-gradient-to-r from-brand-900 to-brand-700 p-8 text-white">
        <PageHeading>
          <span className="text-white">Welcome, {firstName}</span>
        </PageHeading>
        <p className="mt-2 text-brand-100" data-testid="current-organization">{organizationName}</p>
      </section>
      <ul className="grid gap-4 sm:grid-cols-3" aria-label="Dashboard">
        {tiles.map((tile) => (
          <li key={tile.to}>
            <Link to={tile.to} className="flex h-full flex-col gap-2 rounded-xl border border-slate-200 bg-white p-6 shadow-sm hover:border-brand-600 hover:shadow">
              <Icon name={tile.icon} className="h-8 w-8 text-brand-700" />
              <h2 className="text-lg font-semibold">{tile.title}</h2>
              <p className="text-sm text-slate-600">{tile.description}</p>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
