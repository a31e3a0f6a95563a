// The banners of the banner file (machines/banners.ts) at the top of every page. The page's content
// waits for the file's first read, so a banner is there at the content's first paint and never
// pushes it down afterwards. The banners sit in a polite live region that is mounted before them:
// each banner is read out once, when it is added; a re-render changes nothing in the DOM, and a
// removal (a dismissal) is not read out.
import type { ReactNode } from 'react';
import { matchPath, useLocation } from 'react-router-dom';
import { selectIsSettled, selectVisibleBanners } from '../../../machines/banners';
import type { BannerFileItem } from '../../contract/banners';
import { ROUTE_PATTERNS } from '../../domain/app-paths';
import { BANNER_TEXTS, bannerDismissalKey, type BannerPlacement } from '../../domain/banners';
import { TEXTS } from '../../domain/texts';
import { Icon } from '../ui/icons';
import { StatusMessage } from '../ui/status-message';
import { BannersActorContext } from './actor-contexts';

const PUBLIC_PATTERNS = [ROUTE_PATTERNS.login, ROUTE_PATTERNS.servicerLookup, ROUTE_PATTERNS.servicerLookupResults];

/** SPEC section 9: 1 on the dashboard and in the signed-in shell, 2 on the public pages. */
export function bannerPlacementOf(pathname: string): BannerPlacement {
  if (matchPath(`/${ROUTE_PATTERNS.dashboard}`, pathname)) return 'dashboard';
  return PUBLIC_PATTERNS.some((pattern) => matchPath(`/${pattern}`, pathname)) ? 'default' : 'shell';
}

const variantClasses = {
  info: 'border-brand-600 bg-brand-50 text-brand-900',
  warn: 'border-amber-600 bg-amber-50 text-amber-950',
} as const;

const sameBanners = (a: readonly BannerFileItem[], b: readonly BannerFileItem[]) =>
  a.length === b.length && a.every((banner, index) => bannerDismissalKey(banner) === bannerDismissalKey(b[index] as BannerFileItem));

function BannerItem({ banner, onDismiss }: { readonly banner: BannerFileItem; readonly onDismiss: () => void }) {
  const messageId = `banner-${banner.uuid}`;
  return (
    <li className={`flex items-start gap-3 border-l-4 px-4 py-3 ${variantClasses[banner.variant]}`} data-variant={banner.variant}>
      <p id={messageId} className="min-w-0 flex-1 text-sm break-words">
        <span className="sr-only">{banner.variant === 'warn' ? BANNER_TEXTS.warn : BANNER_TEXTS.info}: </span>
        {banner.message}
      </p>
      {banner.dismissable && (
        <button
          type="button"
          className="rounded p-1 hover:bg-black/5 focus-visible:outline-2"
          aria-label={BANNER_TEXTS.dismiss}
          aria-describedby={messageId}
          onClick={onDismiss}
        >
          <Icon name="close" className="h-4 w-4" />
        </button>
      )}
    </li>
  );
}

/** The visible banners of this page's placement, in their live region. */
export function BannersRegion({ placement }: { readonly placement: BannerPlacement }) {
  const banners = BannersActorContext.useSelector((snapshot) => selectVisibleBanners(snapshot, placement), sameBanners);
  const actor = BannersActorContext.useActorRef();
  return (
    <section aria-label={BANNER_TEXTS.region}>
      <ul aria-live="polite" aria-relevant="additions" data-testid="banners">
        {banners.map((banner) => (
          <BannerItem
            key={bannerDismissalKey(banner)}
            banner={banner}
            onDismiss={() => actor.send({ type: 'banner.dismiss', uuid: banner.uuid })}
          />
        ))}
      </ul>
    </section>
  );
}

/** The banners above the page, which shows once the banner file was read (or could not be). */
export function BannersFrame({ children }: { readonly children: ReactNode }) {
  const settled = BannersActorContext.useSelector(selectIsSettled);
  const { pathname } = useLocation();
  return (
    <>
      <BannersRegion placement={bannerPlacementOf(pathname)} />
      {settled ? children : <StatusMessage>{TEXTS.loading}</StatusMessage>}
    </>
  );
}
