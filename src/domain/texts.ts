// SPEC texts (toasts, notices, labels). Imported everywhere, never retyped.
export const SUPPORT_CONTACT = {
  email: 'support@registry.test',
  phone: '(800) 555-0142',
  postalAddress: ['Loan Registry Support', '100 Market Street, Suite 400', 'San Francisco, CA 94105'],
} as const;

export const TEXTS = {
  invalidParticipantToast: 'Invalid participant. You have been switched to the default.',
  invalidParticipantBody: 'Invalid participant',
  pageNotFound: 'Page Not Found',
  logIn: 'Log in',
  logOut: 'Log out',
  signIn: 'Sign in',
  signOut: 'Sign Out',
  editProfile: 'Edit Profile',
  notRegisteredTitle: 'Your account is not registered',
  notRegisteredBody:
    'We could not find a registry account for this sign-in. Ask your organization administrator for access, or contact support.',
  // Not SPEC's: a registered user none of whose organizations is active (SPEC section 4 deactivates them).
  noOrganizationTitle: 'Your account has no active organization',
  noOrganizationBody:
    'None of the organizations your account belongs to is active in the registry. Ask your organization administrator for access, or contact support.',
  screenNotAvailable: 'This screen is not available yet.',
  invalidCredentials: 'The email or password is not correct.',
  somethingWentWrong: 'Something went wrong',
  invalidPermissions: 'Invalid Permissions',
  // Not SPEC's words: what the 'Invalid Permissions' page (SPEC section 6) says under its title.
  invalidPermissionsBody:
    'Your account does not have the role this page needs. Ask your organization administrator for access, or contact support.',
  backToDashboard: 'Back to the dashboard',
  backToLogin: 'Back to login',
  registryUnreachable: 'The registry could not be reached. Check your connection and try again.',
  tryAgain: 'Try again',
  loading: 'Loading your registry…',
  /** The sign-in pages' 429 when one address sends too many (a one-minute window). */
  tooManySignInAttempts: 'Too many sign-in attempts. Wait a minute, then try again.',
  /** Not SPEC's: a hosted form (sign-in, password) sent with more than the server takes. */
  formTooLarge: 'The form was too large to send. Shorten what you typed, then try again.',
} as const;

/**
 * The sign-in pages' 429 when an account has had too many wrong passwords, from any address: the
 * wait is the rest of its window, in whole minutes. Worded the same for an unknown email.
 */
export function tooManyAccountSignInAttempts(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `Too many sign-in attempts for this account. Try again in ${minutes === 1 ? '1 minute' : `${minutes} minutes`}.`;
}

export const NAVIGATION_LABELS = {
  assets: 'Assets',
  administration: 'Administration',
  messages: 'Messages',
  downloads: 'Downloads',
  applications: 'Applications',
  dashboard: 'Dashboard',
  organizations: 'Organizations',
  searchOrganizations: 'Search organizations',
  switchOrganization: 'Organization',
  chooseOrganization: 'Choose an organization',
  showOrganizations: 'Show organizations',
} as const;

/** The dashboard's Assets tile. */
export const ASSET_COUNT_TEXTS = {
  loading: 'Counting assets…',
  failed: 'The asset count could not be loaded.',
  retry: 'Count assets again',
  assets: (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'asset' : 'assets'}`,
} as const;

/** Pagination (SPEC sections 5 and 9). */
export const PAGINATION_TEXTS = {
  label: 'Pagination',
  pageSize: 'Rows per page',
  pageNumber: 'Page number',
  goToPage: 'Go',
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

/** The multi-select (SPEC section 9). */
export const MULTI_SELECT_TEXTS = {
  selected: (count: number) => `Selected (${count})`,
  noResults: 'No results',
  selectAll: 'Select All',
  itemsShown: 'Items shown',
  search: (label: string) => `Search ${label.toLowerCase()}`,
} as const;

/** Choosing a table's shown columns. */
export const COLUMN_VISIBILITY_TEXTS = {
  button: 'Columns',
  legend: 'Shown columns',
  reset: 'Default columns',
  /** Why a checkbox cannot be cleared: one column at least stays. */
  lastColumn: 'At least one of these columns stays shown.',
} as const;

/** Column resizing by keyboard, announced to screen readers. */
export const COLUMN_RESIZE_TEXTS = {
  handle: (column: string) => `Resize column ${column}`,
  hint: 'Use the left and right arrow keys to resize.',
  announcement: (column: string, width: number) => `${column} column width ${width} pixels`,
} as const;

/** The batch download of assignment documents (SPEC sections 2, 4 and 8). */
export const BATCH_DOWNLOAD_TEXTS = {
  downloadComplete: 'Download complete!',
  downloads: 'Downloads',
  // Batch download (jobs helper): the action, the progress label and the job's error messages.
  downloadAssignments: 'Download assignments',
  progressLabel: 'Assignment download progress',
  failed: 'The assignment download failed. Please try again.',
  startFailed: 'Unable to start the assignment download',
  downloadFailed: 'The assignment zip could not be downloaded. Please try again.',
  /** The zip's 404 once the organization no longer holds a role on one of its loans (not SPEC's). */
  accessLost: 'This download holds assets your organization no longer has a role on: start a new download.',
  noDownloads: 'No downloads in progress.',
  progressText: (progress: number, total: number) => `Zipping assignments: ${progress} of ${total} documents`,
  startingText: 'Starting the assignment download...',
  savingText: 'Saving the assignment zip...',
  hashMismatch: 'Left out: its content does not match its SHA-256',
} as const;

/** SPEC section 2's /administration menu: Profile, plus Organizations for registry staff (SPEC section 6). */
export const ADMINISTRATION_MENU = {
  profile: 'Profile',
  profileDescription: 'Your organization’s contact profile and additional contacts.',
  organizations: 'Organizations',
  organizationsDescription: 'Every organization of the registry and its users.',
} as const;
