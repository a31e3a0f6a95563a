// The pools screen's actors over the app's services: the shared list loading every completed
// pool of the view's range (the date is taken when the request starts: a retry after midnight
// asks for the new day).
import { pagedListOf } from '../../../../machines/paged-list';
import { poolListQuery, type PoolsView } from '../../../../machines/pools-list';
import type { AppServices } from '../../app/services';

export const poolsListLogic = ({ api }: Pick<AppServices, 'api'>) =>
  pagedListOf(async (view, signal) => {
    const pools = await api.listPools(poolListQuery((view as PoolsView).range, new Date()), signal);
    return { items: pools, totalCount: pools.length };
  });
