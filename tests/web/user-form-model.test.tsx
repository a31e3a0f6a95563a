// @vitest-environment jsdom
// Model-based test of the user-form machine through the signed-in app: every transition of its
// statechart is walked on the rendered screens, adding (.../users/new: a new person invited, or an
// existing user found through the suggestions) and editing roles (.../users/:userUuid opened
// directly, so the member is read), over a fake API whose calls the test settles.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { userFormErrors, userFormMachine } from '../../machines/user-form';
import { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { ORGANIZATION_USERS_TEXTS, rolesToSave, USER_FORM_TEXTS as T } from '../../src/domain/organization-users';
import { USER_TEXTS } from '../../src/domain/administration-texts';
import { FAILURE_ID, userFieldId } from '../../src/web/screens/organization-users/organization-users-actors';
import { createModelWalker } from '../machines/support/model-coverage';
import { copyRefused, editWalk, emailTaken, found, invited, joined, lastAdmin, member, notMember, walk } from '../machines/walks/user-form';
import { INVITATION_LINK, ORGANIZATION_ID } from '../support/organization-user-fixtures';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { toastTexts } from './support/messages-screen';
import { renderSignedIn } from './support/render-app';

const addWalker = createModelWalker(userFormMachine, walk);

const editWalker = createModelWalker(userFormMachine, editWalk);

const user = userEvent.setup();
const control = (id: string) => document.getElementById(id) as HTMLInputElement;
const reviewHeading = () => screen.queryByRole('heading', { level: 2, name: T.reviewTitle });
const confirmButton = () => screen.getByRole('button', { name: new RegExp(`^(${T.confirm}|${T.tryAgain}|${T.saving})$`) });

/** The clipboard's writes, held until the test settles them. */
function deferClipboard() {
  const writes: { text: string; resolve: () => void; reject: (error: unknown) => void }[] = [];
  const writeText = vi.fn((text: string) => new Promise<void>((resolve, reject) => writes.push({ text, resolve, reject })));
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return {
    writes,
    writeText,
    async settle(error?: unknown) {
      await waitFor(() => expect(writes.length).toBeGreaterThan(0));
      const write = writes.shift();
      if (error) write?.reject(error);
      else write?.resolve();
    },
  };
}

async function openForm(path: string) {
  const app = await renderSignedIn([sampleOrganization(1, true)]);
  const calls = deferProductCalls(app.fake.api, [
    'organizationUser',
    'suggestUsers',
    'addOrganizationUser',
    'addExistingUser',
    'updateUserRoles',
    'organizationUsers',
    'organization',
  ]);
  const clipboard = deferClipboard();
  await act(() => app.router.navigate(path));
  await screen.findByRole('heading', { level: 1 });
  return { app, calls, clipboard };
}

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/organization-users/user-form-screen'),
    import('../../src/web/screens/organization-users/organization-users-screen'),
  ]);
});

function testPaths(walker: typeof addWalker, path: string) {
  for (const modelPath of walker.paths) {
    it(modelPath.description, async () => {
      const { app, calls, clipboard } = await openForm(path);
      await modelPath.test({
        states: {
          loading: () => {
            expect(screen.getByText(T.loading)).toBeInTheDocument();
            expect(screen.getByRole('heading', { level: 1, name: T.editTitle })).toBeInTheDocument();
          },
          loadFailed: async () => {
            const alert = await screen.findByRole('alert');
            expect(alert).toHaveTextContent(USER_TEXTS.notMember);
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
          },
          editing: async (snapshot) => {
            await screen.findByRole('button', { name: T.review });
            const { mode } = snapshot.context;
            const names = [userFieldId('firstName'), userFieldId('lastName'), userFieldId('email')].map(control);
            for (const name of names) {
              if (mode === 'new') expect(name).not.toHaveAttribute('readonly');
              else expect(name).toHaveAttribute('readonly');
            }
            if (mode === 'edit') {
              expect(screen.queryByRole('checkbox', { name: T.addExisting })).not.toBeInTheDocument();
              expect(control(userFieldId('email'))).toHaveValue(member.email);
              expect(screen.getByText(/Also holds Trader/)).toBeInTheDocument();
            } else {
              expect(screen.getByRole('checkbox', { name: T.addExisting })).toHaveProperty('checked', mode === 'existing');
            }
            // The picker offers the five assignable roles, never TRADER or AUDITOR.
            expect(screen.getAllByRole('checkbox').filter((box) => box.id !== 'user-form-existing')).toHaveLength(5);
            expect(screen.queryByRole('checkbox', { name: 'Trader' })).not.toBeInTheDocument();
          },
          'editing.searching': () => {
            expect(screen.getByText(T.searching)).toBeInTheDocument();
          },
          'editing.idle': () => {
            expect(screen.queryByText(T.searching)).not.toBeInTheDocument();
          },
          'editing.debouncing': () => {
            expect(calls.pendingCount('suggestUsers')).toBe(0);
          },
          reviewing: async () => {
            await waitFor(() => expect(document.activeElement).toBe(reviewHeading()));
            expect(confirmButton()).toHaveTextContent(T.confirm);
            expect(screen.queryByRole('alert')).not.toBeInTheDocument();
          },
          saving: async () => {
            await waitFor(() => expect(confirmButton()).toHaveTextContent(T.saving));
            expect(confirmButton()).toHaveAttribute('aria-disabled', 'true');
          },
          failed: async (snapshot) => {
            const alert = await waitFor(() => document.getElementById(FAILURE_ID) as HTMLElement);
            expect(alert).toHaveAttribute('role', 'alert');
            expect(alert).toHaveTextContent(T.somethingWentWrong);
            expect(alert).toHaveTextContent(snapshot.context.mode === 'edit' ? USER_TEXTS.lastAdmin : USER_TEXTS.emailTaken);
            await waitFor(() => expect(document.activeElement).toBe(alert));
            expect(confirmButton()).toHaveTextContent(T.tryAgain);
            // SPEC section 8: a refused add shows the response body as a toast.
            if (snapshot.context.mode !== 'edit') expect(toastTexts()).toContain(USER_TEXTS.emailTaken);
            else expect(toastTexts()).not.toContain(USER_TEXTS.lastAdmin);
          },
          invited: async () => {
            const link = await screen.findByRole('textbox', { name: T.invitationLink });
            expect(link).toHaveValue(INVITATION_LINK);
            // Shown with the focus on the link (Tab reaches Copy link, then Back to users).
            if (clipboard.writeText.mock.calls.length === 0) await waitFor(() => expect(document.activeElement).toBe(link));
            expect(toastTexts()).toContain(USER_TEXTS.newUserAdded);
          },
          'invited.shown': () => {
            expect(screen.getByRole('button', { name: ORGANIZATION_USERS_TEXTS.copyLink })).toBeInTheDocument();
            expect(screen.getByRole('button', { name: T.done })).toBeInTheDocument();
          },
          'invited.copying': () => {
            expect(clipboard.writes.map((write) => write.text)).toEqual([INVITATION_LINK]);
          },
          saved: async (snapshot) => {
            await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.organizationUsers(ORGANIZATION_ID)));
            const text = snapshot.context.mode === 'edit' ? USER_TEXTS.rolesUpdated : USER_TEXTS.existingUserAdded;
            await waitFor(() => expect(toastTexts()).toContain(text));
          },
          done: async () => {
            await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.organizationUsers(ORGANIZATION_ID)));
          },
        },
        events: {
          'done: loadUser': () => calls.settle('organizationUser', { value: member }),
          'error: loadUser': () => calls.settle('organizationUser', { error: notMember }),
          'user.reload': () => user.click(screen.getByRole('button', { name: 'Try again' })),
          'form.change': async ({ event }) => {
            const { values } = event as unknown as { values: Record<string, string> };
            for (const [field, value] of Object.entries(values)) {
              await user.type(control(userFieldId(field as 'firstName')), value);
              expect(control(userFieldId(field as 'firstName'))).toHaveValue(value);
            }
          },
          'role.toggle': async ({ state }) => {
            const box = screen.getByRole('checkbox', { name: 'Custodian' });
            await user.click(box);
            expect(box).toHaveProperty('checked', state.context.draft.roles.includes('CUSTODIAN'));
          },
          'mode.toggle': async () => {
            await user.click(screen.getByRole('checkbox', { name: T.addExisting }));
          },
          'search.change': async ({ event }) => {
            const { query } = event as unknown as { query: string };
            const input = screen.getByRole('combobox', { name: new RegExp(T.search) });
            await user.clear(input);
            await user.type(input, query);
            expect(input).toHaveValue(query);
            // Two characters ask nothing.
            if (query.length < 3) expect(calls.pendingCount('suggestUsers')).toBe(0);
          },
          'after: searchDebounce': () => waitFor(() => expect(calls.pendingCount('suggestUsers')).toBe(1), { timeout: 2000 }),
          'done: searchUsers': async () => {
            const [query] = calls.calls('suggestUsers').at(-1) ?? [];
            // The suggestions call (at most 10), for what was typed.
            expect(query).toBe('ada');
            await calls.settle('suggestUsers', { value: { users: [found] } });
            await screen.findByRole('option', { name: new RegExp(found.fullName) });
          },
          'error: searchUsers': async () => {
            await calls.settle('suggestUsers', { error: new HttpError(503, 'Service Unavailable') });
            await screen.findByText(T.searchFailed);
          },
          // By keyboard: the first suggestion, then Enter.
          'suggestion.choose': async () => {
            const input = screen.getByRole('combobox', { name: new RegExp(T.search) });
            input.focus();
            await user.keyboard('{ArrowDown}');
            await user.keyboard('{Enter}');
            await waitFor(() => expect(control(userFieldId('email'))).toHaveValue(found.email));
            expect(control(userFieldId('firstName'))).toHaveValue(found.firstName);
          },
          'form.submit': async ({ state }) => {
            await user.click(screen.getByRole('button', { name: T.review }));
            if (Object.keys(userFormErrors(state.context)).length === 0) return;
            await waitFor(() => expect(document.querySelectorAll('form [aria-invalid="true"]').length).toBeGreaterThan(0));
            await waitFor(() => expect(document.activeElement).toHaveAttribute('aria-invalid', 'true'));
          },
          'review.back': async () => {
            await user.click(screen.getByRole('button', { name: T.edit }));
            await screen.findByRole('button', { name: T.review });
          },
          'review.confirm': () => user.click(confirmButton()),
          'done: saveUser': async ({ state }) => {
            const { mode } = state.context;
            if (mode === 'new') {
              const [participantId, body] = calls.calls('addOrganizationUser').at(-1) ?? [];
              expect(participantId).toBe(ORGANIZATION_ID);
              expect(body).toEqual({
                firstName: 'Grace',
                middleName: '',
                lastName: 'Hopper',
                email: 'grace@example.test',
                roles: ['CUSTODIAN'],
              });
              await calls.settle('addOrganizationUser', { value: invited });
            } else if (mode === 'existing') {
              const [userId, body] = calls.calls('addExistingUser').at(-1) ?? [];
              expect(userId).toBe(found.userId);
              expect(body).toEqual({ participantId: ORGANIZATION_ID, roles: ['CUSTODIAN'] });
              await calls.settle('addExistingUser', { value: joined.user });
            } else {
              const [, userId, roles] = calls.calls('updateUserRoles').at(-1) ?? [];
              expect(userId).toBe(member.userId);
              // The hidden TRADER is kept.
              expect(roles).toEqual(rolesToSave(state.context.draft.roles, member.roles));
              expect(roles).toContain('TRADER');
              await calls.settle('updateUserRoles', { value: undefined });
            }
          },
          'error: saveUser': async ({ state }) => {
            const { mode } = state.context;
            if (mode === 'new') await calls.settle('addOrganizationUser', { error: emailTaken });
            else if (mode === 'existing') await calls.settle('addExistingUser', { error: emailTaken });
            else await calls.settle('updateUserRoles', { error: lastAdmin });
          },
          'link.copy': () => user.click(screen.getByRole('button', { name: ORGANIZATION_USERS_TEXTS.copyLink })),
          'done: copyLink': async () => {
            await clipboard.settle();
            await waitFor(() => expect(toastTexts()).toContain(ORGANIZATION_USERS_TEXTS.linkCopied));
          },
          'error: copyLink': async () => {
            await clipboard.settle(copyRefused);
            await waitFor(() => expect(toastTexts()).toContain(ORGANIZATION_USERS_TEXTS.copyFailed));
          },
          'invitation.done': () => user.click(screen.getByRole('button', { name: T.done })),
        },
      });
    });
  }
}

describe('user-form machine, adding through .../users/new', () => {
  afterEach(cleanup);
  testPaths(addWalker, APP_PATHS.newOrganizationUser(ORGANIZATION_ID));

  it('walks every transition and asserts every state it reaches', () => {
    addWalker.expectFullCoverage();
    addWalker.expectEveryStateAsserted({ ignore: ['starting', 'loading', 'loadFailed'] });
  });
});

describe('user-form machine, editing roles through .../users/:userUuid', () => {
  afterEach(cleanup);
  testPaths(editWalker, APP_PATHS.organizationUser(ORGANIZATION_ID, member.userId));

  it('walks every transition and asserts every state it reaches', () => {
    editWalker.expectFullCoverage();
    editWalker.expectEveryStateAsserted({
      ignore: ['starting', 'editing.debouncing', 'editing.searching', 'invited', 'invited.shown', 'invited.copying', 'done'],
    });
  });
});

describe('user form screen', () => {
  afterEach(cleanup);
  it('offers the member handed over by the list without reading it', async () => {
    const { app, calls } = await openForm(APP_PATHS.newOrganizationUser(ORGANIZATION_ID));
    await act(() => app.router.navigate(APP_PATHS.organizationUser(ORGANIZATION_ID, member.userId), { state: { user: member } }));
    await screen.findByRole('heading', { level: 1, name: T.editTitle });
    expect(control(userFieldId('email'))).toHaveValue(member.email);
    expect(calls.pendingCount('organizationUser')).toBe(0);
  });
});
