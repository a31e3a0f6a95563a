// The walk of the banner-authoring machine: what its model-based test
// (tests/machines/banner-authoring-model.test.ts) sends on every path, and the statechart
// explorer's service answers and tours.
import type { bannerAuthoringMachine } from '../../../machines/banner-authoring';
import type { Banner } from '../../../src/contract/banners';
import { HttpError } from '../../../src/contract/http-error';
import { BANNER_SCREEN_TEXTS as T } from '../../../src/domain/banner-screen-texts';
import type { WalkerOptions } from '../support/model-coverage';

export const STORED: Banner = {
  uuid: '11111111-1111-4111-8111-111111111111',
  message: 'Maintenance on Saturday.',
  apps: ['registry'],
  variant: 'warn',
  active: true,
  dismissable: true,
  metadata: { createdAt: '2026-11-20T10:00:00.000Z', updatedAt: '2026-11-20T10:00:00.000Z' },
};
export const refused = new HttpError(400, JSON.stringify({ statusCode: 400, error: 'Bad Request', message: T.appsRequired }));

export const walk: WalkerOptions<typeof bannerAuthoringMachine> = {
  serializeState: (snapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.editing,
      snapshot.context.draft.message !== '',
      snapshot.context.showErrors,
      snapshot.context.saveError,
    ]),
  events: {
    'banner.edit': { uuid: STORED.uuid },
    'form.change': [{ values: { message: 'Read-only tonight.' } }, { values: { message: '' } }],
    'done: listBanners': { output: [STORED] },
    'error: listBanners': { error: new Error('500') },
    'done: saveBanner': { output: STORED },
    'error: saveBanner': { error: refused },
  },
  // A draft with a message and the edited banner's flags is enough to walk every transition.
  filterEvents: (snapshot, event) => !(event.type === 'form.change' && snapshot.context.showErrors && snapshot.context.saveError),
};
