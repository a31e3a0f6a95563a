// The dashboard's own actors over the app's services: the Assets tile's count. (The Messages
// tile reads the app-wide unread count, an actor of the root's system.)
import { fromPromise } from 'xstate';
import { assetCountMachine } from '../../../../machines/asset-count';
import type { AppServices } from '../../app/services';

/** The asset-count machine over the API: a first page of the asset list, for its totalCount. */
export function assetCountActors({ api }: AppServices) {
  return assetCountMachine.provide({
    actors: { countAssets: fromPromise(async ({ input, signal }) => (await api.listLoans(input.query, signal)).totalCount) },
  });
}
