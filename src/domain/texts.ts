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
  screenNotAvailable: 'This screen is not available yet.',
  invalidCredentials: 'The email or password is not correct.',
  somethingWentWrong: 'Something went wrong',
  invalidPermissions: 'Invalid Permissions',
  registryUnreachable: 'The registry could not be reached. Check your connection and try again.',
  tryAgain: 'Try again',
  loading: 'Loading your registry…',
} as const;

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
} as const;
