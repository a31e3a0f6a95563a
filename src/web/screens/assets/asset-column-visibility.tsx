// The asset tables' shown columns: the column-visibility machine over the asset columns, its
// choice remembered in the browser (browser-storage.ts), and the Columns menu that changes it.
// /assets/assets and a pool's assets share the choice.
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, type ReactNode } from 'react';
import { columnVisibilityMachine, selectHiddenColumns } from '../../../../machines/column-visibility';
import type { LoanListItem } from '../../../contract/loans';
import { ASSET_COLUMN_LABELS, DEFAULT_HIDDEN_ASSET_COLUMNS, HIDEABLE_ASSET_COLUMNS } from '../../../domain/asset-columns';
import { storedAssetColumns } from '../../app/browser-storage';
import { ColumnChooser } from '../../ui/column-chooser';
import type { DataTableColumn } from '../../ui/data-table';
import { assetColumns } from './asset-columns';

const choices = HIDEABLE_ASSET_COLUMNS.map((id) => ({ id, label: ASSET_COLUMN_LABELS[id] }));

const visibilityLogic = columnVisibilityMachine.provide({
  actions: { rememberHidden: (_, { hidden }) => storedAssetColumns.set(hidden) },
});

/** The shown asset columns (the row actions always among them) and the menu that chooses them. */
export function useAssetColumns(): { columns: readonly DataTableColumn<LoanListItem>[]; chooser: ReactNode } {
  const visibility = useActorRef(visibilityLogic, {
    input: { hideable: HIDEABLE_ASSET_COLUMNS, defaultHidden: DEFAULT_HIDDEN_ASSET_COLUMNS, stored: storedAssetColumns.get() },
  });
  const hidden = useSelector(visibility, selectHiddenColumns);
  const columns = useMemo(() => assetColumns.filter((column) => !column.id || !hidden.includes(column.id)), [hidden]);
  return { columns, chooser: <ColumnChooser visibility={visibility} columns={choices} /> };
}
