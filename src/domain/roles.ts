// Roles of SPEC section 6, keyed by the identity service they come from.
export const SERVICES = { dart: 'service-dart', leadPortal: 'lead-portal', csp: 'csp' } as const;
export const ADMIN_ROLES = ['ROLE_DART_ADMIN', 'ROLE_DART_OPS'] as const;
export const ASSIGNABLE_USER_ROLES = ['ORG_ADMIN', 'FIGURE_ADMIN', 'CUSTODIAN', 'DART_AGENT', 'FIGURE_ENGINEER'] as const;
export const HIDDEN_USER_ROLES = ['TRADER', 'AUDITOR'] as const;
export const ORGANIZATION_USER_ROLES = [...ASSIGNABLE_USER_ROLES, ...HIDDEN_USER_ROLES] as const;
export type OrganizationUserRole = (typeof ORGANIZATION_USER_ROLES)[number];

export type RolesByService = Record<string, readonly string[]>;

export const isRegistryAdmin = (roles: RolesByService): boolean =>
  (roles[SERVICES.dart] ?? []).some((role) => (ADMIN_ROLES as readonly string[]).includes(role));

export interface ApplicationLink {
  readonly label: string;
  readonly href: string;
}

/** Where the other products live: build-time configuration (README), by default paths of this origin. */
export interface ApplicationUrls {
  readonly leadPortal: string;
  readonly customerServicePortal: string;
  readonly portfolioManager: string;
  readonly adminPricing: string;
}

export const DEFAULT_APPLICATION_URLS: ApplicationUrls = {
  leadPortal: '/lead-portal/',
  customerServicePortal: '/csp/',
  portfolioManager: '/portfolio-manager/',
  adminPricing: '/admin-pricing/',
};

/** The Applications menu: Lead Portal and Customer Service Portal by role, the rest always. */
export function applicationLinks(roles: RolesByService, urls: ApplicationUrls = DEFAULT_APPLICATION_URLS): ApplicationLink[] {
  const links: ApplicationLink[] = [];
  if ((roles[SERVICES.leadPortal] ?? []).length > 0) links.push({ label: 'Lead Portal', href: urls.leadPortal });
  if ((roles[SERVICES.csp] ?? []).length > 0) links.push({ label: 'Customer Service Portal', href: urls.customerServicePortal });
  links.push({ label: 'Portfolio Manager', href: urls.portfolioManager });
  links.push({ label: 'Admin Pricing', href: urls.adminPricing });
  return links;
}
