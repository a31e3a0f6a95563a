// The banners of SPEC sections 3, 8 and 9: their texts, limits and the applications a banner may
// name. Shared by the banners machine, the authoring screen and the server.

/** SPEC section 8: a banner of the file without uuid, message, non-empty apps or variant. */
export const BANNER_DATA_INVALID = 'Banner data does not match the expected format';

/** SPEC section 9: how many banners show at once, by where they show. */
export const BANNER_LIMITS = { default: 2, dashboard: 1, shell: 1 } as const;
export type BannerPlacement = keyof typeof BANNER_LIMITS;

export const BANNER_VARIANTS = ['info', 'warn'] as const;
export type BannerVariant = (typeof BANNER_VARIANTS)[number];

/** The applications a banner may name (the products of SPEC section 6's Applications menu and this one). */
export const BANNER_APPS = [
  { id: 'registry', label: 'Loan Registry' },
  { id: 'lead-portal', label: 'Lead Portal' },
  { id: 'csp', label: 'Customer Service Portal' },
  { id: 'portfolio-manager', label: 'Portfolio Manager' },
  { id: 'admin-pricing', label: 'Admin Pricing' },
] as const;
export type BannerAppId = (typeof BANNER_APPS)[number]['id'];
/** This application's name in a banner's apps. */
export const THIS_BANNER_APP: BannerAppId = 'registry';

export const BANNER_MESSAGE_MAX = 500;

/** The browser storage key of the dismissed banners (machines/banners.ts). */
export const BANNER_DISMISSALS_KEY = 'registry.dismissedBanners';

/** A dismissal names one version of a banner: an edit (a later updatedAt) brings it back. */
export const bannerDismissalKey = (banner: { readonly uuid: string; readonly metadata?: { readonly updatedAt?: string } }): string =>
  `${banner.uuid}@${banner.metadata?.updatedAt ?? ''}`;

export const BANNER_TEXTS = {
  region: 'Announcements',
  dismiss: 'Dismiss announcement',
  info: 'Information',
  warn: 'Warning',
  required: 'Required',
  appsRequired: 'Choose at least one application.',
  messageTooLong: `The message cannot be greater than ${BANNER_MESSAGE_MAX} characters.`,
  notFound: 'Banner not found.',
} as const;
