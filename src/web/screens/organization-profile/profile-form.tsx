// The profile form (an ORG_ADMIN's): the organization's fields with the phone field, its
// additional contacts (add, edit, remove) and the contact editor. Values, errors and flags are
// the machine's (machines/organization-profile.ts); this renders them and sends the input.
import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import {
  selectContactEditor,
  selectContactErrors,
  selectForm,
  selectIsSaving,
  selectVisibleErrors,
} from '../../../../machines/organization-profile';
import { CONTACT_TYPE_LABELS, CONTACT_TYPES, type ContactType } from '../../../contract/profile';
import { contactBodyOf, type ProfileFormField } from '../../../contract/profile-form';
import { PROFILE_TEXTS as T } from '../../../domain/administration-texts';
import { US_STATES } from '../../../domain/us-states';
import { CONTROL_CLASS, FormField } from '../../ui/form-field';
import { PhoneField } from '../../ui/phone-field';
import { ADD_CONTACT_ID, CONTACTS_ERROR_ID, contactFieldId, profileFieldId } from './organization-profile-actors';
import { ContactsTable } from './profile-details';
import type { OrganizationProfileRef } from './organization-profile-screen';

const PRIMARY_BUTTON = 'rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white disabled:opacity-60';
const SECONDARY_BUTTON = 'rounded-md border border-slate-400 bg-white px-4 py-2 text-sm font-semibold text-slate-800 disabled:opacity-60';
const LINK_BUTTON = 'text-sm font-medium text-brand-700 underline disabled:opacity-60';

const TEXT_FIELDS: ReadonlyArray<{ field: Exclude<ProfileFormField, 'phone' | 'state'>; label: string; required: boolean; type?: string }> =
  [
    { field: 'name', label: T.organizationName, required: true },
    { field: 'email', label: T.email, required: true, type: 'email' },
    { field: 'street', label: T.street, required: true },
    { field: 'street2', label: T.street2, required: false },
    { field: 'city', label: T.city, required: true },
  ];

export function ProfileForm({ actor }: { actor: OrganizationProfileRef }) {
  const form = useSelector(actor, selectForm);
  const errors = useSelector(actor, selectVisibleErrors);
  const saving = useSelector(actor, selectIsSaving);
  const editor = useSelector(actor, selectContactEditor);
  if (!form) return null;
  const change = (values: Record<string, unknown>) => actor.send({ type: 'form.change', values });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'form.submit' });
  };
  const contactErrors = Object.entries(errors).filter(([field]) => field.startsWith('additionalContacts'));

  return (
    <form noValidate onSubmit={submit} aria-label={T.updateProfile} className="flex flex-col gap-6">
      <fieldset disabled={saving} className="grid gap-4 sm:grid-cols-2">
        <legend className="sr-only">{T.updateProfile}</legend>
        {TEXT_FIELDS.slice(0, 2).map(({ field, label, required, type }) => (
          <FormField key={field} id={profileFieldId(field)} label={label} required={required} error={errors[field]}>
            {(control) => (
              <input
                {...control}
                type={type ?? 'text'}
                className={CONTROL_CLASS}
                value={form[field]}
                onChange={(e) => change({ [field]: e.target.value })}
              />
            )}
          </FormField>
        ))}
        <PhoneField
          id={profileFieldId('phone')}
          label={T.phone}
          required
          value={form.phone}
          error={errors.phone}
          onChange={(phone) => change({ phone })}
        />
        <FormField id={profileFieldId('url')} label={T.url} error={errors.url}>
          {(control) => (
            <input {...control} type="url" className={CONTROL_CLASS} value={form.url} onChange={(e) => change({ url: e.target.value })} />
          )}
        </FormField>
        {TEXT_FIELDS.slice(2).map(({ field, label, required }) => (
          <FormField key={field} id={profileFieldId(field)} label={label} required={required} error={errors[field]}>
            {(control) => (
              <input
                {...control}
                type="text"
                className={CONTROL_CLASS}
                value={form[field]}
                onChange={(e) => change({ [field]: e.target.value })}
              />
            )}
          </FormField>
        ))}
        <FormField id={profileFieldId('state')} label={T.state} required error={errors.state}>
          {(control) => (
            <select {...control} className={CONTROL_CLASS} value={form.state} onChange={(e) => change({ state: e.target.value })}>
              <option value="">Select…</option>
              {US_STATES.map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField id={profileFieldId('zip')} label={T.zip} required error={errors.zip}>
          {(control) => (
            <input
              {...control}
              type="text"
              inputMode="numeric"
              maxLength={10}
              className={CONTROL_CLASS}
              value={form.zip}
              onChange={(e) => change({ zip: e.target.value })}
            />
          )}
        </FormField>
      </fieldset>

      <section aria-labelledby="profile-contacts-heading" className="flex flex-col gap-3">
        <h2 id="profile-contacts-heading" className="text-lg font-semibold text-slate-900">
          {T.additionalContacts}
        </h2>
        {contactErrors.length > 0 && (
          <div id={CONTACTS_ERROR_ID} tabIndex={-1} role="alert" className="text-sm text-red-800">
            {contactErrors.map(([field, message]) => (
              <p key={field}>{`Contact ${Number(field.split('.')[1]) + 1}: ${message}`}</p>
            ))}
          </div>
        )}
        {form.contacts.length === 0 ? (
          <p className="text-slate-600">{T.noContacts}</p>
        ) : (
          <ContactsTable
            contacts={form.contacts.map(contactBodyOf)}
            actions={(index) => {
              const name = form.contacts[index]?.name ?? '';
              return (
                <div className="flex gap-3">
                  <button
                    type="button"
                    className={LINK_BUTTON}
                    disabled={saving || editor !== null}
                    onClick={() => actor.send({ type: 'contact.edit', index })}
                  >
                    <span aria-hidden="true">Edit</span>
                    <span className="sr-only">{T.editContact(name)}</span>
                  </button>
                  <button
                    type="button"
                    className={LINK_BUTTON}
                    disabled={saving || editor !== null}
                    onClick={() => actor.send({ type: 'contact.remove', index })}
                  >
                    <span aria-hidden="true">Remove</span>
                    <span className="sr-only">{T.removeContact(name)}</span>
                  </button>
                </div>
              );
            }}
          />
        )}
        {editor ? (
          <ContactEditor actor={actor} />
        ) : (
          <div>
            <button
              id={ADD_CONTACT_ID}
              type="button"
              className={SECONDARY_BUTTON}
              disabled={saving}
              onClick={() => actor.send({ type: 'contact.add' })}
            >
              {T.addContact}
            </button>
          </div>
        )}
      </section>

      <div className="flex gap-3">
        <button type="submit" className={PRIMARY_BUTTON} disabled={saving || editor !== null} aria-busy={saving}>
          {saving ? T.saving : T.save}
        </button>
        <button type="button" className={SECONDARY_BUTTON} disabled={saving} onClick={() => actor.send({ type: 'form.cancel' })}>
          {T.cancel}
        </button>
      </div>
    </form>
  );
}

/** The contact editor: SPEC section 5's Contact edit rules before the contact joins the list. */
function ContactEditor({ actor }: { actor: OrganizationProfileRef }) {
  const editor = useSelector(actor, selectContactEditor);
  const errors = useSelector(actor, selectContactErrors);
  if (!editor) return null;
  const change = (values: Record<string, unknown>) => actor.send({ type: 'contact.change', values });
  const title = editor.index === null ? T.addContact : T.editContact(editor.form.name);
  return (
    <div
      role="group"
      aria-labelledby="profile-contact-editor-title"
      className="flex flex-col gap-4 rounded-lg border border-slate-300 bg-slate-50 p-4"
      onKeyDown={(event) => {
        if (event.key === 'Escape') actor.send({ type: 'contact.cancel' });
      }}
    >
      <h3 id="profile-contact-editor-title" className="font-semibold text-slate-900">
        {title}
      </h3>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id={contactFieldId('type')} label={T.contactType} required error={errors.type}>
          {(control) => (
            <select
              {...control}
              className={CONTROL_CLASS}
              value={editor.form.type}
              onChange={(e) => change({ type: e.target.value as ContactType })}
            >
              {CONTACT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {CONTACT_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField id={contactFieldId('name')} label={T.contactName} required error={errors.name}>
          {(control) => (
            <input
              {...control}
              type="text"
              className={CONTROL_CLASS}
              value={editor.form.name}
              onChange={(e) => change({ name: e.target.value })}
            />
          )}
        </FormField>
        <PhoneField
          id={contactFieldId('phone')}
          label={T.phone}
          required
          value={editor.form.phone}
          error={errors.phone}
          onChange={(phone) => change({ phone })}
        />
        <FormField id={contactFieldId('email')} label={T.email} required error={errors.email}>
          {(control) => (
            <input
              {...control}
              type="email"
              className={CONTROL_CLASS}
              value={editor.form.email}
              onChange={(e) => change({ email: e.target.value })}
            />
          )}
        </FormField>
      </div>
      <div className="flex gap-3">
        <button type="button" className={PRIMARY_BUTTON} onClick={() => actor.send({ type: 'contact.save' })}>
          {T.saveContact}
        </button>
        <button type="button" className={SECONDARY_BUTTON} onClick={() => actor.send({ type: 'contact.cancel' })}>
          {T.cancel}
        </button>
      </div>
    </div>
  );
}
