// The signed-in frame: desktop side navigation, mobile top bar with drawer, footer. It renders
// the session's state; where the session says signed out or unregistered it sends to /login.
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { loginRedirectWithReturn } from '../../domain/app-paths';
import { TEXTS } from '../../domain/texts';
import { IconButton } from '../ui/icon-button';
import { PagePortalProvider } from '../ui/page-portal';
import { selectDrawerOpen, selectSidebarCollapsed } from '../../../machines/navigation';
import { selectLoginRedirect, selectParticipantId, selectPermissionRefused } from '../../../machines/session';
import { InvalidPermissionsScreen } from '../screens/invalid-permissions/invalid-permissions-screen';
import { NavigationActorContext, SessionActorContext } from './actor-contexts';
import { Footer } from './footer';
import { LoadingPage, PRODUCT_NAME } from './loading-page';
import { NavigationMenu } from './navigation-menu';

const focusPageHeading = () => document.getElementById('page-heading')?.focus();

/** The shell of the signed-in screens (their route's Outlet), or around `children` (the signed-in Page Not Found). */
export function AuthenticatedShell({ children }: { readonly children?: ReactNode }) {
  const session = SessionActorContext.useActorRef();
  const signedIn = SessionActorContext.useSelector((snapshot) => snapshot.matches('signedIn'));
  const loginPath = SessionActorContext.useSelector(selectLoginRedirect);
  const failed = SessionActorContext.useSelector((snapshot) => snapshot.matches('failed'));
  const busy = SessionActorContext.useSelector((snapshot) => snapshot.hasTag('busy'));
  const location = useLocation();

  if (loginPath) return <Navigate to={loginRedirectWithReturn(loginPath, `${location.pathname}${location.search}`)} replace />;
  if (failed) {
    return (
      <main className="mx-auto max-w-lg p-8 text-center">
        <h1 className="text-xl font-semibold">{TEXTS.registryUnreachable}</h1>
        <button
          type="button"
          className="mt-4 rounded-md bg-brand-700 px-4 py-2 text-white"
          onClick={() => session.send({ type: 'session.retry' })}
        >
          {TEXTS.tryAgain}
        </button>
      </main>
    );
  }
  if (!signedIn || busy) return <LoadingPage />;
  return <SignedInLayout>{children}</SignedInLayout>;
}

function SignedInLayout({ children }: { readonly children?: ReactNode }) {
  const navigation = NavigationActorContext.useActorRef();
  const collapsed = NavigationActorContext.useSelector(selectSidebarCollapsed);
  const drawerOpen = NavigationActorContext.useSelector(selectDrawerOpen);
  const location = useLocation();
  // A switch of organization changes the page too, also when it stays on /dashboard.
  const organization = SessionActorContext.useSelector(selectParticipantId);
  const pagePortal = useRef<HTMLDivElement | null>(null);
  const session = SessionActorContext.useActorRef();
  const permissionRefused = SessionActorContext.useSelector(selectPermissionRefused);

  // Every navigation, to the same screen too (a link to where one is): a refusal shown in place ends.
  useEffect(() => session.send({ type: 'session.pageChanged' }), [location.key, session]);

  // After each in-app navigation or organization switch: close the drawer and move focus to the new page's heading.
  // The first page of a visit keeps the browser's focus, so the skip link comes first.
  const firstPage = useRef(true);
  useEffect(() => {
    const fromDrawer = selectDrawerOpen(navigation.getSnapshot());
    navigation.send({ type: 'route.changed' });
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    if (!fromDrawer) {
      focusPageHeading();
      return;
    }
    // Closing the drawer unmounts its dialog, which gives focus back to 'Open navigation' in a
    // microtask after this commit: the heading takes it once that has happened, as on desktop.
    const timer = window.setTimeout(focusPageHeading, 0);
    return () => window.clearTimeout(timer);
  }, [location.pathname, organization, navigation]);

  return (
    <div className="flex min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Skip to content
      </a>
      <nav aria-label="Main" className={`hidden shrink-0 flex-col gap-4 bg-brand-900 p-3 md:flex ${collapsed ? 'w-16' : 'w-64'}`}>
        <div className={`flex items-center ${collapsed ? 'justify-center' : 'justify-between'}`}>
          {!collapsed && <span className="px-2 text-lg font-semibold text-white">{PRODUCT_NAME}</span>}
          <IconButton
            className="text-slate-100"
            aria-expanded={!collapsed}
            icon={collapsed ? 'chevronRight' : 'chevronLeft'}
            label={collapsed ? 'Expand navigation' : 'Collapse navigation'}
            onClick={() => navigation.send({ type: 'navigation.toggle' })}
          />
        </div>
        <NavigationMenu compact={collapsed} />
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-between bg-brand-900 px-4 py-3 text-white md:hidden">
          <span className="text-lg font-semibold">{PRODUCT_NAME}</span>
          <IconButton icon="menu" label="Open navigation" onClick={() => navigation.send({ type: 'drawer.open' })} />
        </header>
        <Dialog open={drawerOpen} onClose={() => navigation.send({ type: 'drawer.close' })} className="relative z-40 md:hidden">
          <div className="fixed inset-0 bg-black/40" aria-hidden="true" />
          <DialogPanel as="nav" aria-label="Main" className="fixed inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col gap-4 bg-brand-900 p-4">
            <div className="flex items-center justify-between">
              <DialogTitle className="text-lg font-semibold text-white">{PRODUCT_NAME}</DialogTitle>
              <IconButton
                className="text-white"
                icon="close"
                label="Close navigation"
                onClick={() => navigation.send({ type: 'drawer.close' })}
              />
            </div>
            <NavigationMenu />
          </DialogPanel>
        </Dialog>
        <main id="main" className="flex-1 p-4 sm:p-8">
          <PagePortalProvider value={pagePortal}>
            {permissionRefused ? <InvalidPermissionsScreen /> : (children ?? <Outlet />)}
          </PagePortalProvider>
          {/* Headless UI removes an empty portal target when its last portal closes (React's node:
              the next render crashes): the hidden child keeps it non-empty. */}
          <div ref={pagePortal}>
            <span hidden />
          </div>
        </main>
        <Footer />
      </div>
    </div>
  );
}
