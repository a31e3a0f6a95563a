import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ASSET_LIST_VIEW,
  clampPage,
  loanListQueryOf,
  nextSort,
  normalizeRoles,
  pageCount,
  pageSummary,
  parseAssetListView,
  serializeAssetListView,
  type AssetListView,
  toggleSelectedId,
  togglePageSelection,
} from '../../src/domain/asset-table';
import { DEFAULT_ROLE_FILTER } from '../../src/domain/loan';

describe('asset table paging (SPEC section 9)', () => {
  it('counts at least one page and clamps the page between 1 and the page count', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(clampPage(0, 5)).toBe(1);
    expect(clampPage(-3, 5)).toBe(1);
    expect(clampPage(9, 5)).toBe(5);
    expect(clampPage(3, 5)).toBe(3);
    expect(clampPage(2.7, 5)).toBe(2);
    expect(clampPage(Number.NaN, 5)).toBe(1);
    expect(clampPage(4, 0)).toBe(1);
  });

  it("reads 'Page X of Y. Items A through B'", () => {
    expect(pageSummary(1, 10, 95)).toBe('Page 1 of 10. Items 1 through 10');
    expect(pageSummary(10, 10, 95)).toBe('Page 10 of 10. Items 91 through 95');
    expect(pageSummary(2, 50, 120)).toBe('Page 2 of 3. Items 51 through 100');
    expect(pageSummary(1, 10, 0)).toBe('Page 1 of 1. Items 0 through 0');
  });
});

describe('asset table view in the URL', () => {
  it('defaults to page 1, 10 rows, SPEC roles, no search, date filter or sort', () => {
    expect(parseAssetListView('')).toEqual(DEFAULT_ASSET_LIST_VIEW);
    expect(DEFAULT_ASSET_LIST_VIEW.roles).toEqual(DEFAULT_ROLE_FILTER);
    expect(serializeAssetListView(DEFAULT_ASSET_LIST_VIEW)).toBe('?page=1&limit=10');
  });

  it('round-trips every field', () => {
    const view: AssetListView = {
      page: 3,
      limit: 50,
      query: 'smith & co',
      dateFilter: 'lastWeek',
      roles: ['OWNER', 'ORIGINATOR'],
      sort: { column: 'tradeDate', direction: 'desc' },
    };
    const search = serializeAssetListView(view);
    expect(search).toBe(
      '?page=3&limit=50&query=smith+%26+co&updated=lastWeek&roles=OWNER%2CORIGINATOR&sortBy=tradeDate&sortDirection=desc',
    );
    expect(parseAssetListView(search)).toEqual(view);
  });

  it('refuses malformed values, falling back to defaults', () => {
    const view = parseAssetListView('?page=-2&limit=15&updated=yesterday&roles=BOSS&sortBy=password&sortDirection=sideways');
    expect(view).toEqual(DEFAULT_ASSET_LIST_VIEW);
    expect(parseAssetListView('?page=abc').page).toBe(1);
    expect(parseAssetListView('?page=2.5').page).toBe(1);
    expect(parseAssetListView('?sortBy=uli&sortDirection=sideways').sort).toEqual({ column: 'uli', direction: 'asc' });
  });

  it('keeps roles in filter order without duplicates; none valid in the URL means the default five', () => {
    expect(normalizeRoles(['SERVICER', 'OWNER', 'OWNER'])).toEqual(['OWNER', 'SERVICER']);
    expect(parseAssetListView('?roles=ORIGINATOR,NOPE').roles).toEqual(['ORIGINATOR']);
    expect(parseAssetListView('?roles=NOPE').roles).toEqual(DEFAULT_ROLE_FILTER);
    expect(parseAssetListView('').roles).toEqual(DEFAULT_ROLE_FILTER);
  });

  it('lets the role filter be emptied, and carries none through the URL', () => {
    expect(normalizeRoles([])).toEqual([]);
    const none = { ...DEFAULT_ASSET_LIST_VIEW, roles: [] };
    expect(serializeAssetListView(none)).toBe('?page=1&limit=10&roles=');
    expect(parseAssetListView(serializeAssetListView(none))).toEqual(none);
  });
});

describe('asset table sort cycle (SPEC section 4)', () => {
  it('cycles ascending, descending, none; another column starts ascending', () => {
    const asc = nextSort(null, 'uli');
    expect(asc).toEqual({ column: 'uli', direction: 'asc' });
    const desc = nextSort(asc, 'uli');
    expect(desc).toEqual({ column: 'uli', direction: 'desc' });
    expect(nextSort(desc, 'uli')).toBeNull();
    expect(nextSort(desc, 'owner')).toEqual({ column: 'owner', direction: 'asc' });
  });
});

describe('list query of a view', () => {
  it('sends paging, roles, search, sort and the date filter as an instant', () => {
    const now = new Date(2026, 10, 16, 15, 30);
    const query = loanListQueryOf(
      { ...DEFAULT_ASSET_LIST_VIEW, page: 3, limit: 20, query: 'abc', dateFilter: 'today', sort: { column: 'owner', direction: 'desc' } },
      now,
    );
    expect(query).toMatchObject({
      limit: 20,
      offset: 40,
      query: 'abc',
      participantRoles: 'OWNER,CONTROLLER,SERVICER,SUB_SERVICER,SECURED_PARTY',
      sortBy: 'owner',
      sortDirection: 'desc',
    });
    expect(new Date(query.oldestDateLastUpdated as string).getTime()).toBe(new Date(2026, 10, 16).getTime());
    const plain = loanListQueryOf(DEFAULT_ASSET_LIST_VIEW, now);
    expect(plain).toEqual({ limit: 10, offset: 0, participantRoles: 'OWNER,CONTROLLER,SERVICER,SUB_SERVICER,SECURED_PARTY' });
  });
});

describe('row selection rules', () => {
  it('toggles one id in and out', () => {
    expect(toggleSelectedId(['a'], 'b')).toEqual(['a', 'b']);
    expect(toggleSelectedId(['a', 'b'], 'a')).toEqual(['b']);
  });

  it('selects the rest of the page, or clears the page when all of it is selected', () => {
    expect(togglePageSelection(['x', 'a'], ['a', 'b'])).toEqual(['x', 'a', 'b']);
    expect(togglePageSelection(['x', 'a', 'b'], ['a', 'b'])).toEqual(['x']);
    expect(togglePageSelection(['x'], [])).toEqual(['x']);
  });
});
