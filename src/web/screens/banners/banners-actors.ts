// The banners screen's actors over the app's services: the staff's list, and the save (POST for a
// new banner, PUT for an edit). Its toast and the reload of the page's banners are the machine's own.
import { fromPromise } from 'xstate';
import { bannerAuthoringMachine } from '../../../../machines/banner-authoring';
import type { AppServices } from '../../app/services';

export const bannerAuthoringLogic = ({ api }: Pick<AppServices, 'api'>) =>
  bannerAuthoringMachine.provide({
    actors: {
      listBanners: fromPromise(async ({ signal }) => (await api.listBanners(signal)).banners),
      saveBanner: fromPromise(({ input, signal }) =>
        input.uuid === null ? api.createBanner(input.input, signal) : api.updateBanner(input.uuid, input.input, signal),
      ),
    },
  });
