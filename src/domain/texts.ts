// SPEC texts (toasts, notices, labels). Imported everywhere, never retyped.
import { MIN_SEARCH_CHARACTERS } from './asset-search';
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

/** The asset page (SPEC section 2): tabs Details, History and Documents. */
export const ASSET_PAGE_TEXTS = {
  title: 'Asset',
  tabsLabel: 'Asset sections',
  details: 'Details',
  history: 'History',
  documents: 'Documents',
  loading: 'Loading the asset…',
  notFoundTitle: 'Asset not found',
  notFoundBody: 'No asset with this id is registered to your organization.',
  /** The asset of a message whose role has since moved on: the server's 410 says so. */
  noLongerHeldTitle: 'No longer your asset',
  noLongerHeldBody: 'Your organization no longer holds a role on this asset, so its details are not shown.',
  failed: 'The asset could not be loaded.',
  noHistory: 'No history for this asset yet.',
  backToAssets: 'Back to assets',
  parties: 'Parties',
  noParties: 'No parties are recorded for this asset.',
} as const;

/** The pools screen (SPEC section 2). */
export const POOLS_TEXTS = {
  title: 'Pools',
  tableLabel: 'Completed pools',
  loading: 'Loading pools…',
  empty: 'No completed pools.',
  emptyLast30Days: 'No pools were completed in the last 30 days.',
  failed: 'The pools could not be loaded.',
  dateFilterLabel: 'Date completed',
  allDates: 'All dates',
} as const;

/** The dashboard's Assets tile. */
export const ASSET_COUNT_TEXTS = {
  loading: 'Counting assets…',
  failed: 'The asset count could not be loaded.',
  retry: 'Count assets again',
  assets: (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'asset' : 'assets'}`,
} as const;

/** The asset table screens (SPEC sections 2, 8 and 9): /assets/assets and /assets/pool-assets/:poolId. */
export const ASSET_TEXTS = {
  title: 'Assets',
  assetsTab: 'Assets',
  poolsTab: 'Pools',
  assetListsNavigation: 'Asset lists',
  tableLabel: 'Assets',
  loading: 'Loading assets…',
  empty: 'No assets match these filters.',
  /** The role filter emptied: no list is asked for until a role is chosen again. */
  chooseRole: 'Choose at least one role to see assets.',
  poolEmpty: 'This pool holds no assets.',
  failed: 'The assets could not be loaded.',
  search: 'Search assets',
  searchHint: 'ULI, loan number, borrower name or property address',
  searchTooShort: `Type at least ${MIN_SEARCH_CHARACTERS} characters to search.`,
  roles: 'Roles',
  dateFilter: 'Last updated',
  allDates: 'Any time',
  filters: 'Asset filters',
  selectRow: (uli: string) => `Select asset ${uli}`,
  selectPage: 'Select all assets on this page',
  selectedCount: (count: number) => `${count} selected`,
  clearSelection: 'Clear selection',
  rowActions: (uli: string) => `Actions for asset ${uli}`,
  actionsColumn: 'Actions',
  viewDetails: 'View Details',
  viewDocuments: 'View Documents',
  deactivate: 'Deactivate',
  notApplicable: 'N/A',
  exportCsv: 'Export CSV',
  exportSelectedCsv: (count: number) => `Export ${count} selected to CSV`,
  exportingCsv: 'Preparing CSV…',
  csvFailed: 'Failed to download asset CSV',
  poolLoading: 'Loading the pool…',
  poolNotFoundTitle: 'Pool not found',
  poolNotFoundBody: 'No pool with this id is registered to your organization.',
  backToPools: 'Back to pools',
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

/** The Documents tab's viewer (SPEC sections 2 and 8). */
export const DOCUMENT_TEXTS = {
  unableToLoadPdf: 'Unable to load PDF',
  // Documents (document viewer helper): SPEC gives the text above; these are ours.
  listLabel: 'Documents of this asset',
  loadingList: 'Loading documents…',
  listFailed: 'The documents could not be loaded.',
  noDocuments: 'This asset has no deeds, assignments, releases or eNote to show.',
  chooseDocument: 'Choose a document to view it here.',
  loadingDocument: 'Loading PDF…',
  viewerLabel: 'Document viewer',
  previousPage: 'Previous page',
  nextPage: 'Next page',
  pageNumber: 'Page number',
  pageOf: (pageCount: number) => `of ${pageCount}`,
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  resetZoom: 'Reset zoom',
  zoomLevel: (zoom: number) => `${Math.round(zoom * 100)}%`,
  download: 'Download',
  sha256: 'SHA-256',
  pageImage: (page: number, pageCount: number) => `Page ${page} of ${pageCount}`,
  /** The server's answer (a 500) for a document whose stored content no longer matches its SHA-256. */
  integrityWithheld:
    'The stored content of this document no longer matches its SHA-256 hash: it is withheld rather than served. Contact support.',
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

/** The deactivation request (SPEC sections 3, 5 and 8). */
export const DEACTIVATION_TEXTS = {
  submitFailed: 'Failed to submit deactivation request',
  /** SPEC: the product will process the request and alert the user when deactivation is complete. */
  submitted: 'Deactivation request submitted. We will process it and alert you when the deactivation is complete.',
  fileTooLarge: 'File size cannot be more than 10MB',
  invalidState: 'Please enter a valid state',
  // Deactivation form and request: SPEC gives the texts above; these are ours.
  title: 'Request Deactivation',
  requiredHint: 'Fields marked * are required.',
  backToAsset: 'Back to asset',
  cancel: 'Cancel',
  submit: 'Submit request',
  submitting: 'Submitting…',
  choose: 'Select…',
  reason: 'Reason',
  effectiveDate: 'Effective date',
  assignee: 'Assignee',
  entityType: 'Entity type',
  statePostalCode: 'State postal code',
  address: 'Address',
  street1: 'Street',
  street2: 'Apt/Suite',
  city: 'City',
  state: 'State',
  zip: 'Zip code',
  recording: 'Recording',
  bookNumber: 'Book number',
  pageNumber: 'Page number',
  instrumentNumber: 'Instrument number',
  file: 'Security instrument and assignment',
  fileHint: 'PDF, at most 10MB',
  reasonRequired: 'Reason is required',
  effectiveDateRequired: 'Effective date is required',
  invalidDate: 'Please enter a valid date',
  entityTypeRequired: 'Entity type is required',
  statePostalCodeRequired: 'State postal code is required',
  street1Required: 'Street is required',
  cityRequired: 'City is required',
  invalidZip: 'Zip code must be 5 or 9 digits',
  fileRequired: 'Please attach the security instrument and assignment',
  fileNotPdf: 'The file must be a PDF',
  tooLong: (max: number) => `Cannot be more than ${max} characters`,
  notMultipart: 'The request must be sent as multipart/form-data',
  notOwnerOrServicer: 'Only the owner or servicer of an asset may request its deactivation.',
  alreadyInactive: 'This asset is already deactivated.',
  alreadyRequested: 'A deactivation request for this asset is already pending.',
  transferPending: 'A role transfer of this asset awaits an answer: the asset can be deactivated once it is answered.',
  requestedEvent: (organization: string, reason: string) => `Deactivation requested by ${organization}: ${reason}`,
  confirmedEvent: (organization: string) => `Asset deactivated at the request of ${organization}`,
  completeMessage: (uli: string) => `Deactivation of asset ${uli} is complete.`,
  failedMessage: (uli: string) => `Deactivation of asset ${uli} could not be completed. Submit the request again.`,
  deactivateAsset: 'Deactivate',
} as const;

/** SPEC sections 5 and 8: the user add and edit flows (administration). */
export const USER_TEXTS = {
  firstNameRequired: 'First name is required.',
  lastNameRequired: 'Last name is required.',
  /** SPEC section 5: '<field> cannot be greater than 128 characters.' */
  tooLong: (field: 'First name' | 'Middle name' | 'Last name') => `${field} cannot be greater than 128 characters.`,
  invalidEmail: 'Please enter a valid email.',
  rolesRequired: 'Choose at least one role.',
  newUserAdded: 'New user successfully added.',
  existingUserAdded: 'Existing user successfully added.',
  rolesUpdated: 'Roles successfully updated.',
  /** Not SPEC's: the guards every admin console has (409 bodies). */
  lastAdmin: 'An active organization must keep at least one administrator (ORG_ADMIN).',
  ownAdminRole: 'You cannot remove your own administrator role.',
  ownMembership: 'You cannot remove yourself from the organization.',
  emailTaken: 'A user with this email already exists.',
  alreadyMember: 'This user is already a member of the organization.',
  notMember: 'This user is not a member of the organization.',
  invitationNotFound: 'This invitation link is not valid.',
  invitationExpired: 'This invitation has expired. Ask your administrator for a new one.',
  invitationUsed: 'This invitation has already been used.',
  invitationRevoked: 'This invitation was revoked. Ask your administrator for a new one.',
  organizationNotFound: 'Organization not found.',
  organizationInactive: 'This organization is inactive: reactivate it before adding users.',
  noLongerAdmin: 'You are no longer an administrator of this organization.',
  /** The hosted invitation page. */
  invitationTitle: 'Set your password',
  invitationExistingTitle: 'Join with your password',
  invitationWrongPassword: 'The password is not correct',
} as const;

/** SPEC sections 4, 5 and 8: the organizations of the administration. */
export const ORGANIZATION_TEXTS = {
  // SPEC section 5's messages.
  codeLength: 'Must contain exactly 3 characters',
  invalidPhone: 'Must be a valid phone number',
  invalidState: 'Must be a valid 2-letter state code',
  invalidZip: 'Must be a valid ZIP code',
  // SPEC section 5 names these rules without a text; ours.
  invalidId: 'Must be a valid UUID',
  nameRequired: 'Name is required',
  organizationNameRequired: 'Organization name is required',
  emailRequired: 'Email is required',
  invalidEmail: 'Must be a valid email address',
  phoneRequired: 'Phone number is required',
  streetRequired: 'Street is required',
  cityRequired: 'City is required',
  powerOfAttorneyBoolean: 'Must be true or false',
  tooLong: (max: number) => `Cannot be more than ${max} characters`,
  /** 409 bodies. */
  codeTaken: 'An organization with this code already exists.',
  idTaken: 'An organization with this id already exists.',
  notFound: 'Organization not found.',
  alreadyInactive: 'This organization is already deactivated.',
  alreadyActive: 'This organization is already active.',
  // SPEC sections 4 and 8.
  somethingWentWrong: 'Something went wrong',
  addUsers: 'Add users',
  later: "I'll do it later",
  // The screens: ours.
  listTitle: 'Organizations',
  tableLabel: 'Organizations',
  search: 'Search organizations',
  searchHint: 'Name, code or email',
  statusFilter: 'Status',
  statusActive: 'Active',
  statusInactive: 'Inactive',
  statusAll: 'All',
  loading: 'Loading organizations…',
  empty: 'No organizations match.',
  failed: 'The organizations could not be loaded.',
  addOrganization: 'Add organization',
  edit: 'Edit',
  users: 'Users',
  activity: 'Activity',
  actions: (name: string) => `Actions for ${name}`,
  actionsColumn: 'Actions',
  addTitle: 'Add organization',
  editTitle: 'Edit organization',
  loadingOrganization: 'Loading the organization…',
  loadFailed: 'The organization could not be loaded.',
  notFoundTitle: 'Organization not found',
  backToList: 'Back to organizations',
  id: 'Id',
  name: 'Name',
  organizationName: 'Organization name',
  code: 'Code',
  email: 'Email',
  phoneNumber: 'Phone number',
  address: 'Address',
  street: 'Street',
  street2: 'Apt/Suite',
  city: 'City',
  state: 'State',
  zip: 'ZIP code',
  chooseState: 'Select…',
  powerOfAttorney: 'Granted limited power of attorney',
  status: 'Status',
  yes: 'Yes',
  no: 'No',
  requiredHint: 'Fields marked * are required.',
  review: 'Review',
  reviewTitle: 'Review the organization',
  reviewHint: 'Check the details, then confirm to save them.',
  backToForm: 'Back to edit',
  confirm: 'Confirm',
  saving: 'Saving…',
  cancel: 'Cancel',
  created: 'Organization created.',
  updated: 'Organization updated.',
  createdDialogTitle: 'Organization created',
  createdDialogBody: (name: string) => `${name} is saved. Add its first users now?`,
  deactivate: 'Deactivate',
  deactivateTitle: 'Deactivate organization',
  deactivateExplanation: [
    'It stays a party of record on its loans and in their history.',
    'Its members can no longer choose it: their sessions on it end with "Invalid participant".',
    'Registry staff can reactivate it later from its edit page.',
  ],
  deactivateConfirm: 'Deactivate organization',
  deactivating: 'Deactivating…',
  deactivated: 'Organization deactivated.',
  deactivateFailed: 'The organization could not be deactivated.',
  inactiveNotice: 'This organization is deactivated: its members cannot choose it.',
  reactivate: 'Reactivate',
  reactivating: 'Reactivating…',
  reactivated: 'Organization reactivated.',
  reactivateFailed: 'The organization could not be reactivated.',
  activityTitle: 'Activity',
  activityTableLabel: 'Audit log',
  activityLoading: 'Loading the activity…',
  activityEmpty: 'No activity recorded yet.',
  activityFailed: 'The activity could not be loaded.',
  exportCsv: 'Export CSV',
  exportingCsv: 'Preparing CSV…',
  exportFailed: 'The activity CSV could not be downloaded.',
  when: 'When',
  who: 'Who',
  from: 'From',
  what: 'What',
  change: 'Change',
} as const;

/** SPEC section 2's /administration menu: Profile, plus Organizations for registry staff (SPEC section 6). */
export const ADMINISTRATION_MENU = {
  profile: 'Profile',
  profileDescription: 'Your organization’s contact profile and additional contacts.',
  organizations: 'Organizations',
  organizationsDescription: 'Every organization of the registry and its users.',
} as const;

/** SPEC sections 5 and 8: the organization's contact profile and the partner view. */
export const PROFILE_TEXTS = {
  contactNameRequired: 'Please enter the contact name.',
  invalidPhone: 'Please enter a valid 10-digit phone number.',
  emailRequired: 'Please enter the email.',
  invalidEmail: 'Please enter a valid email address.',
  updated: 'Profile Updated',
  updateFailed: 'Unable to Update Profile',
  // Not SPEC's: the rest of the profile page, its address rules and the partner view.
  title: 'Profile',
  partnerTitle: 'Partner Profile',
  organizationName: 'Organization name',
  phone: 'Phone',
  email: 'Email',
  url: 'Website',
  street: 'Street',
  street2: 'Apt/Suite',
  city: 'City',
  state: 'State',
  zip: 'Zip code',
  streetRequired: 'Please enter the street.',
  cityRequired: 'Please enter the city.',
  invalidState: 'Please select a valid state.',
  invalidZip: 'Please enter a valid 5 or 9-digit zip code.',
  invalidUrl: 'Please enter a web address starting with http:// or https://.',
  tooLong: (max: number) => `Cannot be more than ${max} characters.`,
  contactsTooMany: (max: number) => `At most ${max} additional contacts.`,
  additionalContacts: 'Additional contacts',
  noContacts: 'No additional contacts.',
  contactType: 'Contact type',
  contactName: 'Name',
  update: 'Update',
  updateProfile: 'Update profile',
  addContact: 'Add contact',
  editContact: (name: string) => `Edit contact ${name}`,
  removeContact: (name: string) => `Remove contact ${name}`,
  saveContact: 'Done',
  save: 'Save',
  saving: 'Saving…',
  cancel: 'Cancel',
  loadFailed: 'The profile could not be loaded.',
  relationships: 'Relationships',
  noRelationships: 'This organization has no relationships yet.',
  relationshipsFailed: 'The relationships could not be loaded.',
  partner: 'Partner',
  relationshipType: 'Type',
  relationshipState: 'State',
  viewPartner: (name: string) => `View ${name}'s profile`,
  relationshipNotFound: 'Relationship not found.',
  backToProfile: 'Back to profile',
  readOnly: 'Only an administrator of this organization can update its profile.',
} as const;
