// The navigation entries (SPEC section 2), shared by the desktop side navigation and the
// mobile drawer. `compact` is the collapsed desktop rail: icons with screen-reader labels and
// tooltips; Downloads and Applications open a flyout beside the rail instead of a panel inside
// it (a 64 px rail has no room for their text, and nothing clipped may take focus). Messages
// carries the unread badge (capped at '9+') at its icon's corner; its link's name says the
// number ('Messages, 12 unread').
import { Disclosure, DisclosureButton, DisclosurePanel, Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router-dom';
import { APP_PATHS } from '../../domain/app-paths';
import { MESSAGES_TEXTS } from '../../domain/messages';
import { applicationLinks } from '../../domain/roles';
import { APPLICATION_URLS } from '../config';
import { NAVIGATION_LABELS, TEXTS } from '../../domain/texts';
import { Icon, type IconName } from '../ui/icons';
import { selectUnreadBadge, selectUnreadCount } from '../../../machines/message-count';
import { selectRoles } from '../../../machines/session';
import { MessageCountActorContext, SessionActorContext } from './actor-contexts';
import { BatchDownloadProgress, BatchDownloadStatus } from './batch-download';
import { OrganizationSwitcher } from './organization-switcher';

const itemClasses = (compact: boolean) =>
  `relative flex w-full items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-slate-100 hover:bg-white/10 ${compact ? 'justify-center' : ''}`;

/** A count beside an entry: its text is visible, the entry's name says it in words. */
interface MenuBadge {
  readonly text: string;
  readonly name: string;
}

function ItemLabel({ icon, label, compact, badge }: { icon: IconName; label: string; compact: boolean; badge?: MenuBadge | null }) {
  if (compact) {
    // The badge sits on the icon's top-right corner, ringed in the rail's colour, so the icon stays readable.
    return (
      <>
        <span className="relative shrink-0">
          <Icon name={icon} className="h-5 w-5" />
          {badge && (
            <span
              aria-hidden="true"
              data-testid="unread-badge"
              className="absolute -top-2 left-2.5 min-w-4 rounded-full bg-amber-300 px-1 text-center text-[10px] leading-4 font-semibold text-slate-900 ring-2 ring-brand-900"
            >
              {badge.text}
            </span>
          )}
        </span>
        <span className="sr-only">{label}</span>
      </>
    );
  }
  return (
    <>
      <Icon name={icon} className="h-5 w-5 shrink-0" />
      <span className="truncate">{label}</span>
      {badge && (
        <span
          aria-hidden="true"
          data-testid="unread-badge"
          className="ml-auto rounded-full bg-amber-300 px-1.5 text-xs leading-5 font-semibold text-slate-900"
        >
          {badge.text}
        </span>
      )}
    </>
  );
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
        <ItemLabel icon={icon} label={label} compact={compact} badge={badge} />
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

/**
 * An entry that opens a panel: a disclosure in the full navigation, a flyout beside the compact
 * rail (rendered only while open, so none of it is focusable or read while it is not shown).
 * `whileClosed` shows under the entry while its panel is closed.
 */
function PanelEntry({
  icon,
  label,
  compact,
  children,
  whileClosed,
}: {
  icon: IconName;
  label: string;
  compact: boolean;
  children: ReactNode;
  whileClosed?: ReactNode;
}) {
  if (compact) {
    return (
      <Popover as="li" className="relative">
        {({ open }) => (
          <>
            <PopoverButton className={itemClasses(true)} title={label}>
              <ItemLabel icon={icon} label={label} compact />
            </PopoverButton>
            {/* In place (no portal): it stays in the navigation landmark; the rail does not clip it. */}
            <PopoverPanel className="absolute top-0 left-full z-40 ml-4 w-64 rounded-md bg-brand-900 p-3 text-xs text-slate-300 shadow-lg ring-1 ring-white/20">
              <p className="mb-2 text-sm font-semibold text-white">{label}</p>
              {children}
            </PopoverPanel>
            {!open && whileClosed}
          </>
        )}
      </Popover>
    );
  }
  return (
    <Disclosure as="li">
      {({ open }) => (
        <>
          <DisclosureButton className={itemClasses(false)}>
            <ItemLabel icon={icon} label={label} compact={false} />
          </DisclosureButton>
          <DisclosurePanel className="px-3 pb-2 pl-11 text-xs text-slate-300">{children}</DisclosurePanel>
          {!open && whileClosed}
        </>
      )}
    </Disclosure>
  );
}

function ApplicationLinks() {
  const roles = SessionActorContext.useSelector(selectRoles);
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {applicationLinks(roles, APPLICATION_URLS).map((link) => (
        <li key={link.label}>
          <a className="block rounded px-2 py-1 text-slate-200 underline-offset-2 hover:underline" href={link.href}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function NavigationMenu({ compact = false }: { compact?: boolean }) {
  const session = SessionActorContext.useActorRef();
  return (
    <>
      {/* Outside the scrolling list, so the switcher's options are not clipped. */}
      {!compact && <OrganizationSwitcher />}
      {/* The collapsed rail has no room for it: SPEC section 2's switcher opens in a flyout there. */}
      {compact && (
        <ul className="flex flex-col gap-1">
          <PanelEntry icon="organization" label={NAVIGATION_LABELS.organizations} compact>
            <OrganizationSwitcher />
          </PanelEntry>
        </ul>
      )}
      {/* The compact rail does not scroll: its flyouts open beside it, over the page. */}
      <div className={`flex flex-1 flex-col gap-4 ${compact ? '' : 'overflow-y-auto'}`}>
        <ul className="flex flex-col gap-1">
          <MenuLink to={APP_PATHS.dashboard} icon="home" label={NAVIGATION_LABELS.dashboard} compact={compact} />
          <MenuLink to={APP_PATHS.assets} icon="assets" label={NAVIGATION_LABELS.assets} compact={compact} />
          <MenuLink to={APP_PATHS.administration} icon="administration" label={NAVIGATION_LABELS.administration} compact={compact} />
          <MessagesLink compact={compact} />
        </ul>
        <ul className="flex flex-col gap-1">
          {/* The running batch download's progress, on every screen; the open panel
              shows it in its place, so its text appears once. */}
          <PanelEntry
            icon="downloads"
            label={NAVIGATION_LABELS.downloads}
            compact={compact}
            whileClosed={<BatchDownloadProgress compact={compact} />}
          >
            <BatchDownloadStatus />
          </PanelEntry>
          <PanelEntry icon="applications" label={NAVIGATION_LABELS.applications} compact={compact}>
            <ApplicationLinks />
          </PanelEntry>
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
