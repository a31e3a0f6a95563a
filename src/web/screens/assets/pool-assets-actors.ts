// The pool's assets screen's actors over the app's services: the list loads a page of the pool.
import { pagedListOf } from '../../../../machines/paged-list';
import { poolAssetsMachine, type PoolAssetsPage } from '../../../../machines/pool-assets';
import { pageOffset } from '../../../domain/asset-table';
import type { AppServices } from '../../app/services';

export const poolAssetsLogic = ({ api }: Pick<AppServices, 'api'>, poolId: string) =>
  poolAssetsMachine.provide({
    actors: {
      list: pagedListOf(async ({ page, limit }, signal): Promise<PoolAssetsPage> => {
        const { pool, loans, totalCount } = await api.pool(poolId, { limit, offset: pageOffset(page, limit) }, signal);
        return { items: loans, totalCount, pool };
      }),
    },
  });
