// The walk of the pool-assets machine: what its model-based test
// (tests/web/pool-assets-model.test.tsx) sends on every path,
// and the statechart explorer's input and tours.
import type { poolAssetsMachine, PoolAssetsPage } from '../../../machines/pool-assets';
import { HttpError } from '../../../src/contract/http-error';
import { samplePoolDetail } from '../../support/loan-list-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const { pool, loans, totalCount } = samplePoolDetail(0, 10, 25);

export const poolPage: PoolAssetsPage = { items: loans, totalCount, pool };

export const notFound = new HttpError(404, '{"statusCode":404,"error":"Not Found","message":"Pool not found"}');

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const walk: WalkerOptions<typeof poolAssetsMachine> = {
  input: { view: { page: 1, limit: 10 } },
  events: {
    'list.loaded': [{ output: poolPage }],
    'list.failed': [{ error: notFound }, { error: serverError }],
  },
  // The list reports a failure of its first load (the screen offers no reload once the pool is shown).
  filterEvents: (snapshot, event) => event.type !== 'list.failed' || snapshot.context.poolName === '',
};
