// @vitest-environment jsdom
// Model-based test of the organization-profile machine through the signed-in app: every transition
// of its statechart is walked on the rendered /administration/profile screen (Update, typing,
// the contact editor, Save, Cancel), over a fake API whose profile calls the test settles.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { organizationProfileMachine } from '../../machines/organization-profile';
import type { HttpError } from '../../src/contract/http-error';
import type { ProfileInfo } from '../../src/contract/participants';
import type { UsersMe } from '../../src/contract/users';
import { APP_PATHS } from '../../src/domain/app-paths';
import { PROFILE_TEXTS as T } from '../../src/domain/administration-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import type { VALID_CONTACT } from '../machines/walks/organization-profile';
import { emailRefused, profile, savedProfile, serverError, walk } from '../machines/walks/organization-profile';
import { sampleOrganization, sampleUser } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';

const organization = sampleOrganization(1, true);
const usersMe = (canEdit: boolean): UsersMe => ({
  user: { ...sampleUser, roles: canEdit ? ['ORG_ADMIN'] : ['CUSTODIAN'] },
  participant: { ...organization.participant, profileInfo: profile },
});

const walker = createModelWalker(organizationProfileMachine, walk);

const user = userEvent.setup();
const field = (id: string) => document.getElementById(id) as HTMLInputElement;
const form = () => screen.getByRole('form', { name: T.updateProfile });
const editor = () => screen.getByRole('group', { name: /^(Add contact|Edit contact)/ });

async function openProfile() {
  const app = await renderSignedIn([organization]);
  const calls = deferProductCalls(app.fake.api, ['usersMe', 'updateProfile', 'listRelationships']);
  await act(() => app.router.navigate(APP_PATHS.organizationProfile));
  await screen.findByRole('heading', { level: 1, name: T.title });
  await calls.settle('listRelationships', { value: { relationships: [], totalCount: 0 } });
  return { app, calls };
}

async function replace(element: HTMLElement, value: string) {
  await user.clear(element);
  if (value) {
    element.focus();
    await user.paste(value);
  }
}

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/organization-profile/organization-profile-screen'),
  ]);
});

describe('organization-profile machine, driven through /administration/profile', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { calls } = await openProfile();
      await path.test({
        states: {
          loading: () => expect(screen.getByText('Loading the profile…')).toBeInTheDocument(),
          loadFailed: () => expect(screen.getByText(T.loadFailed)).toBeInTheDocument(),
          viewing: async ({ context }) => {
            await screen.findByRole('heading', { level: 2, name: T.additionalContacts });
            expect(screen.queryByRole('form', { name: T.updateProfile })).not.toBeInTheDocument();
            // SPEC section 6: only the organization's ORG_ADMIN is offered Update.
            if (context.canEdit) expect(screen.getByRole('button', { name: T.update })).toBeInTheDocument();
            else expect(screen.queryByRole('button', { name: T.update })).not.toBeInTheDocument();
            // The name as loaded, or as saved (one state of the model: the name is not part of it).
            expect(screen.getByText(/^Harbor Lending( Co)?$/)).toBeInTheDocument();
          },
          // The form shows while editing, the contact editor or not.
          editing: () => expect(form()).toBeInTheDocument(),
          'editing.form': () => {
            expect(form()).toBeInTheDocument();
            expect(screen.queryByRole('group', { name: /^(Add contact|Edit contact)/ })).not.toBeInTheDocument();
            expect(screen.getByRole('button', { name: T.addContact })).toBeEnabled();
          },
          'editing.contact': () => {
            expect(editor()).toBeInTheDocument();
            expect(within(editor()).getByRole('textbox', { name: T.contactName })).toBeInTheDocument();
            expect(screen.getByRole('button', { name: T.save })).toBeDisabled();
          },
          saving: async () => {
            await waitFor(() => expect(screen.getByRole('button', { name: T.saving })).toBeDisabled());
          },
          failed: async () => {
            const region = within(screen.getByRole('region', { name: 'Notifications' }));
            expect((await region.findAllByText(T.updateFailed)).length).toBeGreaterThan(0);
            expect(form()).toBeInTheDocument();
          },
        },
        events: {
          'done: loadProfile': async ({ event }) => {
            const { output } = event as unknown as { output: { canEdit: boolean } };
            await calls.settle('usersMe', { value: usersMe(output.canEdit) });
            await screen.findByRole('heading', { level: 2, name: T.additionalContacts });
          },
          'error: loadProfile': async () => {
            await calls.settle('usersMe', { error: serverError });
            await screen.findByText(T.loadFailed);
          },
          'profile.retry': () => user.click(screen.getByRole('button', { name: 'Try again' })),
          'profile.edit': async () => {
            await user.click(screen.getByRole('button', { name: T.update }));
            await screen.findByRole('form', { name: T.updateProfile });
          },
          'form.change': async ({ event }) => {
            const { values } = event as { values: { name: string } };
            await replace(field('profile-name'), values.name);
            expect(field('profile-name')).toHaveValue(values.name);
          },
          // `state` is where the step leads: still editing means the rules refused the form.
          'form.submit': async ({ state }) => {
            await user.click(screen.getByRole('button', { name: T.save }));
            if (state.matches('editing')) {
              await waitFor(() => expect(field('profile-name')).toHaveAccessibleDescription(T.contactNameRequired));
              await waitFor(() => expect(document.activeElement).toBe(field('profile-name')));
            }
          },
          'form.cancel': () => user.click(within(form()).getAllByRole('button', { name: T.cancel }).at(-1)!),
          'contact.add': async () => {
            await user.click(screen.getByRole('button', { name: T.addContact }));
            await waitFor(() => expect(document.activeElement).toBe(field('profile-contact-type')));
          },
          'contact.edit': () => user.click(screen.getAllByRole('button', { name: /^Edit contact / })[0]!),
          'contact.remove': () => user.click(screen.getAllByRole('button', { name: /^Remove contact / })[0]!),
          'contact.change': async ({ event }) => {
            const { values } = event as { values: Partial<typeof VALID_CONTACT> };
            const group = within(editor());
            if (values.type) await user.selectOptions(group.getByRole('combobox', { name: T.contactType }), values.type);
            if (values.name !== undefined) await replace(group.getByRole('textbox', { name: T.contactName }), values.name);
            if (values.phone) {
              const phone = group.getByRole('textbox', { name: T.phone });
              await user.clear(phone);
              await user.type(phone, values.phone.digits);
              expect(phone).toHaveValue('(415) 555-0102');
            }
            if (values.email) await replace(group.getByRole('textbox', { name: T.email }), values.email);
          },
          'contact.save': async ({ state }) => {
            await user.click(within(editor()).getByRole('button', { name: T.saveContact }));
            // Still in the editor: its rules refused the contact, and the first invalid field has the focus.
            if (state.matches({ editing: 'contact' })) {
              await waitFor(() => expect(document.activeElement).toHaveAttribute('aria-invalid', 'true'));
            } else {
              await waitFor(() => expect(document.activeElement).toBe(field('profile-add-contact')));
            }
          },
          'contact.cancel': async () => {
            await user.click(within(editor()).getByRole('button', { name: T.cancel }));
            await waitFor(() => expect(document.activeElement).toBe(field('profile-add-contact')));
          },
          'done: saveProfile': async () => {
            await calls.settle('updateProfile', { value: savedProfile });
            const region = within(screen.getByRole('region', { name: 'Notifications' }));
            await region.findByText(T.updated);
            await screen.findByText(savedProfile.name);
            const [body] = calls.calls('updateProfile').at(-1) as [ProfileInfo];
            expect(body.phoneNumber).toBe('(415) 555-0100');
          },
          'error: saveProfile': async ({ event }) => {
            const { error } = event as unknown as { error: HttpError };
            await calls.settle('updateProfile', { error });
            if (error === emailRefused) {
              await waitFor(() => expect(field('profile-email')).toHaveAccessibleDescription(T.invalidEmail));
              await waitFor(() => expect(document.activeElement).toBe(field('profile-email')));
            }
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted({ ignore: ['saved'] });
  });
});
