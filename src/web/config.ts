// Build-time service origins (default: same origin), so one build can face any deployment.
import { BANNER_FILE_PATHS, SERVICER_LOOKUP_PATHS } from '../contract/paths';
import { DEFAULT_APPLICATION_URLS, type ApplicationUrls } from '../domain/roles';
export const SERVICE_BASE_URL: string = import.meta.env.VITE_SERVICE_BASE_URL ?? '';
export const IDENTITY_BASE_URL: string = import.meta.env.VITE_IDENTITY_BASE_URL ?? '';
/** The address autocomplete's service: an external provider of the same answer (ADDRESS_LOOKUP_URL at build and at start), else ours. */
export const ADDRESS_LOOKUP_URL: string = import.meta.env.ADDRESS_LOOKUP_URL || `${SERVICE_BASE_URL}${SERVICER_LOOKUP_PATHS.addresses}`;
/** The Applications menu's products (SPEC section 6); unset, the paths of DEFAULT_APPLICATION_URLS on this origin. */
export const APPLICATION_URLS: ApplicationUrls = {
  leadPortal: import.meta.env.VITE_LEAD_PORTAL_URL || DEFAULT_APPLICATION_URLS.leadPortal,
  customerServicePortal: import.meta.env.VITE_CSP_URL || DEFAULT_APPLICATION_URLS.customerServicePortal,
  portfolioManager: import.meta.env.VITE_PORTFOLIO_MANAGER_URL || DEFAULT_APPLICATION_URLS.portfolioManager,
  adminPricing: import.meta.env.VITE_ADMIN_PRICING_URL || DEFAULT_APPLICATION_URLS.adminPricing,
};
/** SPEC section 7: a production build reads the banner file, any other mode (`vite build --mode staging`, dev) the test file. */
export const BANNER_FILE: string = import.meta.env.MODE === 'production' ? BANNER_FILE_PATHS.production : BANNER_FILE_PATHS.test;
