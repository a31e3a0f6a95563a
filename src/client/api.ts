// One function per endpoint of SPEC section 7, parsed with src/contract.
import { figureInfoSchema, type FigureInfo } from '../contract/identity';
import {
  loanDetailsSchema,
  loanEventsSchema,
  loanListSchema,
  type LoanCsvQuery,
  type LoanDetails,
  type LoanEvent,
  type LoanList,
  type LoanListQuery,
} from '../contract/loans';
import { userParticipantsSchema, type UserParticipant } from '../contract/participants';
import { PATHS } from '../contract/paths';
import { poolDetailSchema, poolListSchema, type Pool, type PoolDetail, type PoolListQuery } from '../contract/pools';
import { usersMeSchema, type UsersMe } from '../contract/users';
import type { HttpClient } from './http';

/** Query values as the URL carries them: arrays comma-joined, absent values left out. */
export type QueryValues = Record<string, string | number | boolean | readonly string[] | undefined | null>;
export function toSearchParams(query: QueryValues): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params;
}

export interface PoolAssetsCsvQuery {
  readonly loanIds?: readonly string[];
  readonly poolDenomination?: string;
}

export interface RegistryApi {
  figureInfo(signal?: AbortSignal): Promise<FigureInfo>;
  logout(signal?: AbortSignal): Promise<void>;
  usersMe(participantId: string | null, signal?: AbortSignal): Promise<UsersMe>;
  userParticipants(userId: string, signal?: AbortSignal): Promise<UserParticipant[]>;
  listLoans(query: LoanListQuery, signal?: AbortSignal): Promise<LoanList>;
  /** The asset CSV: `loanIds` or the same filters as the list. */
  loansCsv(query: Omit<LoanCsvQuery, 'loanIds'> & { loanIds?: readonly string[] }, signal?: AbortSignal): Promise<Blob>;
  poolAssetsCsv(query: PoolAssetsCsvQuery, signal?: AbortSignal): Promise<Blob>;
  loanDetails(loanId: string, signal?: AbortSignal): Promise<LoanDetails>;
  loanEvents(loanId: string, signal?: AbortSignal): Promise<LoanEvent[]>;
  listPools(query: PoolListQuery, signal?: AbortSignal): Promise<Pool[]>;
  pool(poolId: string, page: { limit: number; offset: number }, signal?: AbortSignal): Promise<PoolDetail>;
}

export function createRegistryApi(http: HttpClient): RegistryApi {
  const product = { product: true } as const;
  return {
    figureInfo: (signal) => http.request('GET', PATHS.figureInfo, figureInfoSchema, { signal }),
    logout: (signal) => http.send('POST', PATHS.logout, { signal }),
    // The session names the organization explicitly: it is choosing it.
    usersMe: (participantId, signal) => http.request('GET', PATHS.usersMe, usersMeSchema, { signal, participantId }),
    userParticipants: (userId, signal) => http.request('GET', PATHS.userParticipants(userId), userParticipantsSchema, { signal }),
    listLoans: (query, signal) =>
      http.request('GET', PATHS.loans, loanListSchema, { ...product, signal, searchParams: toSearchParams(query as QueryValues) }),
    loansCsv: (query, signal) =>
      http.download('GET', PATHS.loans, 'text/csv', { ...product, signal, searchParams: toSearchParams(query as QueryValues) }),
    poolAssetsCsv: (query, signal) =>
      http.download('GET', PATHS.poolAssetsCsv, 'text/csv', { ...product, signal, searchParams: toSearchParams(query as QueryValues) }),
    loanDetails: (loanId, signal) => http.request('GET', PATHS.loanDetails(loanId), loanDetailsSchema, { ...product, signal }),
    loanEvents: (loanId, signal) => http.request('GET', PATHS.loanEvents(loanId), loanEventsSchema, { ...product, signal }),
    listPools: (query, signal) =>
      http.request('GET', PATHS.pools, poolListSchema, { ...product, signal, searchParams: toSearchParams(query as QueryValues) }),
    pool: (poolId, page, signal) =>
      http.request('GET', PATHS.pool(poolId), poolDetailSchema, { ...product, signal, searchParams: toSearchParams(page) }),
  };
}
