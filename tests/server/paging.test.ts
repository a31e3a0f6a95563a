// The paged-list helpers: the contract's page query and answer built from a list's schemas, and
// the repository's ORDER BY / LIMIT / OFFSET from a whitelisted sort and a tie-breaker.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageAnswerOf, pageQueryOf } from '../../src/contract/paging';
import { pageSql } from '../../src/server/db/paging';

describe('paged lists', () => {
  it('a page query takes SPEC page sizes and an offset (defaults 10 and 0) beside the filters', () => {
    const query = pageQueryOf({ archived: z.enum(['true', 'false']).optional() });
    expect(query.parse({ archived: 'true' })).toEqual({ limit: 10, offset: 0, archived: 'true' });
    expect(query.parse({ limit: '50', offset: '100' })).toEqual({ limit: 50, offset: 100 });
    expect(query.safeParse({ limit: '7' }).success).toBe(false);
    expect(query.safeParse({ offset: '-1' }).success).toBe(false);
  });

  it("a page answer names its items as the list does, with the view's total", () => {
    const answer = pageAnswerOf('pools', z.object({ id: z.string() }), 'Pools in this view');
    expect(answer.parse({ pools: [{ id: 'a' }], totalCount: 3 })).toEqual({ pools: [{ id: 'a' }], totalCount: 3 });
    expect(answer.safeParse({ items: [], totalCount: 0 }).success).toBe(false);
    expect(answer.safeParse({ pools: [], totalCount: -1 }).success).toBe(false);
  });

  it('orders by a whitelisted column and the tie-breaker, the page as parameters', () => {
    const order = { columns: { created: 'created_at', name: 'lower(name)' }, tieBreaker: 'id' } as const;
    expect(pageSql({ ...order, sort: { column: 'created', direction: 'desc' } }, { limit: 20, offset: 40 }, 2)).toEqual({
      sql: 'ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3',
      values: [20, 40],
    });
    expect(pageSql({ ...order, sort: { column: 'name', direction: 'asc' } }, { limit: 10, offset: 0 }, 1).sql).toBe(
      'ORDER BY lower(name) ASC, id ASC LIMIT $1 OFFSET $2',
    );
    // A column of several keys sorts each of them the same way, as an index over them is read.
    const twoKeys = { columns: { name: ['lower(last_name)', 'lower(first_name)'] }, tieBreaker: 'id' } as const;
    expect(pageSql({ ...twoKeys, sort: { column: 'name', direction: 'desc' } }, { limit: 10, offset: 0 }, 1).sql).toBe(
      'ORDER BY lower(last_name) DESC, lower(first_name) DESC, id DESC LIMIT $1 OFFSET $2',
    );
    // A name from outside the whitelist (a request cast past its type) never reaches the SQL.
    expect(() =>
      pageSql({ ...order, sort: { column: 'name; DROP TABLE x' as 'name', direction: 'asc' } }, { limit: 10, offset: 0 }, 1),
    ).toThrow(/not a sortable column/);
  });
});
