// The banners (SPEC sections 1, 8 and 9), app-wide: the banner file read once at start (the app's
// content waits for it, so a banner never pushes the page down after it showed), each banner
// checked on its own (one without uuid, message, non-empty apps or variant is left out and 'Banner
// data does not match the expected format' reported), newest first. What shows is a selector of
// the placement: the active banners for this app that the browser has not dismissed, up to 2, or
// 1 on the dashboard and the shell. A dismissal is kept in browser storage under the banner's id
// and updatedAt, so an edited banner (a later updatedAt) shows again. The authoring screen asks
// for the file again after a save (`banners.reload`); nothing else refetches it (SPEC section 9).
import { assertEvent, enqueueActions, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { bannerFileItemSchema, type BannerFileItem } from '../src/contract/banners';
import { BANNER_DATA_INVALID, BANNER_LIMITS, bannerDismissalKey, type BannerPlacement } from '../src/domain/banners';

export interface BannersInput {
  /** This application's name in a banner's apps. */
  readonly app: string;
  /** The dismissal keys the browser kept (bannerDismissalKey). */
  readonly dismissed: readonly string[];
}

export interface BannersContext {
  readonly app: string;
  /** The file's valid banners, newest first. */
  readonly banners: readonly BannerFileItem[];
  readonly dismissed: readonly string[];
  /** How many of the file's banners were left out as malformed. */
  readonly invalidCount: number;
}

export type BannersEvent =
  /** The close button of a dismissable banner. */
  | { type: 'banner.dismiss'; uuid: string }
  /** The authoring screen saved a banner: read the file again. */
  | { type: 'banners.reload' };

export interface ParsedBannerFile {
  readonly banners: BannerFileItem[];
  readonly invalidCount: number;
}

const time = (value: string | undefined): number => {
  const parsed = value === undefined ? Number.NaN : Date.parse(value);
  return Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
};

/** The file's banners that pass SPEC section 8's check, newest first (createdAt, then updatedAt). */
export function parseBannerFile(file: unknown): ParsedBannerFile {
  if (!Array.isArray(file)) return { banners: [], invalidCount: 1 };
  const banners: BannerFileItem[] = [];
  let invalidCount = 0;
  for (const item of file) {
    const parsed = bannerFileItemSchema.safeParse(item);
    if (parsed.success) banners.push(parsed.data);
    else invalidCount += 1;
  }
  const newest = (a: BannerFileItem, b: BannerFileItem) =>
    time(b.metadata.createdAt) - time(a.metadata.createdAt) || time(b.metadata.updatedAt) - time(a.metadata.updatedAt);
  // Equal times (NaN-free: -Infinity - -Infinity is NaN) keep the file's order.
  return {
    banners: banners
      .map((banner, index) => ({ banner, index }))
      .sort((a, b) => newest(a.banner, b.banner) || a.index - b.index)
      .map(({ banner }) => banner),
    invalidCount,
  };
}

/** The context after a read: its valid banners, and the dismissals that still name one of them. */
function afterRead(context: BannersContext, output: unknown): Pick<BannersContext, 'banners' | 'dismissed' | 'invalidCount'> {
  const file = parseBannerFile(output);
  const keys = new Set(file.banners.map(bannerDismissalKey));
  // Dismissals of banners no longer in the file (or edited since) are forgotten: storage stays small.
  return { banners: file.banners, invalidCount: file.invalidCount, dismissed: context.dismissed.filter((key) => keys.has(key)) };
}

export const bannersMachine = setup({
  types: { input: {} as BannersInput, context: {} as BannersContext, events: {} as BannersEvent },
  actors: {
    // Provided by the app: GET of the banner file (any JSON: it is checked here); aborted with `signal`.
    loadBannerFile: fromPromise<unknown>(async () => {
      throw new Error('loadBannerFile is provided by the app');
    }),
  },
  actions: {
    /** SPEC section 8: the malformed banners are reported on the console (the authoring screen shows the count). */
    reportInvalid: (_, params: { count: number }) => {
      console.error(`${BANNER_DATA_INVALID} (${params.count} banner(s) left out)`);
    },
    /** Provided by the app: keeps the dismissal keys in browser storage. */
    rememberDismissals: (_, _params: { keys: readonly string[] }) => {},
  },
  guards: {
    canDismiss: ({ context, event }) => {
      assertEvent(event, 'banner.dismiss');
      const banner = context.banners.find((candidate) => candidate.uuid === event.uuid);
      return banner !== undefined && banner.dismissable && !context.dismissed.includes(bannerDismissalKey(banner));
    },
  },
  delays: {
    /** The page waits for the file at most this long; a later answer is ignored (no shift after load). */
    loadTimeout: 3000,
  },
}).createMachine({
  id: 'banners',
  context: ({ input }) => ({ app: input.app, banners: [], dismissed: [...input.dismissed], invalidCount: 0 }),
  initial: 'loading',
  states: {
    /** The first read: the app's content waits for it (selectIsSettled). */
    loading: {
      tags: ['pending'],
      invoke: {
        src: 'loadBannerFile',
        onDone: {
          target: 'ready',
          actions: enqueueActions(({ enqueue, context, event }) => {
            const next = afterRead(context, event.output);
            enqueue.assign(next);
            if (next.invalidCount > 0) enqueue({ type: 'reportInvalid', params: { count: next.invalidCount } });
            if (next.dismissed.length !== context.dismissed.length)
              enqueue({ type: 'rememberDismissals', params: { keys: next.dismissed } });
          }),
        },
        // No banners then; not retried (SPEC section 9).
        onError: { target: 'failed' },
      },
      after: { loadTimeout: { target: 'failed' } },
    },
    ready: {
      initial: 'idle',
      on: {
        'banner.dismiss': {
          guard: 'canDismiss',
          actions: enqueueActions(({ enqueue, context, event }) => {
            const banner = context.banners.find((candidate) => candidate.uuid === event.uuid) as BannerFileItem;
            const dismissed = [...context.dismissed, bannerDismissalKey(banner)];
            enqueue.assign({ dismissed });
            enqueue({ type: 'rememberDismissals', params: { keys: dismissed } });
          }),
        },
      },
      states: {
        idle: {
          on: { 'banners.reload': { target: 'reloading' } },
        },
        /** The banners shown stay until the new file is read. */
        reloading: {
          invoke: {
            src: 'loadBannerFile',
            onDone: {
              target: 'idle',
              actions: enqueueActions(({ enqueue, context, event }) => {
                const next = afterRead(context, event.output);
                enqueue.assign(next);
                if (next.invalidCount > 0) enqueue({ type: 'reportInvalid', params: { count: next.invalidCount } });
                if (next.dismissed.length !== context.dismissed.length)
                  enqueue({ type: 'rememberDismissals', params: { keys: next.dismissed } });
              }),
            },
            onError: { target: 'idle' },
          },
          // A newer save: the answer under way may predate it.
          on: { 'banners.reload': { target: 'reloading', reenter: true } },
        },
      },
    },
    /** The first read failed or took too long: no banners until a reload. */
    failed: {
      on: { 'banners.reload': { target: '#banners.ready.reloading' } },
    },
  },
});

export type BannersSnapshot = SnapshotFrom<typeof bannersMachine>;

/** The banners to show in a placement (SPEC section 9): active, for this app, not dismissed, newest first. */
export const selectVisibleBanners = (snapshot: BannersSnapshot, placement: BannerPlacement): readonly BannerFileItem[] => {
  const { banners, dismissed, app } = snapshot.context;
  return banners
    .filter((banner) => banner.active && banner.apps.includes(app) && !dismissed.includes(bannerDismissalKey(banner)))
    .slice(0, BANNER_LIMITS[placement]);
};
/** False while the first read is under way: the page waits, so banners never push content down. */
export const selectIsSettled = (snapshot: BannersSnapshot): boolean => !snapshot.hasTag('pending');
export const selectInvalidCount = (snapshot: BannersSnapshot): number => snapshot.context.invalidCount;
