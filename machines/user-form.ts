// The user form of /administration/organizations/:organizationUuid/users/new and
// .../users/:userUuid (SPEC sections 4, 5 and 8): form, review, confirm, then save. Adding, the
// form invites a new person (name, email, roles: the rules of src/contract/organization-users.ts,
// which the server applies too) or, in 'Add existing user' mode, adds a registry user found by
// name or email (suggestions after more than 2 typed characters, 500 ms after the last one, at
// most 10; choosing one fills the read-only name fields). Editing, only the roles change (a
// member's hidden roles are kept). The review lists what will be saved; a failure says
// 'Something went wrong' there (with the server's reason for a refused change), and a refused
// add also shows the response body as a toast. A new person's invitation link is shown, with
// Copy link, before going back to the list.
import { and, assertEvent, assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { isHttpError, isNotFound } from '../src/contract/http-error';
import {
  newOrganizationUserSchema,
  organizationRolesSchema,
  type AddedUser,
  type OrganizationUser,
} from '../src/contract/organization-users';
import type { User } from '../src/contract/users';
import { SEARCH_DEBOUNCE_MS } from '../src/domain/constants';
import type { OrganizationUserRole } from '../src/domain/roles';
import {
  isAssignableRole,
  ORGANIZATION_USERS_TEXTS,
  rolesToSave,
  USER_FORM_TEXTS,
  USER_SEARCH_MIN_LENGTH,
} from '../src/domain/organization-users';
import { USER_TEXTS } from '../src/domain/administration-texts';
import { toastShow } from './toasts';

export type UserFormMode = 'new' | 'existing' | 'edit';
export const USER_TEXT_FIELDS = ['firstName', 'middleName', 'lastName', 'email'] as const;
export type UserTextField = (typeof USER_TEXT_FIELDS)[number];
export type UserFormField = UserTextField | 'roles' | 'search';
export type UserFormErrors = Partial<Record<UserFormField, string>>;

export interface UserDraft {
  readonly firstName: string;
  readonly middleName: string;
  readonly lastName: string;
  readonly email: string;
  /** The assignable roles chosen in the picker. */
  readonly roles: readonly OrganizationUserRole[];
}

export const EMPTY_USER_DRAFT: UserDraft = { firstName: '', middleName: '', lastName: '', email: '', roles: [] };

export interface UserFormInput {
  readonly participantId: string;
  /** Adding ('new', switchable to 'existing') or editing a member's roles. */
  readonly mode: 'new' | 'edit';
  /** Editing: the member. */
  readonly userId?: string;
  /** Editing: the member as the list showed it (else it is read). */
  readonly user?: OrganizationUser | null;
}

/** What the save actor is given. */
export interface UserSave {
  readonly mode: UserFormMode;
  readonly participantId: string;
  readonly userId: string | null;
  readonly draft: UserDraft;
  /** Every role to hold (editing: the hidden ones kept). */
  readonly roles: readonly OrganizationUserRole[];
}

export interface UserFormContext {
  readonly mode: UserFormMode;
  readonly participantId: string;
  readonly userId: string | null;
  /** Editing: the member's roles as read (the hidden ones are kept on save). */
  readonly heldRoles: readonly string[];
  readonly draft: UserDraft;
  /** From the first submit on, every field's error shows. */
  readonly showAll: boolean;
  /** 'Add existing user': what is typed in the search, its suggestions, the user chosen. */
  readonly query: string;
  readonly suggestions: readonly User[];
  readonly searchFailed: boolean;
  readonly chosen: User | null;
  /** The server's reason for a refused save (4xx), shown on the review screen. */
  readonly failure: string | null;
  /** A new person's invitation link, once invited. */
  readonly invitationLink: string | null;
}

export type UserFormEvent =
  | { type: 'form.change'; values: Partial<Record<UserTextField, string>> }
  | { type: 'role.toggle'; role: string }
  | { type: 'mode.toggle' }
  | { type: 'search.change'; query: string }
  | { type: 'suggestion.choose'; user: User }
  | { type: 'form.submit' }
  | { type: 'review.back' }
  | { type: 'review.confirm' }
  | { type: 'link.copy' }
  | { type: 'invitation.done' }
  | { type: 'user.reload' };

const firstError = (issues: readonly { path: readonly PropertyKey[]; message: string }[]): UserFormErrors => {
  const errors: UserFormErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '') as UserFormField;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
};

/** Every broken rule of the draft, by field (the contract's messages, SPEC section 5). */
export function userFormErrors(context: Pick<UserFormContext, 'mode' | 'draft' | 'chosen'>): UserFormErrors {
  const { mode, draft, chosen } = context;
  const roles = organizationRolesSchema.safeParse(draft.roles);
  const roleErrors: UserFormErrors = roles.success ? {} : { roles: roles.error.issues[0]?.message ?? USER_TEXTS.rolesRequired };
  if (mode === 'edit') return roleErrors;
  if (mode === 'existing') return { ...(chosen ? {} : { search: USER_FORM_TEXTS.chooseUser }), ...roleErrors };
  const parsed = newOrganizationUserSchema.safeParse({ ...draft, roles: [...draft.roles] });
  return parsed.success ? {} : firstError(parsed.error.issues);
}

export const visibleUserFormErrors = (context: UserFormContext): UserFormErrors => (context.showAll ? userFormErrors(context) : {});

/** The first field with an error, in form order. */
export function firstInvalidUserField(errors: UserFormErrors): UserFormField | undefined {
  return (['search', ...USER_TEXT_FIELDS, 'roles'] as const).find((field) => errors[field] !== undefined);
}

/** What the server said of a failed save: a 4xx's reason; a 5xx or a lost connection says nothing more. */
const reasonOf = (error: unknown): string | null =>
  isHttpError(error) && error.status >= 400 && error.status < 500 ? error.serverMessage || null : null;

/** A refused add's response body, as SPEC section 8's toast shows it. */
export const addFailureToast = (error: unknown): string =>
  isHttpError(error) ? error.serverMessage || `${error.status}` : USER_FORM_TEXTS.somethingWentWrong;

const assignableOf = (roles: readonly string[]) => roles.filter(isAssignableRole) as OrganizationUserRole[];

const draftOfUser = (user: User): UserDraft => ({
  firstName: user.firstName,
  middleName: user.middleName ?? '',
  lastName: user.lastName,
  email: user.email,
  roles: [],
});

export const userFormMachine = setup({
  types: {
    input: {} as UserFormInput,
    context: {} as UserFormContext,
    events: {} as UserFormEvent,
  },
  delays: { searchDebounce: SEARCH_DEBOUNCE_MS },
  actors: {
    // Provided by the screen: GET v2 /participants/{participantId}/users/{userId}.
    loadUser: fromPromise<OrganizationUser, { participantId: string; userId: string }>(async () => {
      throw new Error('loadUser is provided by the screen');
    }),
    // Provided by the screen: GET v2 /users?query=...&limit=10.
    searchUsers: fromPromise<readonly User[], { query: string }>(async () => {
      throw new Error('searchUsers is provided by the screen');
    }),
    // Provided by the screen: the link to the clipboard.
    copyLink: fromPromise<void, { link: string }>(async () => {
      throw new Error('copyLink is provided by the screen');
    }),
    // Provided by the screen: POST .../users (new), POST v2 /users/{userId}/participants (existing) or PUT .../users/{userId} (edit).
    saveUser: fromPromise<AddedUser | null, UserSave>(async () => {
      throw new Error('saveUser is provided by the screen');
    }),
  },
  guards: {
    hasUser: ({ context }) => context.mode !== 'edit' || context.draft.email !== '',
    isValid: ({ context }) => Object.keys(userFormErrors(context)).length === 0,
    isAdding: ({ context }) => context.mode !== 'edit',
    namesEditable: ({ context }) => context.mode === 'new',
    isExisting: ({ context }) => context.mode === 'existing',
    isSearchQuery: ({ event }) => event.type === 'search.change' && event.query.trim().length >= USER_SEARCH_MIN_LENGTH,
    isInvitation: ({ event }) => 'output' in event && (event.output as AddedUser | null)?.invitationLink != null,
  },
  actions: {
    keepUser: assign(({ event }) => {
      const user = (event as unknown as { output: OrganizationUser }).output;
      return {
        heldRoles: user.roles,
        draft: { ...draftOfUser(user), roles: assignableOf(user.roles) },
      };
    }),
    applyChange: assign(({ context, event }) => {
      assertEvent(event, 'form.change');
      const values = Object.fromEntries(Object.entries(event.values).filter(([, value]) => value !== undefined));
      return { draft: { ...context.draft, ...values } };
    }),
    toggleRole: assign(({ context, event }) => {
      assertEvent(event, 'role.toggle');
      if (!isAssignableRole(event.role)) return {};
      const role = event.role as OrganizationUserRole;
      const roles = context.draft.roles.includes(role)
        ? context.draft.roles.filter((held) => held !== role)
        : [...context.draft.roles, role];
      return { draft: { ...context.draft, roles } };
    }),
    /** New person <-> existing user: the names and the search start over; the roles stay. */
    toggleMode: assign(({ context }) => ({
      mode: context.mode === 'new' ? ('existing' as const) : ('new' as const),
      draft: { ...EMPTY_USER_DRAFT, roles: context.draft.roles },
      query: '',
      suggestions: [],
      searchFailed: false,
      chosen: null,
    })),
    /** Typing in the search drops the user chosen before (the fields no longer name them). */
    keepQuery: assign(({ context, event }) => {
      assertEvent(event, 'search.change');
      return { query: event.query, chosen: null, draft: { ...EMPTY_USER_DRAFT, roles: context.draft.roles } };
    }),
    clearSuggestions: assign({ suggestions: [], searchFailed: false }),
    keepSuggestions: assign(({ event }) => ({
      suggestions: (event as unknown as { output: readonly User[] }).output,
      searchFailed: false,
    })),
    keepSearchFailed: assign({ suggestions: [], searchFailed: true }),
    chooseUser: assign(({ context, event }) => {
      assertEvent(event, 'suggestion.choose');
      return {
        chosen: event.user,
        query: event.user.fullName,
        suggestions: [],
        searchFailed: false,
        draft: { ...draftOfUser(event.user), roles: context.draft.roles },
      };
    }),
    showAllErrors: assign({ showAll: true }),
    keepFailure: assign(({ event }) => ({ failure: reasonOf((event as unknown as { error: unknown }).error) })),
    /** A member not found says so; any other failure says the member could not be loaded. */
    keepLoadFailure: assign(({ event }) => ({
      failure: isNotFound((event as unknown as { error: unknown }).error) ? USER_TEXTS.notMember : null,
    })),
    clearFailure: assign({ failure: null }),
    keepLink: assign(({ event }) => ({
      invitationLink: (event as unknown as { output: AddedUser }).output.invitationLink,
    })),
    /** Provided by the screen: the focus to an element of the step shown (a field, the review, the link). */
    focus: (_, _params: { target: UserFormField | 'review' | 'failure' | 'invitation' | undefined }) => undefined,
    // The app's toasts actor (machines/app-root.ts): the form runs as a child of the root.
    notifySaved: sendTo(
      ({ system }) => system.get('toasts'),
      ({ context }) =>
        toastShow(
          'success',
          context.mode === 'edit'
            ? USER_TEXTS.rolesUpdated
            : context.mode === 'existing'
              ? USER_TEXTS.existingUserAdded
              : USER_TEXTS.newUserAdded,
        ),
    ),
    /** SPEC section 8: a user-add error shows the response body as a toast (6 seconds, the toasts' timeout). */
    notifyAddFailed: sendTo(
      ({ system }) => system.get('toasts'),
      ({ event }) => toastShow('error', addFailureToast((event as unknown as { error: unknown }).error)),
    ),
    notifyCopied: sendTo(({ system }) => system.get('toasts'), toastShow('success', ORGANIZATION_USERS_TEXTS.linkCopied)),
    notifyCopyFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', ORGANIZATION_USERS_TEXTS.copyFailed)),
    /** Provided by the screen: back to the organization's users. */
    goToList: () => undefined,
  },
}).createMachine({
  id: 'userForm',
  context: ({ input }) => ({
    mode: input.mode,
    participantId: input.participantId,
    userId: input.userId ?? null,
    heldRoles: input.user?.roles ?? [],
    draft: input.user ? { ...draftOfUser(input.user), roles: assignableOf(input.user.roles) } : EMPTY_USER_DRAFT,
    showAll: false,
    query: '',
    suggestions: [],
    searchFailed: false,
    chosen: null,
    failure: null,
    invitationLink: null,
  }),
  initial: 'starting',
  states: {
    /** Editing a member the list did not hand over: it is read first. */
    starting: {
      always: [{ guard: 'hasUser', target: 'editing' }, { target: 'loading' }],
    },
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadUser',
        input: ({ context }) => ({ participantId: context.participantId, userId: context.userId ?? '' }),
        onDone: { target: 'editing', actions: 'keepUser' },
        onError: { target: 'loadFailed', actions: 'keepLoadFailure' },
      },
    },
    loadFailed: {
      on: { 'user.reload': { target: 'loading', actions: 'clearFailure' } },
    },
    editing: {
      id: 'editing',
      on: {
        'form.change': { guard: 'namesEditable', actions: 'applyChange' },
        'role.toggle': { actions: 'toggleRole' },
        'mode.toggle': { guard: 'isAdding', target: '.idle', actions: ['toggleMode', 'clearSuggestions'] },
        'search.change': [
          { guard: and(['isExisting', 'isSearchQuery']), target: '.debouncing', actions: 'keepQuery' },
          { guard: 'isExisting', target: '.idle', actions: ['keepQuery', 'clearSuggestions'] },
        ],
        'suggestion.choose': { guard: 'isExisting', target: '.idle', actions: 'chooseUser' },
        'form.submit': [
          { guard: 'isValid', target: 'reviewing' },
          {
            actions: [
              'showAllErrors',
              { type: 'focus', params: ({ context }) => ({ target: firstInvalidUserField(userFormErrors(context)) }) },
            ],
          },
        ],
      },
      // 'Add existing user': the suggestions for what is typed.
      initial: 'idle',
      states: {
        idle: {},
        debouncing: {
          after: { searchDebounce: 'searching' },
        },
        searching: {
          tags: ['searching'],
          invoke: {
            src: 'searchUsers',
            input: ({ context }) => ({ query: context.query.trim() }),
            onDone: { target: 'idle', actions: 'keepSuggestions' },
            onError: { target: 'idle', actions: 'keepSearchFailed' },
          },
        },
      },
    },
    /** What will be saved, read-only: Edit goes back, Confirm saves. */
    reviewing: {
      entry: { type: 'focus', params: { target: 'review' } },
      on: {
        'review.back': 'editing',
        'review.confirm': 'saving',
      },
    },
    saving: {
      tags: ['busy'],
      entry: 'clearFailure',
      invoke: {
        src: 'saveUser',
        input: ({ context }) => ({
          mode: context.mode,
          participantId: context.participantId,
          userId: context.mode === 'existing' ? (context.chosen?.userId ?? null) : context.userId,
          draft: context.draft,
          roles: context.mode === 'edit' ? rolesToSave(context.draft.roles, context.heldRoles) : [...context.draft.roles],
        }),
        onDone: [{ guard: 'isInvitation', target: 'invited', actions: 'keepLink' }, { target: 'saved' }],
        onError: [
          { guard: 'isAdding', target: 'failed', actions: ['keepFailure', 'notifyAddFailed'] },
          { target: 'failed', actions: 'keepFailure' },
        ],
      },
    },
    /** The review again, with 'Something went wrong' (and the server's reason): Confirm tries again. */
    failed: {
      entry: { type: 'focus', params: { target: 'failure' } },
      on: {
        'review.back': { target: 'editing', actions: 'clearFailure' },
        'review.confirm': 'saving',
      },
    },
    /** A new person was invited: the link to hand over (Copy link), then back to the list. */
    invited: {
      entry: ['notifySaved', { type: 'focus', params: { target: 'invitation' } }],
      on: { 'invitation.done': { target: 'done' } },
      initial: 'shown',
      states: {
        shown: { on: { 'link.copy': 'copying' } },
        copying: {
          invoke: {
            src: 'copyLink',
            input: ({ context }) => ({ link: context.invitationLink ?? '' }),
            onDone: { target: 'shown', actions: 'notifyCopied' },
            onError: { target: 'shown', actions: 'notifyCopyFailed' },
          },
        },
      },
    },
    saved: {
      type: 'final',
      entry: ['notifySaved', 'goToList'],
    },
    done: {
      type: 'final',
      entry: 'goToList',
    },
  },
});

export type UserFormSnapshot = SnapshotFrom<typeof userFormMachine>;

export const selectMode = (snapshot: UserFormSnapshot): UserFormMode => snapshot.context.mode;
export const selectDraft = (snapshot: UserFormSnapshot): UserDraft => snapshot.context.draft;
export const selectVisibleErrors = (snapshot: UserFormSnapshot): UserFormErrors => visibleUserFormErrors(snapshot.context);
export const selectQuery = (snapshot: UserFormSnapshot): string => snapshot.context.query;
export const selectSuggestions = (snapshot: UserFormSnapshot): readonly User[] => snapshot.context.suggestions;
export const selectSearchFailed = (snapshot: UserFormSnapshot): boolean => snapshot.context.searchFailed;
export const selectIsSearching = (snapshot: UserFormSnapshot): boolean => snapshot.hasTag('searching');
/** A search has answered for what is typed (the 'No users found.' text needs one). */
export const selectSearchAnswered = (snapshot: UserFormSnapshot): boolean =>
  snapshot.matches({ editing: 'idle' }) && snapshot.context.query.trim().length >= USER_SEARCH_MIN_LENGTH && !snapshot.context.chosen;
export const selectChosen = (snapshot: UserFormSnapshot): User | null => snapshot.context.chosen;
export const selectStep = (snapshot: UserFormSnapshot): 'loading' | 'loadFailed' | 'form' | 'review' | 'invited' | 'done' => {
  if (snapshot.matches('loading') || snapshot.matches('starting')) return 'loading';
  if (snapshot.matches('loadFailed')) return 'loadFailed';
  if (snapshot.matches('editing')) return 'form';
  if (snapshot.matches('reviewing') || snapshot.matches('saving') || snapshot.matches('failed')) return 'review';
  if (snapshot.matches('invited')) return 'invited';
  return 'done';
};
export const selectIsSaving = (snapshot: UserFormSnapshot): boolean => snapshot.hasTag('busy');
export const selectHasFailed = (snapshot: UserFormSnapshot): boolean => snapshot.matches('failed') || snapshot.matches('loadFailed');
export const selectFailure = (snapshot: UserFormSnapshot): string | null => snapshot.context.failure;
export const selectInvitationLink = (snapshot: UserFormSnapshot): string | null => snapshot.context.invitationLink;
/** Editing: the roles the member holds that the picker does not show (kept as they are). */
export const selectHiddenRoles = (snapshot: UserFormSnapshot): readonly string[] =>
  snapshot.context.heldRoles.filter((role) => !isAssignableRole(role));
