// The administration of an organization's users (SPEC sections 2, 4, 5, 6 and 8): the texts of
// its screens (SPEC's own are USER_TEXTS in texts.ts) and the role labels of the picker.
import { ASSIGNABLE_USER_ROLES, ORGANIZATION_USER_ROLES, type OrganizationUserRole } from './roles';

/** How many suggestions the 'Add existing user' search shows (GET v2 /users/suggestions). */
export const USER_SUGGESTION_LIMIT = 10;
/** SPEC section 5: suggestions appear after more than 2 typed characters. */
export const USER_SEARCH_MIN_LENGTH = 3;

export const USER_ROLE_LABELS: Record<OrganizationUserRole, string> = {
  ORG_ADMIN: 'Organization Admin',
  FIGURE_ADMIN: 'Figure Admin',
  CUSTODIAN: 'Custodian',
  DART_AGENT: 'DART Agent',
  FIGURE_ENGINEER: 'Figure Engineer',
  TRADER: 'Trader',
  AUDITOR: 'Auditor',
};

export const userRoleLabel = (role: string): string => USER_ROLE_LABELS[role as OrganizationUserRole] ?? role;

/** The roles the picker offers (SPEC section 6: TRADER and AUDITOR are hidden). */
export const isAssignableRole = (role: string): boolean => (ASSIGNABLE_USER_ROLES as readonly string[]).includes(role);

/** A role change keeps the hidden roles a member already holds: the picker cannot show them, so it cannot take them away. */
export const rolesToSave = (chosen: readonly string[], held: readonly string[]): OrganizationUserRole[] => [
  ...ASSIGNABLE_USER_ROLES.filter((role) => chosen.includes(role)),
  ...(held.filter(
    (role) => !isAssignableRole(role) && (ORGANIZATION_USER_ROLES as readonly string[]).includes(role),
  ) as OrganizationUserRole[]),
];

export const ORGANIZATION_USERS_TEXTS = {
  title: 'Users',
  titleOf: (organization: string) => `Users of ${organization}`,
  backToOrganizations: 'Back to organizations',
  backToUsers: 'Back to users',
  addUser: 'Add user',
  tableLabel: "The organization's users",
  loading: 'Loading users…',
  empty: 'This organization has no users yet.',
  noMatch: 'No users match the search.',
  search: 'Search',
  failed: 'The users could not be loaded.',
  retry: 'Try again',
  searchLabel: 'Search by name or email',
  name: 'Name',
  email: 'Email',
  roles: 'Roles',
  lastSignIn: 'Last sign-in',
  actions: 'Actions',
  never: 'Never',
  invitationPending: 'Invitation pending',
  invitationExpired: 'Invitation expired',
  invitationExpires: (date: string) => `Invitation pending, expires ${date}`,
  resend: 'Resend invitation',
  revoke: 'Revoke invitation',
  copyLink: 'Copy link',
  editRoles: 'Edit roles',
  remove: 'Remove',
  actionsOf: (name: string) => `Actions for ${name}`,
  resent: 'A new invitation link was created.',
  resendFailed: 'The invitation could not be sent again.',
  revoked: 'The invitation was revoked.',
  revokeFailed: 'The invitation could not be revoked.',
  linkCopied: 'Invitation link copied.',
  copyFailed: 'The link could not be copied: select it and copy it yourself.',
  newLinkOf: (name: string) => `New invitation link for ${name}`,
} as const;

export const USER_FORM_TEXTS = {
  addTitle: 'Add user',
  editTitle: 'Edit roles',
  requiredHint: 'Fields marked with an asterisk (*) are required.',
  addExisting: 'Add existing user',
  addExistingHint: 'Search the registry by name or email and choose the person.',
  search: 'Find a user',
  searchHint: 'Type more than 2 characters of a name or email.',
  searching: 'Searching…',
  noSuggestions: 'No users found.',
  searchFailed: 'The search failed. Type again to retry.',
  chooseUser: 'Choose a user from the suggestions.',
  firstName: 'First name',
  middleName: 'Middle name',
  lastName: 'Last name',
  email: 'Email',
  roles: 'Roles',
  review: 'Review',
  reviewTitle: 'Review and confirm',
  reviewIntro: 'Check the details below, then confirm.',
  edit: 'Edit',
  confirm: 'Confirm',
  saving: 'Saving…',
  cancel: 'Cancel',
  somethingWentWrong: 'Something went wrong',
  tryAgain: 'Try again',
  invitedTitle: 'Invitation created',
  invitedIntro: (email: string) =>
    `Send this link to ${email}: it opens the page where they set a password. It can be used once and expires in 7 days.`,
  invitationLink: 'Invitation link',
  done: 'Back to users',
  loading: 'Loading the user…',
  loadFailed: 'The user could not be loaded.',
  none: '—',
  hiddenRoles: (roles: string) => `Also holds ${roles}, which this form keeps as they are.`,
} as const;

export const USER_REMOVAL_TEXTS = {
  title: 'Remove user',
  question: (name: string, organization: string | null) =>
    organization ? `Remove ${name} from ${organization}?` : `Remove ${name} from this organization?`,
  explanation:
    'They lose access to this organization at once. Their account and their other organizations stay as they are, and the activity log keeps what they did.',
  confirm: 'Remove user',
  removing: 'Removing…',
  cancel: 'Cancel',
  removed: 'User removed from the organization.',
  failed: 'The user could not be removed.',
} as const;
