// The actors of an organization's users screens (list, user form, removal) over the app's
// services: the calls through the API, the clipboard, the focus moves and the way back to the
// list. Their toasts are the machines' own (they run in the app's actor system).
import { fromPromise } from 'xstate';
import {
  organizationUsersListMachine,
  organizationUsersQueryOf,
  type OrganizationUsersView,
} from '../../../../machines/organization-users-list';
import { pagedListOf } from '../../../../machines/paged-list';
import { userFormMachine, type UserFormField, type UserSave } from '../../../../machines/user-form';
import { userRemovalMachine } from '../../../../machines/user-removal';
import type { RegistryApi } from '../../../client/api';
import { APP_PATHS } from '../../../domain/app-paths';
import type { AppServices } from '../../app/services';

/** The id of a user form control: `user-form-firstName`. */
export const userFieldId = (field: UserFormField): string => `user-form-${field}`;
export const REVIEW_HEADING_ID = 'user-form-review';
export const FAILURE_ID = 'user-form-failure';
export const INVITATION_LINK_ID = 'user-form-invitation-link';
export const REMOVAL_FAILURE_ID = 'user-removal-failure';
/** The id of the new link a resend shows in a row of the list. */
export const rowLinkId = (userId: string): string => `user-link-${userId}`;

/** After React has shown what the focus goes to. */
const focusLater = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);

/** The browser's clipboard (absent off a secure context: the link stays on screen to copy by hand). */
async function writeClipboard(text: string): Promise<void> {
  if (!navigator.clipboard) throw new Error('no clipboard here');
  await navigator.clipboard.writeText(text);
}

export function organizationUsersListActors({ api }: Pick<AppServices, 'api'>, participantId: string) {
  return organizationUsersListMachine.provide({
    actors: {
      list: pagedListOf(async (view, signal) => {
        const { users, totalCount } = await api.organizationUsers(
          participantId,
          organizationUsersQueryOf(view as OrganizationUsersView),
          signal,
        );
        return { items: users, totalCount };
      }),
      loadOrganization: fromPromise(({ input, signal }) => api.organization(input.participantId, signal)),
      resendInvitation: fromPromise(({ input, signal }) => api.resendInvitation(input.participantId, input.userId, signal)),
      revokeInvitation: fromPromise(({ input, signal }) => api.revokeInvitation(input.participantId, input.userId, signal)),
      copyLink: fromPromise(({ input }) => writeClipboard(input.link)),
    },
    actions: {
      focusLink: (_, { userId }) => focusLater(rowLinkId(userId)),
    },
  });
}

/** One save of the form: invite a new person, add an existing user, or change a member's roles. */
export async function saveUser(api: RegistryApi, save: UserSave, signal: AbortSignal) {
  const { mode, participantId, userId, draft, roles } = save;
  if (mode === 'new') {
    const { firstName, middleName, lastName, email } = draft;
    return api.addOrganizationUser(participantId, { firstName, middleName, lastName, email, roles: [...roles] }, signal);
  }
  // An existing user has a password already: no invitation link.
  if (mode === 'existing')
    return { user: await api.addExistingUser(userId ?? '', { participantId, roles: [...roles] }, signal), invitationLink: null };
  await api.updateUserRoles(participantId, userId ?? '', roles, signal);
  return null;
}

export function userFormActors(services: AppServices, participantId: string) {
  const { api } = services;
  return userFormMachine.provide({
    actors: {
      loadUser: fromPromise(({ input, signal }) => api.organizationUser(input.participantId, input.userId, signal)),
      searchUsers: fromPromise(async ({ input, signal }) => (await api.suggestUsers(input.query, signal)).users),
      saveUser: fromPromise(({ input, signal }) => saveUser(api, input, signal)),
      copyLink: fromPromise(({ input }) => writeClipboard(input.link)),
    },
    actions: {
      focus: (_, { target }) => {
        if (!target) return;
        const id =
          target === 'review'
            ? REVIEW_HEADING_ID
            : target === 'failure'
              ? FAILURE_ID
              : target === 'invitation'
                ? INVITATION_LINK_ID
                : userFieldId(target);
        focusLater(id);
      },
      goToList: () => services.navigate(APP_PATHS.organizationUsers(participantId)),
    },
  });
}

export function userRemovalActors(services: AppServices, participantId: string) {
  const { api } = services;
  return userRemovalMachine.provide({
    actors: {
      loadUser: fromPromise(({ input, signal }) => api.organizationUser(input.participantId, input.userId, signal)),
      removeUser: fromPromise(({ input, signal }) => api.removeOrganizationUser(input.participantId, input.userId, signal)),
    },
    actions: {
      focusFailure: () => focusLater(REMOVAL_FAILURE_ID),
      goToList: () => services.navigate(APP_PATHS.organizationUsers(participantId)),
    },
  });
}
