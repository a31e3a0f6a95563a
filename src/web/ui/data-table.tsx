// The table kit (TanStack Table 9, headless): server-paged rows, header sort buttons with
// aria-sort (the owner's machine cycles ascending, descending, none), checkbox row selection,
// and column widths resized by pointer or keyboard (column-resize machine, announced in a live
// region). Rows have a fixed height; while the first page loads, placeholder rows reserve the
// space, and later loads keep the previous rows on screen marked busy: no layout shift.
import {
  columnResizingFeature,
  columnSizingFeature,
  createColumnHelper,
  functionalUpdate,
  rowSelectionFeature,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type ColumnSizingState,
  type Header,
  type Row,
  type RowData,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useActorRef, useSelector } from '@xstate/react';
import { createContext, useContext, useMemo, type KeyboardEvent, type RefObject } from 'react';
import {
  selectIsLoading,
  selectListItems,
  selectListView,
  selectPageSelection,
  selectSelectedIds,
  type PagedListRef,
} from '../../../machines/paged-list';
import { columnResizeMachine, selectAnnouncement, selectColumnSizes, type ColumnSizes } from '../../../machines/column-resize';
import { COLUMN_MAX_WIDTH_PX, COLUMN_MIN_WIDTH_PX } from '../../domain/constants';
import { COLUMN_RESIZE_TEXTS } from '../../domain/texts';

export const dataTableFeatures = tableFeatures({
  rowSortingFeature,
  rowSelectionFeature,
  columnSizingFeature,
  columnResizingFeature,
  // Type-only slot: `label` names a column in announcements when its header is not plain text;
  // `pinRight` keeps a column (row actions) on the right edge while the rest scrolls sideways.
  columnMeta: {} as { label?: string; pinRight?: boolean },
});
export type DataTableFeatures = typeof dataTableFeatures;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of one table hold different value types
export type DataTableColumn<Row extends RowData> = ColumnDef<DataTableFeatures, Row, any>;

/** The column helper for DataTable columns: `createDataTableColumnHelper<Row>().accessor(...)`. */
export const createDataTableColumnHelper = <Row extends RowData>() => createColumnHelper<DataTableFeatures, Row>();

export interface DataTableSort {
  readonly columnId: string;
  readonly direction: 'asc' | 'desc';
}

export interface DataTableSelection<Row extends RowData> {
  readonly selectedIds: readonly string[];
  readonly pageSelection: 'all' | 'some' | 'none';
  readonly onToggleRow: (rowId: string) => void;
  readonly onTogglePage: () => void;
  /** Accessible name of a row's checkbox, e.g. 'Select asset ULI000001'. */
  readonly rowLabel: (row: Row) => string;
  /** Accessible name of the header checkbox. */
  readonly pageLabel: string;
  /** Given the header checkbox, e.g. to move the focus to it when a 'Clear selection' button goes away. */
  readonly pageCheckboxRef?: RefObject<HTMLInputElement | null>;
}

export interface DataTableProps<Row extends RowData> {
  /** The table's accessible name (its caption). */
  readonly label: string;
  readonly columns: readonly DataTableColumn<Row>[];
  readonly rows: readonly Row[];
  readonly getRowId: (row: Row) => string;
  /** Loading a page: placeholder rows when there are none yet, else the previous rows marked busy. */
  readonly loading: boolean;
  /** How many rows a page holds (the placeholders while the first page loads). */
  readonly pageSize: number;
  readonly loadingMessage: string;
  readonly emptyMessage: string;
  readonly sort?: DataTableSort | null;
  /** Sortable columns (enableSorting) send their id here when their header is clicked. */
  readonly onSort?: (columnId: string) => void;
  readonly selection?: DataTableSelection<Row>;
}

const SELECT_COLUMN = 'select';
const DEFAULT_WIDTH = 150;
const ROW_HEIGHT = 'h-12';

const columnId = <Row extends RowData>(column: DataTableColumn<Row>): string =>
  column.id ?? ('accessorKey' in column && typeof column.accessorKey === 'string' ? column.accessorKey : '');

/** Starting widths of the resizable columns, as their definitions give them. */
function initialSizes<Row extends RowData>(columns: readonly DataTableColumn<Row>[]): ColumnSizes {
  return Object.fromEntries(
    columns.filter((column) => column.enableResizing !== false).map((column) => [columnId(column), column.size ?? DEFAULT_WIDTH]),
  );
}

function columnLabel<Row extends RowData>(header: Header<DataTableFeatures, Row, unknown>): string {
  const { meta, header: title } = header.column.columnDef;
  return meta?.label ?? (typeof title === 'string' ? title : header.column.id);
}

// A pinned column stays at the right edge of the scrolling region, over the columns that scroll
// under it (an opaque background and a shadow on its left); the DOM and reading order are unchanged.
const PINNED_RIGHT = 'sticky right-0 z-10 shadow-[-6px_0_6px_-6px_rgb(15_23_42/0.25)]';
const isPinnedRight = (column: { columnDef: { meta?: { pinRight?: boolean } } }) => column.columnDef.meta?.pinRight === true;

const ariaSort = (direction: false | 'asc' | 'desc') => (direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none');

function SortGlyph({ direction }: { direction: false | 'asc' | 'desc' }) {
  const path = direction === 'asc' ? 'M7 14l5-5 5 5' : direction === 'desc' ? 'M7 10l5 5 5-5' : 'M8 9l4-4 4 4M8 15l4 4 4-4';
  return (
    <svg
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      className={`h-4 w-4 shrink-0 ${direction ? 'text-brand-700' : 'text-slate-400'}`}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={path} />
    </svg>
  );
}

type SelectionContextValue = DataTableSelection<RowData> & { readonly rowCount: number };
const SelectionContext = createContext<SelectionContextValue | null>(null);

function useSelection(): SelectionContextValue {
  const selection = useContext(SelectionContext);
  if (!selection) throw new Error('the selection column is rendered outside its DataTable');
  return selection;
}

function SelectPageCheckbox() {
  const selection = useSelection();
  return (
    <input
      type="checkbox"
      aria-label={selection.pageLabel}
      checked={selection.pageSelection === 'all'}
      disabled={selection.rowCount === 0}
      ref={(box) => {
        if (box) box.indeterminate = selection.pageSelection === 'some';
        if (selection.pageCheckboxRef) selection.pageCheckboxRef.current = box;
      }}
      onChange={selection.onTogglePage}
    />
  );
}

function SelectRowCheckbox({ row }: { row: Row<DataTableFeatures, RowData> }) {
  const selection = useSelection();
  return (
    <input
      type="checkbox"
      aria-label={selection.rowLabel(row.original)}
      checked={row.getIsSelected()}
      onChange={() => selection.onToggleRow(row.id)}
    />
  );
}

const selectColumn: DataTableColumn<RowData> = {
  id: SELECT_COLUMN,
  size: 48,
  enableResizing: false,
  enableSorting: false,
  header: SelectPageCheckbox,
  cell: SelectRowCheckbox,
};

export function DataTable<Row extends RowData>(props: DataTableProps<Row>) {
  const { label, columns, rows, getRowId, loading, pageSize, loadingMessage, emptyMessage, sort, onSort, selection } = props;
  const resize = useActorRef(columnResizeMachine, { input: { sizes: initialSizes(columns) } });
  const sizes = useSelector(resize, selectColumnSizes);
  const announcement = useSelector(resize, selectAnnouncement);

  // The checkbox column is defined once: FlexRender renders `header` and `cell` as components, so a
  // new function per selection change would remount the checkboxes and drop the keyboard focus.
  // They read the current selection from context instead.
  const selectable = Boolean(selection);
  const allColumns = useMemo<DataTableColumn<Row>[]>(
    () => (selectable ? [selectColumn as DataTableColumn<Row>, ...columns] : [...columns]),
    [columns, selectable],
  );
  const selectionContext = useMemo<SelectionContextValue | null>(
    () => (selection ? { ...(selection as unknown as DataTableSelection<RowData>), rowCount: rows.length } : null),
    [selection, rows.length],
  );

  const sorting = useMemo<SortingState>(() => (sort ? [{ id: sort.columnId, desc: sort.direction === 'desc' }] : []), [sort]);
  const rowSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries((selection?.selectedIds ?? []).map((id) => [id, true])),
    [selection?.selectedIds],
  );

  const table = useTable({
    features: dataTableFeatures,
    columns: allColumns,
    data: rows,
    getRowId: (row) => getRowId(row),
    manualSorting: true,
    enableSortingRemoval: true,
    enableRowSelection: Boolean(selection),
    columnResizeMode: 'onEnd',
    defaultColumn: { minSize: COLUMN_MIN_WIDTH_PX, maxSize: COLUMN_MAX_WIDTH_PX },
    state: { sorting, rowSelection, columnSizing: sizes as ColumnSizingState },
    // Pointer resizing: TanStack measures the drag; the machine keeps (and bounds) the widths.
    onColumnSizingChange: (updater) => resize.send({ type: 'column.setSizes', sizes: functionalUpdate(updater, { ...sizes }) }),
  });

  const resizeByKey = (event: KeyboardEvent, header: Header<DataTableFeatures, Row, unknown>) => {
    const steps = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!steps) return;
    event.preventDefault();
    resize.send({ type: 'column.resizeBy', columnId: header.column.id, label: columnLabel(header), steps });
  };

  const placeholders = loading && rows.length === 0;
  const empty = !loading && rows.length === 0;
  const columnCount = allColumns.length;

  return (
    <SelectionContext value={selectionContext}>
      <div className="flex flex-col gap-2">
        {/* Scrolls sideways on narrow screens; focusable (with the app's focus ring) so keyboard users can scroll it too. */}
        <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="table-fixed border-collapse text-left text-sm" style={{ width: table.getTotalSize() }} aria-busy={loading}>
            <caption className="sr-only">{label}</caption>
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
              {table.getHeaderGroups().map((headerGroup) => (
                <tr key={headerGroup.id}>
                  {headerGroup.headers.map((header) => {
                    const canSort = Boolean(onSort) && header.column.getCanSort() && header.column.id !== SELECT_COLUMN;
                    const direction = header.column.getIsSorted();
                    const name = columnLabel(header);
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        style={{ width: header.getSize() }}
                        aria-sort={canSort ? ariaSort(direction) : undefined}
                        className={`${isPinnedRight(header.column) ? `${PINNED_RIGHT} bg-slate-50` : 'relative'} ${ROW_HEIGHT} border-b border-slate-200 px-3 font-semibold`}
                      >
                        {canSort ? (
                          <button
                            type="button"
                            className="flex w-full items-center gap-1 text-left uppercase hover:text-slate-900"
                            onClick={() => onSort?.(header.column.id)}
                          >
                            <span className="truncate">
                              <table.FlexRender header={header} />
                            </span>
                            <SortGlyph direction={direction} />
                          </button>
                        ) : (
                          <span className="flex items-center truncate">
                            <table.FlexRender header={header} />
                          </span>
                        )}
                        {header.column.getCanResize() && (
                          <div
                            role="separator"
                            aria-orientation="vertical"
                            tabIndex={0}
                            aria-label={COLUMN_RESIZE_TEXTS.handle(name)}
                            aria-description={COLUMN_RESIZE_TEXTS.hint}
                            aria-valuenow={header.getSize()}
                            aria-valuemin={COLUMN_MIN_WIDTH_PX}
                            aria-valuemax={COLUMN_MAX_WIDTH_PX}
                            onMouseDown={header.getResizeHandler()}
                            onTouchStart={header.getResizeHandler()}
                            onKeyDown={(event) => resizeByKey(event, header)}
                            style={
                              header.column.getIsResizing()
                                ? { transform: `translateX(${table.state.columnResizing.deltaOffset ?? 0}px)` }
                                : undefined
                            }
                            className={`absolute top-0 right-0 h-full w-2 cursor-col-resize touch-none select-none hover:bg-brand-600/40 focus-visible:bg-brand-600/40 ${
                              header.column.getIsResizing() ? 'bg-brand-600' : ''
                            }`}
                          />
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody className={loading && !placeholders ? 'opacity-60' : undefined}>
              {placeholders &&
                Array.from({ length: pageSize }, (_, index) => (
                  <tr key={`placeholder-${index}`} aria-hidden="true" className={`${ROW_HEIGHT} border-b border-slate-100`}>
                    <td colSpan={columnCount} className="px-3">
                      <div className="h-3 w-full animate-pulse rounded bg-slate-100" />
                    </td>
                  </tr>
                ))}
              {empty && (
                <tr className={ROW_HEIGHT}>
                  <td colSpan={columnCount} className="px-3 py-6 text-center text-slate-600">
                    {emptyMessage}
                  </td>
                </tr>
              )}
              {table.getRowModel().rows.map((row) => (
                <tr
                  key={row.id}
                  className={`group ${ROW_HEIGHT} border-b border-slate-100 hover:bg-slate-50 ${row.getIsSelected() ? 'bg-brand-50' : ''}`}
                >
                  {row.getAllCells().map((cell) => (
                    <td
                      key={cell.id}
                      className={`overflow-hidden px-3 whitespace-nowrap text-ellipsis text-slate-800 ${
                        isPinnedRight(cell.column)
                          ? `${PINNED_RIGHT} ${row.getIsSelected() ? 'bg-brand-50' : 'bg-white group-hover:bg-slate-50'}`
                          : ''
                      }`}
                    >
                      <table.FlexRender cell={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p role="status" className="sr-only">
          {loading ? loadingMessage : ''}
        </p>
        <p aria-live="polite" className="sr-only" data-testid="column-resize-announcement">
          {announcement}
        </p>
      </div>
    </SelectionContext>
  );
}

export interface ListDataTableProps<Row extends RowData> extends Omit<
  DataTableProps<Row>,
  'rows' | 'loading' | 'pageSize' | 'sort' | 'onSort' | 'selection'
> {
  /** The list actor (machines/paged-list.ts): rows, loading, page size, sort and selection come from it. */
  readonly list: PagedListRef;
  /** Sortable columns send `sort.toggle` to the list. */
  readonly sortable?: boolean;
  /** Row checkboxes: their accessible names; the selection itself is the list's. */
  readonly selectable?: Pick<DataTableSelection<Row>, 'rowLabel' | 'pageLabel' | 'pageCheckboxRef'>;
}

/** The table of a list actor: it renders the list's page and sends the list its sort and selection events. */
export function ListDataTable<Row extends RowData>({ list, sortable, selectable, ...props }: ListDataTableProps<Row>) {
  const rows = useSelector(list, selectListItems<Row>);
  const loading = useSelector(list, selectIsLoading);
  const view = useSelector(list, selectListView);
  const selectedIds = useSelector(list, selectSelectedIds);
  const pageSelection = useSelector(list, selectPageSelection);
  const sort = useMemo(() => (view.sort ? { columnId: view.sort.column, direction: view.sort.direction } : null), [view.sort]);
  const selection = useMemo<DataTableSelection<Row> | undefined>(
    () =>
      selectable && {
        ...selectable,
        selectedIds,
        pageSelection,
        onToggleRow: (id) => list.send({ type: 'selection.toggle', id }),
        onTogglePage: () => list.send({ type: 'selection.togglePage' }),
      },
    [selectable, selectedIds, pageSelection, list],
  );
  return (
    <DataTable
      {...props}
      rows={rows}
      loading={loading}
      pageSize={view.limit}
      {...(sortable ? { sort, onSort: (column: string) => list.send({ type: 'sort.toggle', column }) } : {})}
      {...(selection ? { selection } : {})}
    />
  );
}
