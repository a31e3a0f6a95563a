// The profile screen's actors over the app's services: the acting organization's profile and the
// caller's roles there (GET v1 /users/me), the save (PATCH v1 /participants/profile), the focus
// moves, and the relationships list under the profile. Its toasts are the machine's own.
import { fromPromise } from 'xstate';
import { organizationProfileMachine } from '../../../../machines/organization-profile';
import { pagedListOf } from '../../../../machines/paged-list';
import { isOrganizationAdmin } from '../../../domain/access';
import type { AppServices } from '../../app/services';

/** The id of a profile form control: `profile-zip`, `profile-contact-email`. */
export const profileFieldId = (field: string): string => `profile-${field.replaceAll('.', '-')}`;
export const contactFieldId = (field: string): string => `profile-contact-${field}`;
export const ADD_CONTACT_ID = 'profile-add-contact';
export const CONTACTS_ERROR_ID = 'profile-contacts-error';

const focusById = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);

export function organizationProfileActors(services: Pick<AppServices, 'api'>, participantId: string) {
  const { api } = services;
  return organizationProfileMachine.provide({
    actors: {
      loadProfile: fromPromise(async ({ signal }) => {
        const me = await api.usersMe(participantId, signal);
        if (!me.participant) throw new Error('No organization to show');
        return { profile: me.participant.profileInfo, canEdit: isOrganizationAdmin(me.user.roles) };
      }),
      saveProfile: fromPromise(({ input, signal }) => api.updateProfile(input, signal)),
    },
    actions: {
      // After React has shown the error the control is described by.
      focusField: (_, { field }) => {
        if (!field) return;
        focusById(field.startsWith('additionalContacts') ? CONTACTS_ERROR_ID : profileFieldId(field));
      },
      focusContactField: (_, { field }) => {
        if (field) focusById(contactFieldId(field));
      },
      focusContacts: () => focusById(ADD_CONTACT_ID),
      focusProfile: () => focusById('page-heading'),
    },
  });
}

export const relationshipsListLogic = ({ api }: Pick<AppServices, 'api'>) =>
  pagedListOf(async (view, signal) => {
    const page = await api.listRelationships({ limit: view.limit, offset: (view.page - 1) * view.limit }, signal);
    return { items: page.relationships, totalCount: page.totalCount };
  });
