// The asset list's prepared statements are named by shape (loanListShape), not by hashing their
// text: a shape that missed something the text depends on would run another statement's plan
// under its name. Every combination of what a list request can vary is enumerated here.
import { describe, expect, it } from 'vitest';
import { LOAN_SORT_COLUMNS, type FilterableRole } from '../../src/contract/loans';
import { PAGE_SIZES } from '../../src/domain/constants';
import { DEFAULT_ROLE_FILTER, FILTERABLE_ROLES } from '../../src/domain/loan';
import {
  loanListShape,
  loanListSql,
  NARROWING_CANDIDATES,
  NARROWING_WINDOW,
  narrowingWindow,
  type LoanListFilter,
  type LoanPageRequest,
} from '../../src/server/db/loan-list-query';
import { loanListStatement } from '../../src/server/db/loan-list-repository';

const PARTICIPANTS = ['6f1c2b8e-3d4a-4e5f-8a9b-0c1d2e3f4a5b', '0a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d'];
const ROLE_SETS: FilterableRole[][] = [[...FILTERABLE_ROLES], [...DEFAULT_ROLE_FILTER], ['OWNER'], ['SERVICER', 'ORIGINATOR']];
const DATES = [undefined, '2026-11-01T00:00:00Z', '2026-11-20T05:00:00-05:00'];
const SORTS = [undefined, ...LOAN_SORT_COLUMNS];

function* requests(): Generator<{ filter: LoanListFilter; page: LoanPageRequest }> {
  for (const participantId of PARTICIPANTS)
    for (const roles of ROLE_SETS)
      for (const updatedSince of DATES)
        for (const sortBy of SORTS)
          for (const sortDirection of sortBy ? (['asc', 'desc'] as const) : [undefined])
            for (const limit of PAGE_SIZES)
              for (const offset of [0, 10, 500])
                yield { filter: { participantId, roles, updatedSince, sortBy, sortDirection }, page: { limit, offset } };
}

describe('the asset list statement by shape', () => {
  it('gives one text to each shape and another text to every other shape', () => {
    const textByShape = new Map<string, string>();
    const shapeByText = new Map<string, string>();
    let count = 0;
    for (const { filter, page } of requests()) {
      const shape = loanListShape(filter, page);
      const { text } = loanListSql(filter, page);
      expect(shape).toBeDefined();
      if (shape === undefined) continue;
      count += 1;
      expect(textByShape.get(shape) ?? text).toBe(text);
      expect(shapeByText.get(text) ?? shape).toBe(shape);
      textByShape.set(shape, text);
      shapeByText.set(text, shape);
    }
    expect(count).toBeGreaterThan(5000);
    // Each sort column both ways and the default order, all roles or not, a date or not, the page
    // sizes, the first page or another.
    expect(textByShape.size).toBe((LOAN_SORT_COLUMNS.length * 2 + 1) * 2 * 2 * PAGE_SIZES.length * 2);
  });

  it("names the same shape's statement alike and carries each request's own values", () => {
    const first = loanListStatement({ participantId: PARTICIPANTS[0] ?? '', roles: ['OWNER'] }, { limit: 20, offset: 40 });
    const second = loanListStatement({ participantId: PARTICIPANTS[1] ?? '', roles: ['SERVICER'] }, { limit: 20, offset: 60 });
    expect(first.name).toMatch(/^loan_list_[0-9a-f]{20}$/);
    expect(second.name).toBe(first.name);
    expect(second.text).toBe(first.text);
    expect(second.values).toEqual(
      loanListSql({ participantId: PARTICIPANTS[1] ?? '', roles: ['SERVICER'] }, { limit: 20, offset: 60 }).values,
    );
    expect(second.values).not.toEqual(first.values);
    const otherShape = loanListStatement({ participantId: PARTICIPANTS[0] ?? '', roles: ['OWNER'] }, { limit: 20, offset: 0 });
    expect(otherShape.name).not.toBe(first.name);
  });

  it('leaves a search, an id list and a pool unnamed: they are planned for their values', () => {
    const base = { participantId: PARTICIPANTS[0] ?? '', roles: [...DEFAULT_ROLE_FILTER] };
    for (const filter of [
      { ...base, query: 'main' },
      { ...base, loanIds: [PARTICIPANTS[1] ?? ''] },
      { ...base, poolId: PARTICIPANTS[1] },
    ]) {
      expect(loanListShape(filter, { limit: 10, offset: 0 })).toBeUndefined();
      expect(loanListStatement(filter, { limit: 10, offset: 0 }).name).toBeUndefined();
    }
  });

  it('sends a search of fewer than three characters between line breaks as the list without one', () => {
    const base = { participantId: PARTICIPANTS[0] ?? '', roles: [...DEFAULT_ROLE_FILTER] };
    const page = { limit: 10, offset: 0 };
    for (const query of ['a', 'ab', ' ab ', 'ab\ncd'])
      expect(loanListStatement({ ...base, query }, page), query).toEqual(loanListStatement(base, page));
    expect(loanListShape({ ...base, query: 'abc' }, page)).toBeUndefined();
    expect(loanListShape({ ...base, query: 'ab\ncde' }, page)).toBeUndefined();
  });

  it('narrows a search across a line break by its longest piece, and by the others only past NARROWING_CANDIDATES loans', () => {
    const base = { participantId: PARTICIPANTS[0] ?? '', roles: [...DEFAULT_ROLE_FILTER] };
    const { text, values } = loanListSql({ ...base, query: 'smith\n12 elm\nx' }, { limit: 10, offset: 0 });
    const longest = `$${values.indexOf('%12 elm%') + 1}`;
    const other = `$${values.indexOf('%smith%') + 1}`;
    const gate = `$${values.indexOf(NARROWING_CANDIDATES) + 1}`;
    expect(text).toContain(`WITH first AS MATERIALIZED (SELECT c.loan_id FROM loan_list_search c WHERE c.search LIKE lower(${longest})`);
    expect(text).toContain(`SELECT loan_id FROM first WHERE NOT (SELECT count(*) FROM first) > ${gate}::int`);
    expect(text).toContain(`WHERE (SELECT count(*) FROM first) > ${gate}::int AND c.search LIKE lower(${other})`);
    expect(values).toContain('%smith\n12 elm\nx%');
    expect(values).not.toContain('%x%');
    // One piece long enough: its loans, with no gate.
    const single = loanListSql({ ...base, query: 'smith\nx' }, { limit: 10, offset: 0 });
    expect(single.text).toContain('e.loan_id IN (SELECT c.loan_id FROM loan_list_search c WHERE c.search LIKE lower(');
    expect(single.text).not.toContain('first');
  });

  it('looks for a long piece holding digits by its window with the most digits first, and for the whole piece past the gate', () => {
    expect(NARROWING_WINDOW).toBe(8);
    expect(narrowingWindow('3669 Lakeview Ter')).toBe('3669 Lak');
    expect(narrowingWindow('Lakeview Ter 3669')).toBe('Ter 3669');
    expect(narrowingWindow('Apt 12, 4410 Elm')).toBe('12, 4410');
    // Without digits, or no longer than the window: the piece itself.
    expect(narrowingWindow('Lakeview Terrace')).toBe('Lakeview Terrace');
    expect(narrowingWindow('12 Elm')).toBe('12 Elm');
    const base = { participantId: PARTICIPANTS[0] ?? '', roles: [...DEFAULT_ROLE_FILTER] };
    const { text, values } = loanListSql({ ...base, query: 'Sullivan\n3669 Lakeview Ter' }, { limit: 10, offset: 0 });
    const window = `$${values.indexOf('%3669 Lak%') + 1}`;
    const whole = `$${values.indexOf('%3669 Lakeview Ter%') + 1}`;
    const other = `$${values.indexOf('%Sullivan%') + 1}`;
    expect(text).toContain(`WITH first AS MATERIALIZED (SELECT c.loan_id FROM loan_list_search c WHERE c.search LIKE lower(${window})`);
    expect(text).toContain(`> $${values.indexOf(NARROWING_CANDIDATES) + 1}::int AND c.search LIKE lower(${whole})`);
    expect(text).toContain(`AND c.search LIKE lower(${other})`);
    // One long piece with digits and nothing else long enough: the window, then the whole piece past the gate.
    const alone = loanListSql({ ...base, query: 'x\n3669 Lakeview Ter' }, { limit: 10, offset: 0 });
    expect(alone.values).toContain('%3669 Lak%');
    expect(alone.values).toContain('%3669 Lakeview Ter%');
    expect(alone.values).toContain(NARROWING_CANDIDATES);
  });
});
