// Who may call a server route: every route declares one of these (server plugins/access.ts
// enforces it, the authorization matrix reads it). Shared with the web app for the texts of a
// refusal, which the client tells apart from SPEC section 8's 'Invalid participant'.

export const ROUTE_ACCESS = [
  /** Anyone; the session is not read (health, sign-in, the web app, the API document). */
  'public',
  /** Anyone; the session is read when there is one (sign-out, the hosted password page). */
  'session-if-any',
  /**
   * A live session. On a product call the x-participant-id may be left out (the default
   * organization, if any, is used); one that names no active organization of the caller is 403
   * 'Invalid participant' all the same. An identity without a registry user passes.
   */
  'signed-in',
  /** A registered user acting for an active organization of theirs (x-participant-id, else the default one). */
  'member',
  /** A member holding ORG_ADMIN on the organization it acts for. */
  'org-admin',
  /** ROLE_DART_ADMIN or ROLE_DART_OPS of the service-dart group; the participant header is not used. */
  'registry-staff',
  /** The registry user named by the route's `:userId`, or registry staff; the participant header is not used. */
  'self-or-registry-staff',
  /**
   * Registry staff, or a member holding ORG_ADMIN on the organization the call concerns: the
   * route's `:participantId`, else the body's `participantId`, else the acting organization
   * (x-participant-id, else the default one). The administration of an organization's users.
   */
  'org-admin-or-registry-staff',
  /**
   * Registry staff, a member of the route's `:participantId` organization, or a member of an
   * organization in a relationship with it (the partner view); the participant header is not used.
   */
  'organization-viewer',
] as const;
export type RouteAccess = (typeof ROUTE_ACCESS)[number];

export const isRouteAccess = (value: unknown): value is RouteAccess => (ROUTE_ACCESS as readonly unknown[]).includes(value);

/** The organization role an org-admin route asks for. */
export const ORG_ADMIN_ROLE = 'ORG_ADMIN';

export const isOrganizationAdmin = (organizationRoles: readonly string[]): boolean => organizationRoles.includes(ORG_ADMIN_ROLE);

/**
 * The 403 messages of a missing role (SPEC section 6's 'Invalid Permissions' page). None of them
 * contains 'Invalid participant', the body of a refused organization (SPEC section 8).
 */
export const PERMISSION_REFUSALS = {
  'org-admin': 'Only an administrator of this organization (ORG_ADMIN) may do this.',
  'registry-staff': 'Only registry staff (ROLE_DART_ADMIN or ROLE_DART_OPS) may do this.',
  'self-or-registry-staff': 'You can only list your own organizations.',
  'org-admin-or-registry-staff':
    'Only an administrator of this organization (ORG_ADMIN) or registry staff (ROLE_DART_ADMIN or ROLE_DART_OPS) may do this.',
  'organization-viewer': 'Only registry staff, the members of this organization and its partners may view it.',
} as const satisfies Partial<Record<RouteAccess, string>>;

/** The 404 of a self-or-registry-staff route to an identity without a registry user (as users/me says it). */
export const USER_NOT_FOUND = 'User not found.';
