// The organization's relationships under its profile (SPEC section 2's partner view is reached from
// here), a configuration of the shared list (paged-list.ts): newest first, a page at a time from
// GET v1 /relationships. Page and limit live in the URL of the profile page.
import { parseAssetListView, VIEW_PARAMS } from '../src/domain/asset-table';
import { DEFAULT_PAGE_SIZE } from '../src/domain/constants';
import type { ListView } from './paged-list';

/** The view a URL names (page and limit read as the asset list reads them). */
export function parseRelationshipsView(search: string): ListView {
  const { page, limit } = parseAssetListView(search);
  return { page, limit };
}

/** Page and limit unless both are the defaults. */
export function serializeRelationshipsView(view: ListView): string {
  if (view.page === 1 && view.limit === DEFAULT_PAGE_SIZE) return '';
  const search = new URLSearchParams({ [VIEW_PARAMS.page]: String(view.page), [VIEW_PARAMS.limit]: String(view.limit) });
  return `?${search.toString()}`;
}

export const relationshipsListInput = (view: ListView) => ({ view, idKey: 'id' }) as const;
