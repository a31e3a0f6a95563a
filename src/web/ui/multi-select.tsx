// A searchable multi-select (SPEC section 9): the button reads 'Selected (N)'; its panel holds a
// search (debounced 500 ms by the multi-select machine), 'Select All' over the shown options,
// 'Items shown' and 'No results'. The owner holds the selection (`selected`, `onChange`).
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useId } from 'react';
import {
  allShownSelected,
  multiSelectMachine,
  selectAppliedQuery,
  selectQuery,
  shownOptions,
  toggleAllShown,
  toggleValue,
  type MultiSelectOption,
} from '../../../machines/multi-select';
import { MULTI_SELECT_TEXTS } from '../../domain/texts';
import { Icon } from './icons';

export interface MultiSelectProps {
  readonly label: string;
  readonly options: readonly MultiSelectOption[];
  readonly selected: readonly string[];
  readonly onChange: (selected: string[]) => void;
}

export function MultiSelect({ label, options, selected, onChange }: MultiSelectProps) {
  const search = useActorRef(multiSelectMachine);
  const query = useSelector(search, selectQuery);
  const appliedQuery = useSelector(search, selectAppliedQuery);
  const shown = shownOptions(options, appliedQuery);
  const id = useId();
  const everyShownSelected = allShownSelected(selected, shown);
  const someShownSelected = shown.some((option) => selected.includes(option.value));
  // The panel's search box unmounts when the list closes, whatever closed it (Escape, a click
  // outside, the button by mouse or keyboard): the search starts over, so the next opening
  // shows every option. A stable callback: React calls it with null only on that unmount.
  const resetOnClose = useCallback(
    (field: HTMLInputElement | null) => {
      if (field === null) search.send({ type: 'multiSelect.reset' });
    },
    [search],
  );
  return (
    <div className="flex flex-col gap-1">
      <span id={`${id}-label`} className="text-sm font-medium text-slate-700">
        {label}
      </span>
      <Popover className="relative">
        <PopoverButton
          aria-labelledby={`${id}-label ${id}-value`}
          className="flex h-10 min-w-44 items-center justify-between gap-2 rounded-md border border-slate-300 bg-white px-3 text-left text-sm"
        >
          <span id={`${id}-value`}>{MULTI_SELECT_TEXTS.selected(selected.length)}</span>
          <Icon name="chevronDown" className="h-4 w-4" />
        </PopoverButton>
        <PopoverPanel focus className="absolute left-0 z-30 mt-1 w-72 rounded-md border border-slate-200 bg-white p-3 shadow-lg">
          <label htmlFor={`${id}-search`} className="sr-only">
            {MULTI_SELECT_TEXTS.search(label)}
          </label>
          <input
            id={`${id}-search`}
            ref={resetOnClose}
            type="search"
            value={query}
            placeholder={MULTI_SELECT_TEXTS.search(label)}
            autoComplete="off"
            className="mb-2 h-9 w-full rounded-md border border-slate-300 px-2 text-sm"
            onChange={(event) => search.send({ type: 'multiSelect.search', query: event.target.value })}
          />
          <fieldset>
            <legend className="sr-only">{label}</legend>
            {shown.length === 0 ? (
              <p className="px-1 py-2 text-sm text-slate-600">{MULTI_SELECT_TEXTS.noResults}</p>
            ) : (
              <>
                <label className="flex cursor-pointer items-center gap-2 border-b border-slate-100 px-1 py-2 text-sm font-medium">
                  <input
                    type="checkbox"
                    checked={everyShownSelected}
                    ref={(box) => {
                      if (box) box.indeterminate = someShownSelected && !everyShownSelected;
                    }}
                    onChange={() => onChange(toggleAllShown(options, selected, shown))}
                  />
                  {MULTI_SELECT_TEXTS.selectAll}
                </label>
                <ul className="max-h-64 overflow-auto">
                  {shown.map((option) => (
                    <li key={option.value}>
                      <label className="flex cursor-pointer items-center gap-2 px-1 py-1.5 text-sm">
                        <input
                          type="checkbox"
                          checked={selected.includes(option.value)}
                          onChange={() => onChange(toggleValue(options, selected, option.value))}
                        />
                        {option.label}
                      </label>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </fieldset>
          <p role="status" className="mt-2 text-xs text-slate-500">
            {MULTI_SELECT_TEXTS.itemsShown}: {shown.length}
          </p>
        </PopoverPanel>
      </Popover>
    </div>
  );
}
