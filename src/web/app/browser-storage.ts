// Browser storage for what the machines remember across visits; failures (private mode,
// quota) must never break the app, so they fall back to "nothing remembered".
import { BANNER_DISMISSALS_KEY } from '../../domain/banners';
import { STORAGE_KEYS } from '../../domain/constants';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Remembering is a convenience; the session still works without it.
  }
}

export const storedParticipant = {
  get: () => read(STORAGE_KEYS.participantId),
  set: (participantId: string | null) => write(STORAGE_KEYS.participantId, participantId),
};

export const storedNavigationCollapsed = {
  get: () => read(STORAGE_KEYS.navigationCollapsed) === 'true',
  set: (collapsed: boolean) => write(STORAGE_KEYS.navigationCollapsed, String(collapsed)),
};

/** The asset tables' hidden column ids; anything unreadable is nothing remembered. */
export const storedAssetColumns = {
  get: (): string[] | null => {
    try {
      const parsed: unknown = JSON.parse(read(STORAGE_KEYS.assetColumns) ?? 'null');
      return Array.isArray(parsed) && parsed.every((id) => typeof id === 'string') ? parsed : null;
    } catch {
      return null;
    }
  },
  set: (hidden: readonly string[]) => write(STORAGE_KEYS.assetColumns, JSON.stringify(hidden)),
};

/** The dismissed banners' keys (id and updatedAt, machines/banners.ts); anything unreadable is none dismissed. */
export const storedBannerDismissals = {
  get: (): string[] => {
    try {
      const parsed: unknown = JSON.parse(read(BANNER_DISMISSALS_KEY) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === 'string') : [];
    } catch {
      return [];
    }
  },
  set: (keys: readonly string[]) => write(BANNER_DISMISSALS_KEY, keys.length > 0 ? JSON.stringify(keys) : null),
};
