// One page of a list in SQL: ORDER BY a whitelisted column (never text from the request), then a
// unique tie-breaker in the same direction so pages never overlap or skip a row, with LIMIT and
// OFFSET as parameters (the statement stays the same for every page, and can be prepared).
export interface PageWindow {
  readonly limit: number;
  readonly offset: number;
}

export interface PageOrder<Column extends string> {
  /** The sortable columns: the request's name of each, and its SQL expression (or expressions, each sorted the same way). */
  readonly columns: Readonly<Record<Column, string | readonly string[]>>;
  readonly sort: { readonly column: Column; readonly direction: 'asc' | 'desc' };
  /** A unique column (the primary key) that breaks ties. */
  readonly tieBreaker: string;
}

/** `ORDER BY ... LIMIT $n OFFSET $n+1` and its two values, `n` being the first free parameter number. */
export function pageSql<Column extends string>(
  order: PageOrder<Column>,
  page: PageWindow,
  firstParam: number,
): { readonly sql: string; readonly values: readonly [number, number] } {
  const direction = order.sort.direction === 'desc' ? 'DESC' : 'ASC';
  const column = order.columns[order.sort.column];
  if (column === undefined) throw new Error(`not a sortable column: ${String(order.sort.column)}`);
  const keys = [...(typeof column === 'string' ? [column] : column), order.tieBreaker].map((key) => `${key} ${direction}`);
  return {
    sql: `ORDER BY ${keys.join(', ')} LIMIT $${firstParam} OFFSET $${firstParam + 1}`,
    values: [page.limit, page.offset],
  };
}
