// @vitest-environment jsdom
// Model-based test of the organization-form machine through /administration/organizations/- (add)
// and /administration/organizations/:organizationUuid (edit): every transition walked on the
// rendered form by typing, reviewing, confirming and answering the dialog, over a fake API whose
// organization calls the test settles.
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { organizationFormMachine } from '../../machines/organization-form';
import type { HttpError } from '../../src/contract/http-error';
import { ORGANIZATION_TEXT_FIELDS, type OrganizationTextField } from '../../src/contract/organizations';
import type { Participant } from '../../src/contract/participants';
import { APP_PATHS } from '../../src/domain/app-paths';
import { ORGANIZATION_TEXTS as T } from '../../src/domain/administration-texts';
import { organizationFieldId } from '../../src/web/screens/organizations/organizations-actors';
import { createModelWalker } from '../machines/support/model-coverage';
import { NEW_ID, addWalk, serverError, stored, walk } from '../machines/walks/organization-form';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';

const addWalker = createModelWalker(organizationFormMachine, addWalk);
const editWalker = createModelWalker(organizationFormMachine, walk);

const user = userEvent.setup();
const control = (field: string) => document.getElementById(organizationFieldId(field as OrganizationTextField)) as HTMLInputElement;

async function fill(values: Partial<Record<OrganizationTextField, string>>) {
  for (const field of ORGANIZATION_TEXT_FIELDS) {
    const value = values[field];
    if (value === undefined) continue;
    const element = control(field);
    if (element instanceof HTMLSelectElement) await user.selectOptions(element, value);
    else {
      await user.clear(element);
      element.focus();
      // The phone field takes digits.
      await user.paste(field === 'phoneNumber' ? value.replace(/\D/g, '') : value);
    }
  }
}

beforeAll(async () => {
  // The id the add form makes (crypto.randomUUID), known to the test.
  vi.spyOn(crypto, 'randomUUID').mockReturnValue(NEW_ID);
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/organizations/organization-form-screen'),
    import('../../src/web/screens/organizations/organizations-screen'),
  ]);
});

async function openForm(organizationId: string | null) {
  const app = await renderSignedIn([sampleOrganization(1, true)]);
  const calls = deferProductCalls(app.fake.api, [
    'organization',
    'createOrganization',
    'updateOrganization',
    'setOrganizationActive',
    'listOrganizations',
  ]);
  await act(() => app.router.navigate(organizationId ? APP_PATHS.organization(organizationId) : APP_PATHS.newOrganization));
  await screen.findByRole('heading', { level: 1, name: organizationId ? T.editTitle : T.addTitle });
  return { app, calls };
}

/** The toasts shown (successes in the polite list, errors as alerts). */
const toastTexts = () => [screen.getByRole('region', { name: 'Notifications' }).textContent ?? ''];
const expectToast = (text: string) => waitFor(() => expect(toastTexts()[0]).toContain(text));

for (const [mode, walker] of [
  ['add', addWalker],
  ['edit', editWalker],
] as const) {
  describe(`organization-form machine (${mode}), driven through the form`, () => {
    afterEach(cleanup);

    for (const path of walker.paths) {
      it(path.description, async () => {
        const { app, calls } = await openForm(mode === 'add' ? null : stored.id);
        await path.test({
          states: {
            loading: () => expect(screen.getByText(T.loadingOrganization)).toBeInTheDocument(),
            notFound: async () => {
              expect(await screen.findByRole('heading', { level: 1, name: T.notFoundTitle })).toBeInTheDocument();
              expect(screen.getByRole('link', { name: T.backToList })).toHaveAttribute('href', APP_PATHS.organizations);
            },
            loadFailed: async () => {
              expect(await screen.findByRole('alert')).toHaveTextContent(T.loadFailed);
            },
            editing: async ({ context }) => {
              const review = await screen.findByRole('button', { name: T.review });
              expect(review).toBeEnabled();
              const idField = screen.getByRole('textbox', { name: T.id });
              expect(idField).toHaveAttribute('readonly');
              expect(idField).toHaveValue(context.id);
              if (context.organization?.isActive === false) expect(screen.getByText(T.inactiveNotice)).toBeInTheDocument();
              else expect(screen.queryByText(T.inactiveNotice)).not.toBeInTheDocument();
            },
            reviewing: async ({ context }) => {
              expect(await screen.findByRole('heading', { level: 2, name: T.reviewTitle })).toBeInTheDocument();
              expect(screen.getByText(context.id)).toBeInTheDocument();
              expect(screen.getByRole('button', { name: T.confirm })).toBeEnabled();
              expect(screen.queryByText(T.somethingWentWrong)).not.toBeInTheDocument();
            },
            saving: async () => {
              await waitFor(() => expect(screen.getByRole('button', { name: T.saving })).toBeDisabled());
            },
            failed: async () => {
              expect(await screen.findByRole('alert')).toHaveTextContent(T.somethingWentWrong);
              expect(screen.getByRole('button', { name: T.confirm })).toBeEnabled();
            },
            offeringUsers: async () => {
              expect(await screen.findByRole('heading', { name: T.createdDialogTitle })).toBeInTheDocument();
              expect(screen.getByRole('button', { name: T.addUsers })).toBeInTheDocument();
              expect(screen.getByRole('button', { name: T.later })).toBeInTheDocument();
            },
            saved: async () => {
              await waitFor(() => expect(app.location().pathname).not.toMatch(/\/administration\/organizations\/[^/]+$/));
              if (mode === 'edit') await expectToast(T.updated);
            },
            reactivating: async () => {
              await waitFor(() => expect(screen.getByRole('button', { name: T.reactivating })).toBeDisabled());
            },
          },
          events: {
            'form.change': async ({ event }) => {
              const { values } = event as unknown as { values: Partial<Record<OrganizationTextField, string>> };
              await fill(values);
            },
            'form.powerOfAttorney': async () => {
              const box = screen.getByRole('checkbox', { name: T.powerOfAttorney });
              const was = (box as HTMLInputElement).checked;
              await user.click(box);
              expect(box).toHaveProperty('checked', !was);
            },
            'form.review': async ({ state }) => {
              await user.click(screen.getByRole('button', { name: T.review }));
              if (Object.keys(state.context.errors).length > 0) {
                // Refused by the rules: the first invalid field gets the focus, its error tied to it.
                await waitFor(() => expect(document.activeElement?.getAttribute('aria-invalid')).toBe('true'));
                expect(document.activeElement).toHaveAccessibleDescription(expect.stringMatching(/\S/));
              }
            },
            'review.back': async () => {
              await user.click(screen.getByRole('button', { name: T.backToForm }));
              if (calls.calls(mode === 'add' ? 'createOrganization' : 'updateOrganization').length > 0) {
                // After a 400 naming the code: its text under the field, and the focus there.
                const refused = (await screen.findByRole('button', { name: T.review })) && control('code');
                if (refused.getAttribute('aria-invalid') === 'true') {
                  expect(refused).toHaveAccessibleDescription(expect.stringContaining(T.codeLength));
                }
              }
            },
            'review.confirm': () => user.click(screen.getByRole('button', { name: T.confirm })),
            'load.retry': () => user.click(screen.getByRole('button', { name: 'Try again' })),
            'organization.reactivate': () => user.click(screen.getByRole('button', { name: T.reactivate })),
            'dialog.addUsers': async () => {
              await user.click(screen.getByRole('button', { name: T.addUsers }));
              await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.newOrganizationUser(NEW_ID)));
            },
            'dialog.later': async () => {
              await user.click(screen.getByRole('button', { name: T.later }));
              await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.organizations));
            },
            'done: loadOrganization': async ({ event }) => {
              const { output } = event as unknown as { output: Participant };
              await calls.settle('organization', { value: output });
              await screen.findByRole('button', { name: T.review });
            },
            'error: loadOrganization': async ({ event }) => {
              const { error } = event as unknown as { error: HttpError };
              await calls.settle('organization', { error });
            },
            'done: saveOrganization': async ({ event, state }) => {
              const { output } = event as unknown as { output: Participant };
              const call = mode === 'add' ? 'createOrganization' : 'updateOrganization';
              const [sentId, draft] = calls.calls(call).at(-1) ?? [];
              expect(sentId).toBe(mode === 'add' ? NEW_ID : stored.id);
              expect(draft).toEqual(state.context.draft);
              await calls.settle(call, { value: output });
            },
            'error: saveOrganization': async ({ event }) => {
              const { error } = event as unknown as { error: HttpError };
              await calls.settle(mode === 'add' ? 'createOrganization' : 'updateOrganization', { error });
            },
            'done: reactivateOrganization': async () => {
              expect(calls.calls('setOrganizationActive').at(-1)).toEqual([stored.id, true, expect.anything()]);
              await calls.settle('setOrganizationActive', { value: stored });
              await expectToast(T.reactivated);
            },
            'error: reactivateOrganization': async () => {
              await calls.settle('setOrganizationActive', { error: serverError });
              await expectToast(T.reactivateFailed);
            },
          },
        });
      });
    }

    it('walks every transition and asserts every state', () => {
      walker.expectFullCoverage();
      walker.expectEveryStateAsserted({
        ignore: mode === 'add' ? ['starting', 'loading', 'notFound', 'loadFailed', 'reactivating'] : ['starting', 'offeringUsers'],
      });
    });
  });
}

describe('organization form', () => {
  afterEach(cleanup);

  it('marks the required fields, offers the 55 state codes, and shows the made id read-only', async () => {
    await openForm(null);
    const required = [...document.querySelectorAll('[aria-required="true"]')].map((element) => element.id);
    expect(required).toEqual(
      [
        'code',
        'participantName',
        'organizationName',
        'email',
        'phoneNumber',
        'address.street',
        'address.city',
        'address.state',
        'address.zip',
      ].map((field) => organizationFieldId(field as OrganizationTextField)),
    );
    const states = screen.getByRole('combobox', { name: T.state }).querySelectorAll('option');
    // The 55 codes and the empty choice.
    expect(states).toHaveLength(56);
    expect(screen.getByRole('textbox', { name: T.id })).toHaveValue(NEW_ID);
    expect(screen.getByRole('textbox', { name: T.id })).toHaveAttribute('readonly');
  });

  it("keeps the phone field's digits and shows them as (###) ###-####", async () => {
    await openForm(null);
    await fill({ phoneNumber: '4155550142' });
    expect(control('phoneNumber')).toHaveValue('(415) 555-0142');
  });
});
