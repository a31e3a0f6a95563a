// The users of an organization and the registry's user directory (SPEC sections 3, 5 and 7): the
// add-user body with SPEC section 5's rules (applied by the user form and the server alike), the
// roles body, the paged lists and the invitation of a new person.
import { z } from 'zod';
import { NAME_MAX_LENGTH } from '../domain/constants';
import { USER_SEARCH_MIN_LENGTH, USER_SUGGESTION_LIMIT } from '../domain/organization-users';
import { ORGANIZATION_USER_ROLES } from '../domain/roles';
import { USER_TEXTS as T } from '../domain/administration-texts';
import { inputText } from './common';
import { MIN_PASSWORD_LENGTH } from './identity';
import { pageAnswerOf, pageQueryOf } from './paging';
import { userSchema } from './users';

const name = (field: 'First name' | 'Middle name' | 'Last name') => inputText().trim().max(NAME_MAX_LENGTH, T.tooLong(field));

/** An email address as the user form and the server accept it (SPEC section 5: 'Please enter a valid email.'). */
export const userEmailSchema = inputText().trim().max(254, T.invalidEmail).pipe(z.email(T.invalidEmail));

/** Organization roles a membership may hold: the assignable five and the hidden TRADER and AUDITOR. */
export const organizationRolesSchema = z
  .array(z.enum(ORGANIZATION_USER_ROLES))
  .min(1, T.rolesRequired)
  .transform((roles) => [...new Set(roles)]);

/** POST v2 /participants/{participantId}/users: a new person, invited to the organization. */
export const newOrganizationUserSchema = z.object({
  firstName: name('First name').min(1, T.firstNameRequired),
  middleName: name('Middle name')
    .transform((value) => value || null)
    .nullable()
    .optional(),
  lastName: name('Last name').min(1, T.lastNameRequired),
  email: userEmailSchema,
  roles: organizationRolesSchema,
});
export type NewOrganizationUser = z.input<typeof newOrganizationUserSchema>;

/** PUT v2 /participants/{participantId}/users/{userId}: the body is the roles array. */
export const userRolesBodySchema = organizationRolesSchema;

/** POST v2 /users/{userId}/participants: an existing user joins an organization. */
export const addUserToParticipantSchema = z.object({ participantId: z.uuid(), roles: organizationRolesSchema });

/** A pending invitation as the user list shows it (the link only to the admin who may resend it). */
export const invitationSchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
  expired: z.boolean(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** A member of an organization, with what the administration's list shows beside the user. */
export const organizationUserSchema = userSchema.extend({
  lastSignInAt: z.iso.datetime({ offset: true }).nullable(),
  /** The newest invitation not yet accepted nor revoked, if any. */
  invitation: invitationSchema.nullable(),
});
export type OrganizationUser = z.infer<typeof organizationUserSchema>;

export const ORGANIZATION_USER_SORTS = ['name', 'email', 'lastSignInAt'] as const;

/** GET v2 /participants/{participantId}/users: paged, sorted, searchable by name or email. */
export const organizationUsersQuerySchema = pageQueryOf({
  query: inputText().trim().max(200).optional(),
  sort: z.enum(ORGANIZATION_USER_SORTS).default('name'),
  direction: z.enum(['asc', 'desc']).default('asc'),
});
export const organizationUsersPageSchema = pageAnswerOf('users', organizationUserSchema, "The organization's users matching the query");

/** GET v2 /users: every registry user, paged and searchable by name or email (registry staff). */
export const usersQuerySchema = pageQueryOf({
  query: inputText().trim().max(200).optional(),
});
export const usersPageSchema = pageAnswerOf('users', userSchema, 'Registry users matching the query');

/**
 * GET v2 /users/suggestions: the 'Add existing user' suggestions (SPEC section 5), users whose first
 * name, last name or email starts with `query` (or, for a query of several words, holds it), by
 * name, at most USER_SUGGESTION_LIMIT; roles are per organization, so none is carried. No total:
 * a suggestion list is not paged.
 */
export const userSuggestionsQuerySchema = z.object({
  query: inputText().trim().min(USER_SEARCH_MIN_LENGTH, `must hold at least ${USER_SEARCH_MIN_LENGTH} characters`).max(200),
});
export const userSuggestionsSchema = z.object({ users: z.array(userSchema).max(USER_SUGGESTION_LIMIT) });
export type UserSuggestions = z.infer<typeof userSuggestionsSchema>;

/** The answer of a user add: the user, and for a new person the invitation link (shown to the admin, SMTP or not). */
export const addedUserSchema = z.object({
  user: organizationUserSchema,
  invitationLink: z.string().nullable(),
});
export type AddedUser = z.infer<typeof addedUserSchema>;

/** POST .../users/{userId}/invitation (resend): a new link, the old one revoked. */
export const resentInvitationSchema = z.object({ invitation: invitationSchema, invitationLink: z.string() });

export const participantUserParamsSchema = z.object({ participantId: z.uuid(), userId: z.uuid() });
export const participantParamsSchema = z.object({ participantId: z.uuid() });

/** The hosted invitation page's link: ?token=... (43 base64url characters). */
export const invitationTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'is not an invitation token');
export const invitationPageQuerySchema = z.object({ token: z.string().max(200).optional() });

/**
 * The hosted invitation page's form: a new person sets a password (newPassword, confirmPassword,
 * the rules of the password page); someone who already has an identity of that email gives its
 * password instead (password). The server decides which applies.
 */
export const invitationFormSchema = z.object({
  token: z.string().max(200),
  newPassword: z.string().max(1024).optional(),
  confirmPassword: z.string().max(1024).optional(),
  password: z.string().max(1024).optional(),
});
export const newPasswordFormSchema = z
  .object({
    newPassword: z
      .string({ error: 'New password is required' })
      .min(MIN_PASSWORD_LENGTH, `The new password must be at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(1024, 'The new password must be at most 1024 characters'),
    confirmPassword: z.string({ error: 'Confirm the new password' }).max(1024),
  })
  .refine((form) => form.confirmPassword === form.newPassword, {
    message: 'The new password and its confirmation do not match',
    path: ['confirmPassword'],
  });
