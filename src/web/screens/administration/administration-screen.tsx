// /administration (SPEC section 2): the menu. Profile for everyone; Organizations only for
// registry staff, ROLE_DART_ADMIN or ROLE_DART_OPS of service-dart (SPEC section 6), as the
// session's identity says. The server refuses the organization calls to anyone else all the same.
import { Link } from 'react-router-dom';
import { APP_PATHS } from '../../../domain/app-paths';
import { BANNER_SCREEN_TEXTS as BANNER_TEXTS } from '../../../domain/banner-screen-texts';
import { AUDIT_TEXTS } from '../../../domain/audit-texts';
import { ADMINISTRATION_MENU, NAVIGATION_LABELS } from '../../../domain/texts';
import { selectIsRegistryStaff } from '../../../../machines/session';
import { SessionActorContext } from '../../app/actor-contexts';
import { Icon, type IconName } from '../../ui/icons';
import { PageHeading } from '../../ui/page-heading';

interface MenuEntry {
  readonly to: string;
  readonly icon: IconName;
  readonly title: string;
  readonly description: string;
}

const profileEntry: MenuEntry = {
  to: APP_PATHS.organizationProfile,
  icon: 'profile',
  title: ADMINISTRATION_MENU.profile,
  description: ADMINISTRATION_MENU.profileDescription,
};
const organizationsEntry: MenuEntry = {
  to: APP_PATHS.organizations,
  icon: 'organization',
  title: ADMINISTRATION_MENU.organizations,
  description: ADMINISTRATION_MENU.organizationsDescription,
};

const bannersEntry: MenuEntry = {
  to: APP_PATHS.banners,
  icon: 'messages',
  title: BANNER_TEXTS.screenTitle,
  description: BANNER_TEXTS.menuDescription,
};

const auditLogEntry: MenuEntry = {
  to: APP_PATHS.auditLog,
  icon: 'administration',
  title: AUDIT_TEXTS.logLink,
  description: AUDIT_TEXTS.logLinkDescription,
};

export function AdministrationScreen() {
  const registryStaff = SessionActorContext.useSelector(selectIsRegistryStaff);
  const entries = registryStaff ? [profileEntry, organizationsEntry, bannersEntry, auditLogEntry] : [profileEntry];
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>{NAVIGATION_LABELS.administration}</PageHeading>
      <nav aria-label={NAVIGATION_LABELS.administration}>
        <ul className="grid gap-4 sm:grid-cols-2">
          {entries.map((entry) => (
            <li key={entry.to}>
              <Link
                to={entry.to}
                className="flex h-full flex-col gap-2 rounded-xl border border-slate-200 bg-white p-6 shadow-sm hover:border-brand-600 hover:shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
              >
                <Icon name={entry.icon} className="h-8 w-8 text-brand-700" />
                <h2 className="text-lg font-semibold">{entry.title}</h2>
                <p className="text-sm text-slate-600">{entry.description}</p>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
