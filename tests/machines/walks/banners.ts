// The walk of the banners machine: what its model-based test (tests/web/banners-model.test.tsx)
// sends on every path, and the statechart explorer's input, service answers and tours.
import { selectVisibleBanners, type bannersMachine } from '../../../machines/banners';
import { bannerDismissalKey } from '../../../src/domain/banners';
import { EDITED_FILE, FILE, NEWEST } from '../../support/banner-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const walk: WalkerOptions<typeof bannersMachine> = {
  input: { app: 'registry', dismissed: [] },
  serializeState: (snapshot) =>
    JSON.stringify([snapshot.value, selectVisibleBanners(snapshot, 'default').map(bannerDismissalKey), snapshot.context.dismissed]),
  events: {
    'banner.dismiss': { uuid: NEWEST.uuid },
    'done: loadBannerFile': [{ output: FILE }, { output: EDITED_FILE }],
    'error: loadBannerFile': { error: new Error('502') },
  },
};
