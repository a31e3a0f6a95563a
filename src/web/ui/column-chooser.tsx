// The Columns menu of a table: a checkbox per column the user may hide (machines/column-visibility.ts
// decides; the last shown column's checkbox is aria-disabled and says why), and the defaults again.
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useSelector } from '@xstate/react';
import { useId } from 'react';
import type { ActorRefFrom } from 'xstate';
import { selectHiddenColumns, selectIsDefault, type columnVisibilityMachine } from '../../../machines/column-visibility';
import { COLUMN_VISIBILITY_TEXTS as T } from '../../domain/texts';
import { Icon } from './icons';

export interface ChoosableColumn {
  readonly id: string;
  readonly label: string;
}

export function ColumnChooser({
  visibility,
  columns,
}: {
  visibility: ActorRefFrom<typeof columnVisibilityMachine>;
  /** The hideable columns, in table order. */
  columns: readonly ChoosableColumn[];
}) {
  const id = useId();
  const hidden = useSelector(visibility, selectHiddenColumns);
  const isDefault = useSelector(visibility, selectIsDefault);
  const shownCount = columns.filter((column) => !hidden.includes(column.id)).length;
  return (
    <Popover className="relative">
      <PopoverButton className="inline-flex h-10 items-center gap-2 rounded-md border border-slate-300 bg-white px-3 text-sm font-medium text-slate-800 hover:bg-slate-50">
        {T.button}
        <Icon name="chevronDown" className="h-4 w-4" />
      </PopoverButton>
      <PopoverPanel focus className="absolute right-0 z-30 mt-1 w-64 rounded-md border border-slate-200 bg-white p-3 shadow-lg">
        <fieldset>
          <legend className="mb-1 text-sm font-semibold text-slate-800">{T.legend}</legend>
          <ul>
            {columns.map((column) => {
              const shown = !hidden.includes(column.id);
              // The last shown column stays: its checkbox is focusable, marked unavailable, and says why.
              const last = shown && shownCount === 1;
              return (
                <li key={column.id}>
                  <label className="flex cursor-pointer items-center gap-2 px-1 py-1.5 text-sm">
                    <input
                      type="checkbox"
                      checked={shown}
                      aria-disabled={last || undefined}
                      aria-describedby={last ? `${id}-last` : undefined}
                      onChange={() => visibility.send({ type: 'columns.toggle', columnId: column.id })}
                    />
                    {column.label}
                  </label>
                </li>
              );
            })}
          </ul>
          {shownCount === 1 && (
            <p id={`${id}-last`} className="px-1 text-xs text-slate-600">
              {T.lastColumn}
            </p>
          )}
        </fieldset>
        <button
          type="button"
          aria-disabled={isDefault}
          onClick={() => visibility.send({ type: 'columns.reset' })}
          className="mt-2 text-sm font-medium text-brand-700 underline aria-disabled:cursor-not-allowed aria-disabled:text-slate-500 aria-disabled:no-underline"
        >
          {T.reset}
        </button>
      </PopoverPanel>
    </Popover>
  );
}
