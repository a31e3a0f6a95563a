// The organization's contact profile (SPEC sections 3, 5, 6 and 8): loading the acting
// organization's profile, viewing it, and for its ORG_ADMIN editing it: the organization's fields
// and its additional contacts (add, edit, remove through a contact editor that applies SPEC
// section 5's Contact edit rules before the contact joins the list), then saving (PATCH v1
// /participants/profile) with the toast 'Profile Updated' or 'Unable to Update Profile'; the form
// keeps what was typed after a failure and shows what the server said of each field. Errors show
// from the first submit (or contact save) on and follow every change after it.
import { assertEvent, assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { isHttpError } from '../src/contract/http-error';
import type { ProfileInfo } from '../src/contract/participants';
import { contactErrors, parseFieldErrors, profileErrors, type FieldErrors, type ProfileDraft } from '../src/contract/profile';
import {
  CONTACT_FORM_FIELDS,
  contactBodyOf,
  EMPTY_CONTACT_FORM,
  formErrorsOf,
  PROFILE_FORM_FIELDS,
  profileBodyOf,
  profileFormOf,
  type ContactForm,
  type ProfileForm,
  type ProfileFormField,
} from '../src/contract/profile-form';
import { PROFILE_TEXTS } from '../src/domain/administration-texts';
import { toastShow } from './toasts';

/** What the load answers: the profile, and whether this caller may update it (ORG_ADMIN there). */
export interface LoadedProfile {
  readonly profile: ProfileInfo;
  readonly canEdit: boolean;
}

/** The contact being edited: its place in the list (null: a new one), its values and whether its errors show. */
export interface ContactEditor {
  readonly index: number | null;
  readonly form: ContactForm;
  readonly showAll: boolean;
}

export interface OrganizationProfileContext {
  readonly profile: ProfileInfo | null;
  readonly canEdit: boolean;
  readonly form: ProfileForm | null;
  readonly showAll: boolean;
  /** What the server said of fields (by form field), until the field changes. */
  readonly serverErrors: FieldErrors;
  readonly contact: ContactEditor | null;
}

export type OrganizationProfileEvent =
  | { type: 'profile.retry' }
  | { type: 'profile.edit' }
  | { type: 'form.change'; values: Partial<Omit<ProfileForm, 'contacts'>> }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'contact.add' }
  | { type: 'contact.edit'; index: number }
  | { type: 'contact.remove'; index: number }
  | { type: 'contact.change'; values: Partial<ContactForm> }
  | { type: 'contact.save' }
  | { type: 'contact.cancel' };

/** Every broken rule of the form, by form field (`phone`, `zip`, `additionalContacts.0.email`). */
export const formErrors = (form: ProfileForm): FieldErrors => formErrorsOf(profileErrors(profileBodyOf(form)));
/** Every broken rule of a contact, by its form field. */
export const contactFormErrors = (form: ContactForm): FieldErrors => formErrorsOf(contactErrors(contactBodyOf(form)));

/** The errors on screen: from the first submit on, the rules'; always the server's. */
export function visibleErrors(context: OrganizationProfileContext): FieldErrors {
  const rules = context.showAll && context.form ? formErrors(context.form) : {};
  return { ...rules, ...context.serverErrors };
}

export function visibleContactErrors(context: OrganizationProfileContext): FieldErrors {
  return context.contact?.showAll ? contactFormErrors(context.contact.form) : {};
}

/** The first invalid field of the form in its order; else the first contact the server named. */
export const firstInvalidField = (errors: FieldErrors): string | undefined =>
  PROFILE_FORM_FIELDS.find((field) => errors[field] !== undefined) ?? Object.keys(errors)[0];

export const firstInvalidContactField = (errors: FieldErrors): string | undefined =>
  CONTACT_FORM_FIELDS.find((field) => errors[field] !== undefined);

const withoutFields = (errors: FieldErrors, fields: readonly string[]): FieldErrors =>
  Object.fromEntries(Object.entries(errors).filter(([field]) => !fields.includes(field)));

/** The contacts' errors the server gave are about places in the list: a changed list makes them stale. */
const withoutContacts = (errors: FieldErrors): FieldErrors =>
  Object.fromEntries(Object.entries(errors).filter(([field]) => !field.startsWith('additionalContacts')));

const editingHandlers = {
  'form.change': { target: '#organization-profile.editing.form', actions: 'applyChange' },
  'form.cancel': { target: '#organization-profile.viewing' },
  'contact.add': { target: '#organization-profile.editing.contact', actions: 'openNewContact' },
  'contact.edit': { guard: 'hasContact', target: '#organization-profile.editing.contact', actions: 'openContact' },
  'contact.remove': { target: '#organization-profile.editing.form', actions: ['removeContact', 'focusContacts'] },
  'form.submit': [
    { guard: 'isValid', target: '#organization-profile.saving' },
    {
      target: '#organization-profile.editing.form',
      actions: [
        'showAllErrors',
        {
          type: 'focusField',
          params: ({ context }: { context: OrganizationProfileContext }) => ({ field: firstInvalidField(visibleErrors(context)) }),
        },
      ],
    },
  ],
} as const;

export const organizationProfileMachine = setup({
  types: {
    context: {} as OrganizationProfileContext,
    events: {} as OrganizationProfileEvent,
  },
  actors: {
    // Provided by the app: GET v1 /users/me (the acting organization's profile and the caller's roles there).
    loadProfile: fromPromise<LoadedProfile>(async () => {
      throw new Error('loadProfile is provided by the app');
    }),
    // Provided by the app: PATCH v1 /participants/profile.
    saveProfile: fromPromise<ProfileInfo, ProfileDraft>(async () => {
      throw new Error('saveProfile is provided by the app');
    }),
  },
  actions: {
    keepLoaded: assign(({ event }) => {
      const loaded = (event as unknown as { output: LoadedProfile }).output;
      return { profile: loaded.profile, canEdit: loaded.canEdit };
    }),
    startEditing: assign(({ context }) => ({
      form: context.profile ? profileFormOf(context.profile) : null,
      showAll: false,
      serverErrors: {},
      contact: null,
    })),
    applyChange: assign(({ context, event }) => {
      assertEvent(event, 'form.change');
      if (!context.form) return {};
      const form = { ...context.form, ...event.values };
      return { form, serverErrors: withoutFields(context.serverErrors, Object.keys(event.values)) };
    }),
    openNewContact: assign({ contact: { index: null, form: EMPTY_CONTACT_FORM, showAll: false } }),
    openContact: assign(({ context, event }) => {
      assertEvent(event, 'contact.edit');
      const form = context.form?.contacts[event.index];
      return { contact: form ? { index: event.index, form, showAll: false } : null };
    }),
    removeContact: assign(({ context, event }) => {
      assertEvent(event, 'contact.remove');
      if (!context.form) return {};
      return {
        form: { ...context.form, contacts: context.form.contacts.filter((_, index) => index !== event.index) },
        serverErrors: withoutContacts(context.serverErrors),
      };
    }),
    applyContactChange: assign(({ context, event }) => {
      assertEvent(event, 'contact.change');
      return context.contact ? { contact: { ...context.contact, form: { ...context.contact.form, ...event.values } } } : {};
    }),
    showContactErrors: assign(({ context }) => (context.contact ? { contact: { ...context.contact, showAll: true } } : {})),
    keepContact: assign(({ context }) => {
      if (!context.form || !context.contact) return {};
      const { index, form: contact } = context.contact;
      const contacts =
        index === null ? [...context.form.contacts, contact] : context.form.contacts.map((each, at) => (at === index ? contact : each));
      return { form: { ...context.form, contacts }, contact: null, serverErrors: withoutContacts(context.serverErrors) };
    }),
    closeContact: assign({ contact: null }),
    showAllErrors: assign({ showAll: true }),
    keepSaved: assign(({ event }) => ({
      profile: (event as unknown as { output: ProfileInfo }).output,
      form: null,
      showAll: false,
      serverErrors: {},
    })),
    /** A 400 that names fields puts each text under its field. */
    keepServerErrors: assign(({ event }) => {
      const error = 'error' in event ? event.error : undefined;
      return { serverErrors: isHttpError(error) && error.status === 400 ? formErrorsOf(parseFieldErrors(error.serverMessage)) : {} };
    }),
    // The app's toasts actor (machines/app-root.ts): the screen runs as a child of the root.
    notifySaved: sendTo(({ system }) => system.get('toasts'), toastShow('success', PROFILE_TEXTS.updated)),
    notifyFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', PROFILE_TEXTS.updateFailed)),
    /** Provided by the screen: the focus to a field of the profile form (none: nothing to do). */
    focusField: (_, _params: { field: string | undefined }) => undefined,
    /** Provided by the screen: the focus to a field of the contact editor. */
    focusContactField: (_, _params: { field: string | undefined }) => undefined,
    /** Provided by the screen: the focus back to the contacts (their Add button) after the editor closed or a removal. */
    focusContacts: () => undefined,
    /** Provided by the screen: the focus to the profile's heading (viewing again after a save or a cancel). */
    focusProfile: () => undefined,
  },
  guards: {
    canEdit: ({ context }) => context.canEdit && context.profile !== null,
    isValid: ({ context }) => context.form !== null && Object.keys(formErrors(context.form)).length === 0,
    hasContact: ({ context, event }) => event.type === 'contact.edit' && context.form?.contacts[event.index] !== undefined,
    isContactValid: ({ context }) => context.contact !== null && Object.keys(contactFormErrors(context.contact.form)).length === 0,
  },
}).createMachine({
  id: 'organization-profile',
  context: { profile: null, canEdit: false, form: null, showAll: false, serverErrors: {}, contact: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadProfile',
        onDone: { target: 'viewing', actions: 'keepLoaded' },
        onError: { target: 'loadFailed' },
      },
    },
    loadFailed: {
      on: { 'profile.retry': { target: 'loading' } },
    },
    /** Read only; an ORG_ADMIN sees the Update button. */
    viewing: {
      on: { 'profile.edit': { guard: 'canEdit', target: 'editing', actions: 'startEditing' } },
    },
    editing: {
      initial: 'form',
      states: {
        form: { on: editingHandlers },
        /** The contact editor: its own rules, applied before the contact joins the list. */
        contact: {
          tags: ['contact'],
          entry: { type: 'focusContactField', params: { field: 'type' } },
          on: {
            'contact.change': { actions: 'applyContactChange' },
            'contact.save': [
              { guard: 'isContactValid', target: 'form', actions: ['keepContact', 'focusContacts'] },
              {
                actions: [
                  'showContactErrors',
                  {
                    type: 'focusContactField',
                    params: ({ context }) => ({ field: firstInvalidContactField(visibleContactErrors(context)) }),
                  },
                ],
              },
            ],
            'contact.cancel': { target: 'form', actions: ['closeContact', 'focusContacts'] },
          },
        },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        src: 'saveProfile',
        input: ({ context }) => profileBodyOf(context.form as ProfileForm),
        onDone: { target: 'saved', actions: 'keepSaved' },
        onError: { target: 'failed', actions: 'keepServerErrors' },
      },
    },
    /** Saved: the toast, then the profile as stored, read only. */
    saved: {
      entry: ['notifySaved', 'focusProfile'],
      always: { target: 'viewing' },
    },
    /** The form as typed, with the failure said; it is edited and submitted again from here. */
    failed: {
      entry: ['notifyFailed', { type: 'focusField', params: ({ context }) => ({ field: firstInvalidField(context.serverErrors) }) }],
      on: editingHandlers,
    },
  },
});

export type OrganizationProfileSnapshot = SnapshotFrom<typeof organizationProfileMachine>;

export const selectProfile = (snapshot: OrganizationProfileSnapshot): ProfileInfo | null => snapshot.context.profile;
export const selectCanEdit = (snapshot: OrganizationProfileSnapshot): boolean => snapshot.can({ type: 'profile.edit' });
export const selectIsLoading = (snapshot: OrganizationProfileSnapshot): boolean => snapshot.hasTag('loading');
export const selectLoadFailed = (snapshot: OrganizationProfileSnapshot): boolean => snapshot.matches('loadFailed');
export const selectIsEditing = (snapshot: OrganizationProfileSnapshot): boolean =>
  snapshot.matches('editing') || snapshot.matches('saving') || snapshot.matches('failed');
export const selectIsSaving = (snapshot: OrganizationProfileSnapshot): boolean => snapshot.hasTag('busy');
export const selectForm = (snapshot: OrganizationProfileSnapshot): ProfileForm | null => snapshot.context.form;
export const selectVisibleErrors = (snapshot: OrganizationProfileSnapshot): FieldErrors => visibleErrors(snapshot.context);
export const selectContactEditor = (snapshot: OrganizationProfileSnapshot): ContactEditor | null => snapshot.context.contact;
export const selectContactErrors = (snapshot: OrganizationProfileSnapshot): FieldErrors => visibleContactErrors(snapshot.context);
export type { ProfileFormField };
