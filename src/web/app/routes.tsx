// The routes of SPEC section 2 under /registry.
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { APP_PATHS, ROUTE_PATTERNS } from '../../domain/app-paths';
import { TEXTS } from '../../domain/texts';
import { StatusMessage } from '../ui/status-message';
import { AppProviders } from './app-providers';
import { BannersFrame } from './banners-region';
import type { AppPlatform } from './services';
import { ToastsRegion } from './toasts-region';

function RootLayout({ platform }: { platform: AppPlatform }) {
  return (
    <AppProviders platform={platform}>
      <BannersFrame>
        <Outlet />
      </BannersFrame>
      <ToastsRegion />
    </AppProviders>
  );
}

export const createRoutes = (platform: AppPlatform): RouteObject[] => [
  {
    element: <RootLayout platform={platform} />,
    hydrateFallbackElement: <StatusMessage>{TEXTS.loading}</StatusMessage>,
    children: [
      { index: true, element: <Navigate to={APP_PATHS.dashboard} replace /> },
      // Lazy like every screen: the entry holds what every first page needs, nothing more.
      { path: ROUTE_PATTERNS.login, lazy: async () => ({ Component: (await import('../screens/login/login-screen')).LoginScreen }) },
      // The public servicer lookup: its form and its results, one actor behind both (the parent's).
      {
        path: ROUTE_PATTERNS.servicerLookup,
        lazy: async () => ({ Component: (await import('../screens/servicer-lookup/servicer-lookup-screen')).ServicerLookupLayout }),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('../screens/servicer-lookup/servicer-lookup-screen')).LookupForm }),
          },
          {
            path: ROUTE_PATTERNS.servicerLookupResults.slice(ROUTE_PATTERNS.servicerLookup.length + 1),
            lazy: async () => ({ Component: (await import('../screens/servicer-lookup/servicer-lookup-screen')).LookupResults }),
          },
        ],
      },
      {
        // The signed-in shell and its screens load on demand: /login stays small.
        lazy: async () => ({ Component: (await import('./authenticated-shell')).AuthenticatedShell }),
        children: [
          {
            path: ROUTE_PATTERNS.dashboard,
            lazy: async () => ({ Component: (await import('../screens/dashboard/dashboard-screen')).DashboardScreen }),
          },
          {
            path: ROUTE_PATTERNS.profile,
            lazy: async () => ({ Component: (await import('../screens/profile/profile-screen')).ProfileScreen }),
          },
          {
            path: ROUTE_PATTERNS.assets,
            lazy: async () => ({ Component: (await import('../screens/assets/assets-screen')).AssetsScreen }),
          },
          { path: ROUTE_PATTERNS.pools, lazy: async () => ({ Component: (await import('../screens/pools/pools-screen')).PoolsScreen }) },
          {
            path: ROUTE_PATTERNS.reconcile,
            lazy: async () => ({ Component: (await import('../screens/reconciliation/reconciliation-screen')).ReconciliationScreen }),
          },
          {
            path: ROUTE_PATTERNS.poolAssets,
            lazy: async () => ({ Component: (await import('../screens/assets/pool-assets-screen')).PoolAssetsScreen }),
          },
          // One screen for the four tabs: the same component stays mounted across them.
          ...[ROUTE_PATTERNS.asset, ROUTE_PATTERNS.assetHistory, ROUTE_PATTERNS.assetDocuments, ROUTE_PATTERNS.assetActivity].map(
            (path): RouteObject => ({
              path,
              lazy: async () => ({ Component: (await import('../screens/asset/asset-screen')).AssetScreen }),
            }),
          ),
          // The deactivation request form.
          {
            path: ROUTE_PATTERNS.deactivate,
            lazy: async () => ({ Component: (await import('../screens/deactivation/deactivation-screen')).DeactivationScreen }),
          },
          // The messages screen.
          {
            path: ROUTE_PATTERNS.messages,
            lazy: async () => ({ Component: (await import('../screens/messages/messages-screen')).MessagesScreen }),
          },
          // The administration menu.
          {
            path: ROUTE_PATTERNS.administration,
            lazy: async () => ({ Component: (await import('../screens/administration/administration-screen')).AdministrationScreen }),
          },
          // The organization's contact profile and the partner view of a relationship.
          {
            path: ROUTE_PATTERNS.organizationProfile,
            lazy: async () => ({
              Component: (await import('../screens/organization-profile/organization-profile-screen')).OrganizationProfileScreen,
            }),
          },
          {
            path: ROUTE_PATTERNS.partnerProfile,
            lazy: async () => ({
              Component: (await import('../screens/organization-profile/partner-profile-screen')).PartnerProfileScreen,
            }),
          },
          // The organizations of the administration: list, add and edit (one form), deactivate, activity.
          {
            path: ROUTE_PATTERNS.organizations,
            lazy: async () => ({ Component: (await import('../screens/organizations/organizations-screen')).OrganizationsScreen }),
          },
          ...[ROUTE_PATTERNS.newOrganization, ROUTE_PATTERNS.organization].map((path): RouteObject => ({
            path,
            lazy: async () => ({
              Component: (await import('../screens/organizations/organization-form-screen')).OrganizationFormScreen,
            }),
          })),
          {
            path: ROUTE_PATTERNS.deleteOrganization,
            lazy: async () => ({
              Component: (await import('../screens/organizations/organization-delete-screen')).OrganizationDeleteScreen,
            }),
          },
          // The registry staff's search of the whole audit log.
          {
            path: ROUTE_PATTERNS.auditLog,
            lazy: async () => ({ Component: (await import('../screens/audit-log/audit-log-screen')).AuditLogScreen }),
          },
          {
            path: ROUTE_PATTERNS.organizationActivity,
            lazy: async () => ({
              Component: (await import('../screens/organizations/organization-activity-screen')).OrganizationActivityScreen,
            }),
          },
          // An organization's users: the list, the add and edit form, the removal.
          {
            path: ROUTE_PATTERNS.organizationUsers,
            lazy: async () => ({
              Component: (await import('../screens/organization-users/organization-users-screen')).OrganizationUsersScreen,
            }),
          },
          {
            path: ROUTE_PATTERNS.newOrganizationUser,
            lazy: async () => ({ Component: (await import('../screens/organization-users/user-form-screen')).NewUserScreen }),
          },
          {
            path: ROUTE_PATTERNS.organizationUser,
            lazy: async () => ({ Component: (await import('../screens/organization-users/user-form-screen')).EditUserScreen }),
          },
          {
            path: ROUTE_PATTERNS.deleteOrganizationUser,
            lazy: async () => ({ Component: (await import('../screens/organization-users/user-removal-screen')).UserRemovalScreen }),
          },
          // Registry staff's banners of the banner file.
          {
            path: ROUTE_PATTERNS.banners,
            lazy: async () => ({ Component: (await import('../screens/banners/banners-screen')).BannersScreen }),
          },
        ],
      },
      { path: '*', lazy: async () => ({ Component: (await import('./not-found-route')).NotFoundRoute }) },
    ],
  },
];
