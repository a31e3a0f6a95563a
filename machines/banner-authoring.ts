// The banners screen of the administration (/administration/banners, ours): registry staff's list
// of the banners, and a form (message, apps, variant, active, dismissable), its review and
// confirmation, then the save. The draft is checked with the server's own rules (src/contract/
// banners.ts); a draft the banner file would not take says 'Banner data does not match the
// expected format' (SPEC section 8) over the fields' own messages. A save tells the app-wide
// banners actor to read the file again, so the page shows the banner as saved.
import { assertEvent, assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { bannerInputSchema, type Banner, type BannerInput } from '../src/contract/banners';
import { isHttpError } from '../src/contract/http-error';
import { BANNER_SCREEN_TEXTS as T } from '../src/domain/banner-screen-texts';
import { THIS_BANNER_APP } from '../src/domain/banners';
import { toastShow } from './toasts';

export type BannerField = 'message' | 'apps';
export type BannerErrors = Partial<Record<BannerField, string>>;

export const EMPTY_BANNER_DRAFT: BannerInput = { message: '', apps: [THIS_BANNER_APP], variant: 'info', active: true, dismissable: true };

/** The draft's broken rules, by field (the first message of each). */
export function bannerErrors(draft: BannerInput): BannerErrors {
  const result = bannerInputSchema.safeParse(draft);
  if (result.success) return {};
  const errors: BannerErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0];
    if ((field === 'message' || field === 'apps') && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

export interface BannerSave {
  /** The banner edited; null writes a new one. */
  readonly uuid: string | null;
  readonly input: BannerInput;
}

export interface BannerAuthoringContext {
  readonly banners: readonly Banner[];
  /** The banner being edited (null: a new one). */
  readonly editing: string | null;
  readonly draft: BannerInput;
  /** After a submit of a draft with errors, every field's error shows. */
  readonly showErrors: boolean;
  /** What the server said when the save failed. */
  readonly saveError: string | null;
}

export type BannerAuthoringEvent =
  | { type: 'banner.new' }
  | { type: 'banner.edit'; uuid: string }
  | { type: 'form.change'; values: Partial<BannerInput> }
  | { type: 'form.submit' }
  | { type: 'form.cancel' }
  | { type: 'review.back' }
  | { type: 'review.confirm' }
  | { type: 'list.retry' };

/** A 4xx answer's message (the server says what is wrong); anything else the screen's generic text. */
function saveErrorOf(error: unknown): string {
  if (isHttpError(error) && error.status >= 400 && error.status < 500) {
    try {
      const body = JSON.parse(error.body) as { message?: unknown };
      if (typeof body.message === 'string') return body.message;
    } catch {
      // Not JSON: the generic text.
    }
  }
  return T.saveFailed;
}

export const bannerAuthoringMachine = setup({
  types: { context: {} as BannerAuthoringContext, events: {} as BannerAuthoringEvent },
  actors: {
    // Provided by the app: GET of the staff's banner list.
    listBanners: fromPromise<readonly Banner[]>(async () => {
      throw new Error('listBanners is provided by the app');
    }),
    // Provided by the app: POST (new) or PUT (edit).
    saveBanner: fromPromise<Banner, BannerSave>(async () => {
      throw new Error('saveBanner is provided by the app');
    }),
  },
  actions: {
    notifySaved: sendTo(({ system }) => system.get('toasts'), toastShow('success', T.saved)),
    reloadBanners: sendTo(({ system }) => system.get('banners'), { type: 'banners.reload' }),
  },
  guards: {
    draftValid: ({ context }) => Object.keys(bannerErrors(context.draft)).length === 0,
    knownBanner: ({ context, event }) => {
      assertEvent(event, 'banner.edit');
      return context.banners.some((banner) => banner.uuid === event.uuid);
    },
  },
}).createMachine({
  id: 'bannerAuthoring',
  context: { banners: [], editing: null, draft: EMPTY_BANNER_DRAFT, showErrors: false, saveError: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'listBanners',
        onDone: { target: 'list', actions: assign({ banners: ({ event }) => event.output }) },
        onError: { target: 'failed' },
      },
    },
    failed: {
      on: { 'list.retry': { target: 'loading' } },
    },
    list: {
      on: {
        'banner.new': {
          target: 'editing',
          actions: assign({ editing: null, draft: EMPTY_BANNER_DRAFT, showErrors: false, saveError: null }),
        },
        'banner.edit': {
          guard: 'knownBanner',
          target: 'editing',
          actions: assign(({ context, event }) => {
            const banner = context.banners.find((candidate) => candidate.uuid === event.uuid) as Banner;
            const { message, apps, variant, active, dismissable } = banner;
            return {
              editing: banner.uuid,
              draft: { message, apps: [...apps], variant, active, dismissable },
              showErrors: false,
              saveError: null,
            };
          }),
        },
      },
    },
    editing: {
      on: {
        'form.change': { actions: assign({ draft: ({ context, event }) => ({ ...context.draft, ...event.values }) }) },
        'form.submit': [{ guard: 'draftValid', target: 'reviewing' }, { actions: assign({ showErrors: true }) }],
        'form.cancel': { target: 'list' },
      },
    },
    reviewing: {
      on: {
        'review.back': { target: 'editing', actions: assign({ saveError: null }) },
        'review.confirm': { target: 'saving' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        src: 'saveBanner',
        input: ({ context }) => ({ uuid: context.editing, input: context.draft }),
        onDone: { target: 'loading', actions: ['notifySaved', 'reloadBanners', assign({ saveError: null })] },
        onError: { target: 'reviewing', actions: assign({ saveError: ({ event }) => saveErrorOf(event.error) }) },
      },
    },
  },
});

export type BannerAuthoringSnapshot = SnapshotFrom<typeof bannerAuthoringMachine>;

/** The errors to show: none until the first submit of a draft with errors. */
export const selectVisibleErrors = (snapshot: BannerAuthoringSnapshot): BannerErrors =>
  snapshot.context.showErrors ? bannerErrors(snapshot.context.draft) : {};
export const selectBanners = (snapshot: BannerAuthoringSnapshot): readonly Banner[] => snapshot.context.banners;
export const selectDraft = (snapshot: BannerAuthoringSnapshot): BannerInput => snapshot.context.draft;
