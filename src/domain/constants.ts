// Business constants of SPEC section 9, one place for web, machines and server.
export const BASE_PATH = '/registry';
export const TOAST_TIMEOUT_MS = 6000;
export const MAX_VISIBLE_TOASTS = 5;
export const ORGANIZATION_SEARCH_THRESHOLD = 8;
export const UNREAD_BADGE_CAP = 9;
export const MESSAGE_PREVIEW_LENGTH = 150;
export const SEARCH_DEBOUNCE_MS = 500;
export const JOB_POLL_INTERVAL_MS = 1000;
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const PARTICIPANT_CODE_LENGTH = 3;
export const ZIP_MAX_LENGTH = 10;
export const NAME_MAX_LENGTH = 128;
export const DATE_FORMAT = 'MM-dd-yyyy';
/** The header that carries the current organization on product calls. */
export const PARTICIPANT_HEADER = 'x-participant-id';
/** The demo seed's password (demo data only; never given to a DATABASE_URL database implicitly). */
export const DEMO_PASSWORD = 'registry-demo';

/** Browser storage keys; the session and navigation machines own what is stored under them. */
export const STORAGE_KEYS = {
  participantId: 'registry.participantId',
  navigationCollapsed: 'registry.navigationCollapsed',
  /** The asset tables' hidden columns (machines/column-visibility.ts). */
  assetColumns: 'registry.assetColumns',
} as const;
/** Column resizing by keyboard (SPEC section 9): px per arrow key, bounds, announcement lifetime. */
export const COLUMN_RESIZE_STEP_PX = 10;
export const COLUMN_MIN_WIDTH_PX = 50;
export const COLUMN_MAX_WIDTH_PX = 1000;
export const ANNOUNCEMENT_CLEAR_MS = 300;
