// Every route of the web app (SPEC section 2, relative to the /registry base): one place for
// the router's patterns and the links that build them.
import { isSameOriginPath } from './same-origin-path';

const segment = (value: string) => encodeURIComponent(value);

export type AssetTab = 'details' | 'history' | 'documents' | 'activity';

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
  /** Reconciliation against a loan tape (ours). */
  reconcile: '/assets/reconcile',
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
  /** An organization's audit log (not SPEC's: the administration's Activity tab). */
  organizationActivity: (organizationUuid: string) => `/administration/organizations/${segment(organizationUuid)}/activity`,
  /** SPEC section 2: the partner view of a relationship ('its path is not shown'; this is ours). */
  partnerProfile: (relationshipId: string) => `/administration/relationships/${segment(relationshipId)}`,
  /** Registry staff's banners (ours). */
  banners: '/administration/banners',
  /** The whole audit log, searched by registry staff (ours). */
  auditLog: '/administration/audit',
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
  reconcile: 'assets/reconcile',
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
  organizationActivity: 'administration/organizations/:organizationUuid/activity',
  partnerProfile: 'administration/relationships/:relationshipId',
  banners: 'administration/banners',
  assetActivity: 'assets/asset/:loanId/details/activity',
  auditLog: 'administration/audit',
} as const;

/** Longest screen address kept across a sign-in (the server accepts up to 2,048 characters with the base path). */
const RETURN_TO_MAX = 1024;

/**
 * A screen address (path and query, relative to the app's base path) that a sign-in may return
 * to, or null. Only the app's own paths: no other origin ('//host', '\'), no control characters,
 * and never the login screen itself.
 */
export function appReturnTo(value: string | null | undefined): string | null {
  if (!value || !isSameOriginPath(value, RETURN_TO_MAX)) return null;
  const path = value.split(/[?#]/, 1)[0] ?? '';
  if (path === APP_PATHS.login || path.startsWith(`${APP_PATHS.login}/`)) return null;
  return value;
}

/**
 * Where a protected screen sends a signed-out user. After a 401 (SPEC section 8: login with the
 * unauthorized flag) the screen asked for rides along as `returnTo`, so that signing in again
 * comes back to it: a deep link, a bookmarked asset, a page of the list. The dashboard is where a
 * sign-in goes anyway.
 */
export function loginRedirectWithReturn(loginPath: string, current: string): string {
  const returnTo = appReturnTo(current);
  if (loginPath !== APP_PATHS.loginUnauthorized || !returnTo || returnTo === APP_PATHS.dashboard || returnTo === APP_PATHS.home) {
    return loginPath;
  }
  return `${loginPath}&returnTo=${encodeURIComponent(returnTo)}`;
}
