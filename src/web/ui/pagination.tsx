// Pagination of a server-paged table (SPEC sections 5 and 9): first, previous, next and last
// buttons, a page-number field bounded 1..page count, the page size (10/20/50/100) and the text
// 'Page X of Y. Items A through B'. The owner's machine clamps and loads; this only sends.
import { useSelector } from '@xstate/react';
import { useEffect, useRef, type FormEvent } from 'react';
import { selectListView, selectPageCount, selectPageSummary, type PagedListRef } from '../../../machines/paged-list';
import { PAGE_SIZES } from '../../domain/constants';
import type { PageSize } from '../../domain/asset-table';
import { PAGINATION_TEXTS } from '../../domain/texts';
import { Icon, type IconName } from './icons';

export interface PaginationProps {
  readonly page: number;
  readonly pageCount: number;
  readonly limit: PageSize;
  /** 'Page X of Y. Items A through B'. */
  readonly summary: string;
  readonly onPage: (page: number) => void;
  readonly onPageSize: (limit: PageSize) => void;
  /** Tells two paginations of one page apart (ids of their fields). */
  readonly idPrefix?: string;
}

const buttonClasses =
  'inline-flex h-9 w-9 items-center justify-center rounded-md border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-white';

function PageButton({
  label,
  icon,
  disabled,
  onClick,
}: {
  label: string;
  icon: IconName | 'first' | 'last';
  disabled: boolean;
  onClick: () => void;
}) {
  // aria-disabled, not disabled: a button that turns unavailable under the keyboard (Enter on
  // 'Last page') keeps the focus instead of dropping it to the page; a click on it does nothing.
  return (
    <button
      type="button"
      className={buttonClasses}
      aria-label={label}
      aria-disabled={disabled}
      onClick={() => {
        if (!disabled) onClick();
      }}
    >
      {icon === 'first' || icon === 'last' ? (
        <span className="flex" aria-hidden="true">
          <Icon name={icon === 'first' ? 'chevronLeft' : 'chevronRight'} className="-mr-2.5 h-4 w-4" />
          <Icon name={icon === 'first' ? 'chevronLeft' : 'chevronRight'} className="h-4 w-4" />
        </span>
      ) : (
        <Icon name={icon} className="h-4 w-4" />
      )}
    </button>
  );
}

export function Pagination({ page, pageCount, limit, summary, onPage, onPageSize, idPrefix = 'pagination' }: PaginationProps) {
  // The page field shows the current page whenever it changes (DOM only; focus stays where it is).
  const pageField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (pageField.current) pageField.current.value = String(page);
  }, [page]);
  const submitPage = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = Number(new FormData(event.currentTarget).get('page'));
    if (Number.isFinite(value)) onPage(value);
  };
  // Controls stay enabled while a page loads (focus never drops); the machine keeps the latest request.
  const atFirst = page <= 1;
  const atLast = page >= pageCount;
  return (
    <nav aria-label={PAGINATION_TEXTS.label} className="flex flex-wrap items-center justify-between gap-4 py-3 text-sm text-slate-700">
      <p role="status" className="min-w-64">
        {summary}
      </p>
      <div className="flex flex-wrap items-center gap-4">
        <div className="flex items-center gap-2">
          <label htmlFor={`${idPrefix}-size`}>{PAGINATION_TEXTS.pageSize}</label>
          <select
            id={`${idPrefix}-size`}
            value={limit}
            className="h-9 rounded-md border border-slate-300 bg-white px-2"
            onChange={(event) => onPageSize(Number(event.target.value) as PageSize)}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-center gap-1">
          <PageButton label={PAGINATION_TEXTS.first} icon="first" disabled={atFirst} onClick={() => onPage(1)} />
          <PageButton label={PAGINATION_TEXTS.previous} icon="chevronLeft" disabled={atFirst} onClick={() => onPage(page - 1)} />
          <form className="flex items-center gap-1" onSubmit={submitPage}>
            <label htmlFor={`${idPrefix}-page`} className="sr-only">
              {PAGINATION_TEXTS.pageNumber}
            </label>
            <input
              id={`${idPrefix}-page`}
              name="page"
              type="number"
              inputMode="numeric"
              required
              min={1}
              max={pageCount}
              step={1}
              ref={pageField}
              defaultValue={page}
              className="h-9 w-20 rounded-md border border-slate-300 px-2 text-right"
            />
            <button
              type="submit"
              className="h-9 rounded-md border border-slate-300 bg-white px-3 font-medium hover:bg-slate-50 disabled:opacity-40"
            >
              {PAGINATION_TEXTS.goToPage}
            </button>
          </form>
          <PageButton label={PAGINATION_TEXTS.next} icon="chevronRight" disabled={atLast} onClick={() => onPage(page + 1)} />
          <PageButton label={PAGINATION_TEXTS.last} icon="last" disabled={atLast} onClick={() => onPage(pageCount)} />
        </div>
      </div>
    </nav>
  );
}

/** The pagination of a list actor (machines/paged-list.ts): its numbers, and its page and size events. */
export function ListPagination({ list, idPrefix }: { list: PagedListRef; idPrefix?: string }) {
  const view = useSelector(list, selectListView);
  const pageCount = useSelector(list, selectPageCount);
  const summary = useSelector(list, selectPageSummary);
  return (
    <Pagination
      page={view.page}
      pageCount={pageCount}
      limit={view.limit}
      summary={summary}
      onPage={(page) => list.send({ type: 'page.go', page })}
      onPageSize={(limit) => list.send({ type: 'page.size', limit })}
      {...(idPrefix ? { idPrefix } : {})}
    />
  );
}
