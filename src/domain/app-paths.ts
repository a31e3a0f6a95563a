// Every route of the web app (SPEC section 2, relative to the /registry base): one place for
// the router's patterns and the links that build them.
const segment = (value: string) => encodeURIComponent(value);

export type AssetTab = 'details' | 'history' | 'documents';

export const APP_PATHS = {
  home: '/',
  login: '/login',
  /** After a 401 (SPEC section 8): the login screen with the not-registered notice. */
  loginUnauthorized: '/login?unauthorized=true',
  servicerLookup: '/servicer-lookup',
  servicerLookupResults: '/servicer-lookup/results',
  profile: '/profile',
  dashboard: '/dashboard',
  assets: '/assets/assets',
  pools: '/assets/pools',
  poolAssets: (poolId: string) => `/assets/pool-assets/${segment(poolId)}`,
  asset: (loanId: string, tab: AssetTab = 'details') =>
    tab === 'details' ? `/assets/asset/${segment(loanId)}/details` : `/assets/asset/${segment(loanId)}/details/${tab}`,
  deactivate: (loanId: string) => `/assets/asset/${segment(loanId)}/details/deactivate`,
  messages: '/messages',
  administration: '/administration',
  organizationProfile: '/administration/profile',
  organizations: '/administration/organizations',
  newOrganization: '/administration/organizations/-',
  organization: (organizationUuid: string) => `/administration/organizations/${segment(organizationUuid)}`,
  deleteOrganization: (organizationUuid: string) => `/administration/organizations/${segment(organizationUuid)}/delete`,
  organizationUsers: (organizationUuid: string) => `/administration/organizations/${segment(organizationUuid)}/users`,
  newOrganizationUser: (organizationUuid: string) => `/administration/organizations/${segment(organizationUuid)}/users/new`,
  organizationUser: (organizationUuid: string, userUuid: string) =>
    `/administration/organizations/${segment(organizationUuid)}/users/${segment(userUuid)}`,
  deleteOrganizationUser: (organizationUuid: string, userUuid: string) =>
    `/administration/organizations/${segment(organizationUuid)}/users/${segment(userUuid)}/delete`,
} as const;

/** Router patterns (relative, as React Router nests them) for the routes above. */
export const ROUTE_PATTERNS = {
  login: 'login',
  servicerLookup: 'servicer-lookup',
  servicerLookupResults: 'servicer-lookup/results',
  profile: 'profile',
  dashboard: 'dashboard',
  assets: 'assets/assets',
  pools: 'assets/pools',
  poolAssets: 'assets/pool-assets/:poolId',
  asset: 'assets/asset/:loanId/details',
  assetHistory: 'assets/asset/:loanId/details/history',
  assetDocuments: 'assets/asset/:loanId/details/documents',
  deactivate: 'assets/asset/:loanId/details/deactivate',
  messages: 'messages',
  administration: 'administration',
  organizationProfile: 'administration/profile',
  organizations: 'administration/organizations',
  newOrganization: 'administration/organizations/-',
  organization: 'administration/organizations/:organizationUuid',
  deleteOrganization: 'administration/organizations/:organizationUuid/delete',
  organizationUsers: 'administration/organizations/:organizationUuid/users',
  newOrganizationUser: 'administration/organizations/:organizationUuid/users/new',
  organizationUser: 'administration/organizations/:organizationUuid/users/:userUuid',
  deleteOrganizationUser: 'administration/organizations/:organizationUuid/users/:userUuid/delete',
} as const;
