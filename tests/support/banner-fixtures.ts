// Banner files for the banners tests: valid banners of this app and of another, inactive and
// malformed ones, and an edit of a dismissable banner (a later updatedAt).
import type { BannerFileItem } from '../../src/contract/banners';

export const banner = (overrides: Partial<BannerFileItem> & { uuid: string; createdAt: string; updatedAt?: string }): BannerFileItem => {
  const { createdAt, updatedAt, ...rest } = overrides;
  return {
    message: `Banner ${overrides.uuid.slice(0, 4)}`,
    apps: ['registry'],
    variant: 'info',
    active: true,
    dismissable: true,
    ...rest,
    metadata: { createdAt, updatedAt: updatedAt ?? createdAt },
  };
};

export const NEWEST = banner({
  uuid: '11111111-1111-4111-8111-111111111111',
  message: 'Maintenance on Saturday from 8 to 10 pm ET.',
  variant: 'warn',
  createdAt: '2026-11-20T10:00:00.000Z',
});
export const OLDER = banner({
  uuid: '22222222-2222-4222-8222-222222222222',
  message: 'New: the servicer lookup is open to borrowers.',
  createdAt: '2026-11-10T10:00:00.000Z',
});
export const OLDEST = banner({
  uuid: '33333333-3333-4333-8333-333333333333',
  message: 'Holiday hours: support answers until 3 pm ET.',
  dismissable: false,
  createdAt: '2026-11-01T10:00:00.000Z',
});
export const INACTIVE = banner({ uuid: '44444444-4444-4444-8444-444444444444', active: false, createdAt: '2026-11-25T10:00:00.000Z' });
export const OTHER_APP = banner({ uuid: '55555555-5555-4555-8555-555555555555', apps: ['csp'], createdAt: '2026-11-26T10:00:00.000Z' });
/** NEWEST, edited later: a dismissal of the first version does not hide it. */
export const NEWEST_EDITED: BannerFileItem = {
  ...NEWEST,
  message: 'Maintenance moved to Sunday from 8 to 10 pm ET.',
  metadata: { createdAt: NEWEST.metadata.createdAt, updatedAt: '2026-11-21T10:00:00.000Z' },
};
/** Without apps, without a uuid, without a variant: SPEC section 8 leaves them out. */
export const MALFORMED: unknown[] = [
  { ...OLDER, uuid: '66666666-6666-4666-8666-666666666666', apps: [] },
  { message: 'No uuid', apps: ['registry'], variant: 'info', active: true },
  { uuid: '77777777-7777-4777-8777-777777777777', message: 'No variant', apps: ['registry'], active: true },
];

/** A file in no particular order, with everything the app must leave out. */
export const FILE: unknown[] = [OLDEST, INACTIVE, MALFORMED[0], NEWEST, OTHER_APP, MALFORMED[1], OLDER, MALFORMED[2]];
export const EDITED_FILE: unknown[] = [OLDEST, NEWEST_EDITED, OLDER];
