import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  organizationProfileMachine,
  selectCanEdit,
  selectContactEditor,
  selectContactErrors,
  selectForm,
  selectIsEditing,
  selectIsSaving,
  selectLoadFailed,
  selectProfile,
  selectVisibleErrors,
  type LoadedProfile,
} from '../../machines/organization-profile';
import { HttpError } from '../../src/contract/http-error';
import type { ProfileInfo } from '../../src/contract/participants';
import type { ProfileDraft } from '../../src/contract/profile';
import { PROFILE_TEXTS as T } from '../../src/domain/administration-texts';
import { sampleProfile } from '../support/profile-fixtures';

function start(options: { load?: () => Promise<LoadedProfile>; save?: (body: ProfileDraft) => Promise<ProfileInfo> } = {}) {
  const saved: ProfileDraft[] = [];
  const focused: (string | undefined)[] = [];
  const notifySaved = vi.fn();
  const notifyFailed = vi.fn();
  const logic = organizationProfileMachine.provide({
    actors: {
      loadProfile: fromPromise(options.load ?? (async () => ({ profile: sampleProfile(), canEdit: true }))),
      saveProfile: fromPromise(({ input }) => {
        saved.push(input);
        return options.save ? options.save(input) : Promise.resolve(sampleProfile({ name: input.name }));
      }),
    },
    actions: {
      notifySaved,
      notifyFailed,
      focusField: (_, { field }) => void focused.push(field),
      focusContactField: (_, { field }) => void focused.push(`contact:${field}`),
      focusContacts: () => void focused.push('contacts'),
      focusProfile: () => void focused.push('profile'),
    },
  });
  const actor = createActor(logic).start();
  return { actor, saved, focused, notifySaved, notifyFailed };
}

const loaded = async (run: ReturnType<typeof start>) => waitFor(run.actor, (snapshot) => snapshot.matches('viewing'));

describe('organization profile machine', () => {
  it('loads the profile read only; an ORG_ADMIN may edit it, anyone else may not', async () => {
    const admin = start();
    await loaded(admin);
    expect(selectProfile(admin.actor.getSnapshot())?.name).toBe('Harbor Lending');
    expect(selectCanEdit(admin.actor.getSnapshot())).toBe(true);

    const member = start({ load: async () => ({ profile: sampleProfile(), canEdit: false }) });
    await loaded(member);
    expect(selectCanEdit(member.actor.getSnapshot())).toBe(false);
    member.actor.send({ type: 'profile.edit' });
    expect(member.actor.getSnapshot().matches('viewing')).toBe(true);
  });

  it('says a failed load and tries again', async () => {
    let attempts = 0;
    const run = start({
      load: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('offline');
        return { profile: sampleProfile(), canEdit: true };
      },
    });
    await waitFor(run.actor, selectLoadFailed);
    run.actor.send({ type: 'profile.retry' });
    await loaded(run);
    expect(attempts).toBe(2);
  });

  it('edits the form from the profile, phones as the phone field holds them, and saves the PATCH body', async () => {
    const run = start();
    await loaded(run);
    run.actor.send({ type: 'profile.edit' });
    const form = selectForm(run.actor.getSnapshot());
    expect(form?.phone).toEqual({ countryCode: 'US', digits: '4155550100' });
    expect(form?.contacts[0]?.phone).toEqual({ countryCode: 'US', digits: '4155550101' });
    run.actor.send({ type: 'form.change', values: { name: 'Harbor Lending Co', phone: { countryCode: 'US', digits: '4155550199' } } });
    run.actor.send({ type: 'form.submit' });
    expect(selectIsSaving(run.actor.getSnapshot())).toBe(true);
    await loaded(run);
    expect(run.saved[0]).toMatchObject({ name: 'Harbor Lending Co', phoneNumber: '(415) 555-0199', url: 'https://harbor.test' });
    expect(run.saved[0]?.additionalContacts).toEqual([
      { type: 'LEGAL', name: 'Lee Gal', phoneNumber: '(415) 555-0101', email: 'legal@harbor.test' },
    ]);
    expect(run.notifySaved).toHaveBeenCalledTimes(1);
    expect(selectProfile(run.actor.getSnapshot())?.name).toBe('Harbor Lending Co');
    expect(run.focused.at(-1)).toBe('profile');
  });

  it('refuses an invalid form on submit: the errors show, the first invalid field gets the focus', async () => {
    const run = start();
    await loaded(run);
    run.actor.send({ type: 'profile.edit' });
    run.actor.send({ type: 'form.change', values: { name: '', phone: { countryCode: 'US', digits: '415' }, email: 'x' } });
    expect(selectVisibleErrors(run.actor.getSnapshot())).toEqual({});
    run.actor.send({ type: 'form.submit' });
    expect(selectVisibleErrors(run.actor.getSnapshot())).toEqual({
      name: T.contactNameRequired,
      phone: T.invalidPhone,
      email: T.invalidEmail,
    });
    expect(run.focused.at(-1)).toBe('name');
    expect(run.saved).toEqual([]);
    run.actor.send({ type: 'form.change', values: { email: '' } });
    expect(selectVisibleErrors(run.actor.getSnapshot()).email).toBe(T.emailRequired);
  });

  it('adds, edits and removes contacts through the contact editor and its rules', async () => {
    const run = start();
    await loaded(run);
    run.actor.send({ type: 'profile.edit' });
    run.actor.send({ type: 'contact.add' });
    expect(selectContactEditor(run.actor.getSnapshot())?.index).toBeNull();
    expect(run.focused.at(-1)).toBe('contact:type');
    run.actor.send({ type: 'contact.save' });
    expect(selectContactErrors(run.actor.getSnapshot())).toEqual({
      name: T.contactNameRequired,
      phone: T.invalidPhone,
      email: T.emailRequired,
    });
    expect(run.focused.at(-1)).toBe('contact:name');
    run.actor.send({
      type: 'contact.change',
      values: { type: 'CUSTODIAN', name: 'Cody Custody', phone: { countryCode: 'US', digits: '4155550102' }, email: 'cody@harbor.test' },
    });
    run.actor.send({ type: 'contact.save' });
    expect(selectContactEditor(run.actor.getSnapshot())).toBeNull();
    expect(run.focused.at(-1)).toBe('contacts');
    expect(selectForm(run.actor.getSnapshot())?.contacts.map((contact) => contact.name)).toEqual(['Lee Gal', 'Cody Custody']);

    run.actor.send({ type: 'contact.edit', index: 0 });
    run.actor.send({ type: 'contact.change', values: { name: 'Lee Gal Jr' } });
    run.actor.send({ type: 'contact.cancel' });
    expect(selectForm(run.actor.getSnapshot())?.contacts[0]?.name).toBe('Lee Gal');
    run.actor.send({ type: 'contact.edit', index: 0 });
    run.actor.send({ type: 'contact.change', values: { name: 'Lee Gal Jr' } });
    run.actor.send({ type: 'contact.save' });
    expect(selectForm(run.actor.getSnapshot())?.contacts[0]?.name).toBe('Lee Gal Jr');

    run.actor.send({ type: 'contact.remove', index: 0 });
    expect(selectForm(run.actor.getSnapshot())?.contacts.map((contact) => contact.name)).toEqual(['Cody Custody']);
  });

  it("after a failed save: the toast, the form as typed, the server's field errors until the field changes", async () => {
    const refused = new HttpError(
      400,
      JSON.stringify({
        statusCode: 400,
        error: 'Bad Request',
        message: `body.email: ${T.invalidEmail}; body.additionalContacts.0.phoneNumber: ${T.invalidPhone}`,
      }),
    );
    const run = start({ save: async () => Promise.reject(refused) });
    await loaded(run);
    run.actor.send({ type: 'profile.edit' });
    run.actor.send({ type: 'form.change', values: { name: 'Typed Name' } });
    run.actor.send({ type: 'form.submit' });
    await waitFor(run.actor, (snapshot) => snapshot.matches('failed'));
    expect(run.notifyFailed).toHaveBeenCalledTimes(1);
    expect(selectIsEditing(run.actor.getSnapshot())).toBe(true);
    expect(selectForm(run.actor.getSnapshot())?.name).toBe('Typed Name');
    expect(selectVisibleErrors(run.actor.getSnapshot())).toEqual({
      email: T.invalidEmail,
      'additionalContacts.0.phone': T.invalidPhone,
    });
    expect(run.focused.at(-1)).toBe('email');
    run.actor.send({ type: 'form.change', values: { email: 'desk@harbor.test' } });
    expect(run.actor.getSnapshot().matches({ editing: 'form' })).toBe(true);
    expect(selectVisibleErrors(run.actor.getSnapshot())).toEqual({ 'additionalContacts.0.phone': T.invalidPhone });
    run.actor.send({ type: 'contact.remove', index: 0 });
    expect(selectVisibleErrors(run.actor.getSnapshot())).toEqual({});
    run.actor.send({ type: 'form.cancel' });
    expect(run.actor.getSnapshot().matches('viewing')).toBe(true);
    expect(selectProfile(run.actor.getSnapshot())?.name).toBe('Harbor Lending');
  });
});
