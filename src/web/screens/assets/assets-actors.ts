// The assets screen's actors over the app's services: the list loads a page of GET v2 /loans
// (the date filter resolved when the request starts).
import { assetTableMachine, matchesNoAsset } from '../../../../machines/asset-table';
import { pagedListOf } from '../../../../machines/paged-list';
import { loanListQueryOf, type AssetListView } from '../../../domain/asset-table';
import type { AppServices } from '../../app/services';

export const assetTableLogic = ({ api }: Pick<AppServices, 'api'>) =>
  assetTableMachine.provide({
    actors: {
      list: pagedListOf(
        async (view, signal) => {
          const { loans, totalCount } = await api.listLoans(loanListQueryOf(view as AssetListView, new Date()), signal);
          return { items: loans, totalCount };
        },
        { matchesNothing: matchesNoAsset },
      ),
    },
  });
