// The navigation entries (SPEC section 2), shared by the desktop side navigation and the
// mobile drawer. `compact` shows icons with screen-reader labels only. Messages carries the
// unread badge (capped at '9+'); its link's name says the number ('Messages, 12 unread').
import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { NavLink } from 'react-router-dom';
import { APP_PATHS } from '../../domain/app-paths';
import { MESSAGES_TEXTS } from '../../domain/messages';
import { applicationLinks } from '../../domain/roles';
import { NAVIGATION_LABELS, TEXTS } from '../../domain/texts';
import { Icon, type IconName } from '../ui/icons';
import { selectUnreadBadge, selectUnreadCount } from '../../../machines/message-count';
import { selectRoles } from '../../../machines/session';
import { MessageCountActorContext, SessionActorContext } from './actor-contexts';
import { BatchDownloadProgress, BatchDownloadStatus } from './batch-download';
import { OrganizationSwitcher } from './organization-switcher';

const itemClasses = (compact: boolean) =>
  `relative flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-100 hover:bg-white/10 ${compact ? 'justify-center' : ''}`;

function ItemLabel({ icon, label, compact }: { icon: IconName; label: string; compact: boolean }) {
  return (
    <>
      <Icon name={icon} className="h-5 w-5 shrink-0" />
      <span className={compact ? 'sr-only' : 'truncate'}>{label}</span>
    </>
  );
}

/** A count beside an entry: its text is visible, the entry's name says it in words. */
interface MenuBadge {
  readonly text: string;
  readonly name: string;
}

function MenuLink({
  to,
  icon,
  label,
  compact,
  badge,
}: {
  to: string;
  icon: IconName;
  label: string;
  compact: boolean;
  badge?: MenuBadge | null;
}) {
  return (
    <li>
      <NavLink
        to={to}
        aria-label={badge ? badge.name : undefined}
        title={compact ? (badge?.name ?? label) : undefined}
        className={({ isActive }) => `${itemClasses(compact)} ${isActive ? 'bg-white/15 text-white' : ''}`}
      >
        <ItemLabel icon={icon} label={label} compact={compact} />
        {badge && (
          <span
            aria-hidden="true"
            data-testid="unread-badge"
            className={`rounded-full bg-amber-300 px-1.5 text-xs leading-5 font-semibold text-slate-900 ${compact ? 'absolute top-0.5 right-1' : 'ml-auto'}`}
          >
            {badge.text}
          </span>
        )}
      </NavLink>
    </li>
  );
}

/** Messages with the unread badge: nothing for none, '9+' above 9, the number in the link's name. */
function MessagesLink({ compact }: { compact: boolean }) {
  const count = MessageCountActorContext.useSelector(selectUnreadCount);
  const text = MessageCountActorContext.useSelector(selectUnreadBadge);
  const badge = text && count !== null ? { text, name: `${NAVIGATION_LABELS.messages}, ${MESSAGES_TEXTS.unreadCount(count)}` } : null;
  return <MenuLink to={APP_PATHS.messages} icon="messages" label={NAVIGATION_LABELS.messages} compact={compact} badge={badge} />;
}

export function NavigationMenu({ compact = false }: { compact?: boolean }) {
  const roles = SessionActorContext.useSelector(selectRoles);
  const session = SessionActorContext.useActorRef();
  return (
    <>
      {/* Outside the scrolling list, so the switcher's options are not clipped. */}
      {!compact && <OrganizationSwitcher />}
      <div className="flex flex-1 flex-col gap-4 overflow-y-auto">
        <ul className="flex flex-col gap-1">
          <MenuLink to={APP_PATHS.dashboard} icon="home" label={NAVIGATION_LABELS.dashboard} compact={compact} />
          <MenuLink to={APP_PATHS.assets} icon="assets" label={NAVIGATION_LABELS.assets} compact={compact} />
          <MenuLink to={APP_PATHS.administration} icon="administration" label={NAVIGATION_LABELS.administration} compact={compact} />
          <MessagesLink compact={compact} />
        </ul>
        <ul className="flex flex-col gap-1">
          <li>
            <Disclosure>
              <DisclosureButton className={itemClasses(compact)} title={compact ? NAVIGATION_LABELS.downloads : undefined}>
                <ItemLabel icon="downloads" label={NAVIGATION_LABELS.downloads} compact={compact} />
              </DisclosureButton>
              <DisclosurePanel className="px-3 py-2 text-xs text-slate-300">
                <BatchDownloadStatus />
              </DisclosurePanel>
            </Disclosure>
            {/* Issue 6: the running batch download's progress, on every screen. */}
            <BatchDownloadProgress compact={compact} />
          </li>
          <li>
            <Disclosure>
              <DisclosureButton className={itemClasses(compact)} title={compact ? NAVIGATION_LABELS.applications : undefined}>
                <ItemLabel icon="applications" label={NAVIGATION_LABELS.applications} compact={compact} />
              </DisclosureButton>
              <DisclosurePanel as="ul" className="flex flex-col gap-1 py-1 pl-11 text-sm">
                {applicationLinks(roles).map((link) => (
                  <li key={link.label}>
                    <a className="block rounded px-2 py-1 text-slate-200 underline-offset-2 hover:underline" href={link.href}>
                      {link.label}
                    </a>
                  </li>
                ))}
              </DisclosurePanel>
            </Disclosure>
          </li>
          <MenuLink to={APP_PATHS.profile} icon="profile" label={TEXTS.editProfile} compact={compact} />
          <li>
            <button
              type="button"
              className={itemClasses(compact)}
              title={compact ? TEXTS.signOut : undefined}
              onClick={() => session.send({ type: 'session.signOut' })}
            >
              <ItemLabel icon="signOut" label={TEXTS.signOut} compact={compact} />
            </button>
          </li>
        </ul>
      </div>
    </>
  );
}
