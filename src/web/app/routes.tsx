// The routes of SPEC section 2 under /registry. Screens of later features exist as routes
// that say they are not available yet.
import { Navigate, Outlet, type RouteObject } from 'react-router-dom';
import { LoginScreen } from '../screens/login/login-screen';
import { NotFoundScreen } from '../screens/not-found/not-found-screen';
import { ScreenNotAvailable } from '../screens/unavailable/screen-not-available';
import { TEXTS } from '../../domain/texts';
import { StatusMessage } from '../ui/status-message';
import { AppActors, type AppServices } from './actors';
import { ToastsRegion } from './toasts-region';

function RootLayout({ services }: { services: AppServices }) {
  return (
    <AppActors services={services}>
      <Outlet />
      <ToastsRegion />
    </AppActors>
  );
}

const later = (path: string, title: string): RouteObject => ({ path, element: <ScreenNotAvailable title={title} /> });

export const createRoutes = (services: AppServices): RouteObject[] => [
  {
    element: <RootLayout services={services} />,
    hydrateFallbackElement: <StatusMessage>{TEXTS.loading}</StatusMessage>,
    children: [
      { index: true, element: <Navigate to="/dashboard" replace /> },
      { path: 'login', element: <LoginScreen /> },
      { path: 'servicer-lookup', element: <ScreenNotAvailable title="Servicer Lookup" standalone /> },
      { path: 'servicer-lookup/results', element: <ScreenNotAvailable title="Servicer Lookup Results" standalone /> },
      {
        // The signed-in shell and its screens load on demand: /login stays small.
        lazy: async () => ({ Component: (await import('./authenticated-shell')).AuthenticatedShell }),
        children: [
          { path: 'dashboard', lazy: async () => ({ Component: (await import('../screens/dashboard/dashboard-screen')).DashboardScreen }) },
          later('profile', 'Security'),
          later('assets/assets', 'Assets'),
          later('assets/pools', 'Pools'),
          later('assets/pool-assets/:poolId', 'Pool Assets'),
          later('assets/asset/:loanId/details', 'Asset Details'),
          later('assets/asset/:loanId/details/history', 'Asset History'),
          later('assets/asset/:loanId/details/deactivate', 'Request Deactivation'),
          later('messages', 'Messages'),
          later('administration', 'Administration'),
          later('administration/profile', 'Organization Profile'),
          later('administration/organizations', 'Organizations'),
          later('administration/organizations/-', 'Add Organization'),
          later('administration/organizations/:organizationUuid', 'Edit Organization'),
          later('administration/organizations/:organizationUuid/delete', 'Deactivate Organization'),
          later('administration/organizations/:organizationUuid/users', 'Users'),
          later('administration/organizations/:organizationUuid/users/new', 'Add User'),
          later('administration/organizations/:organizationUuid/users/:userUuid', 'Edit User'),
          later('administration/organizations/:organizationUuid/users/:userUuid/delete', 'Remove User'),
        ],
      },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];
