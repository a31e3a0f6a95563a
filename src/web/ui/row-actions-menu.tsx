// A row's actions menu (Headless UI Menu): links, reachable by keyboard, named after the row.
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { Link } from 'react-router-dom';
import { InPagePortal } from './page-portal';

export interface RowAction {
  readonly label: string;
  readonly to: string;
  /** Router state the link carries (e.g. the list view to return to). */
  readonly state?: unknown;
}

export function RowActionsMenu({ label, actions }: { label: string; actions: readonly RowAction[] }) {
  return (
    <Menu>
      <MenuButton
        aria-label={label}
        className="inline-flex h-8 w-8 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 data-[open]:bg-slate-100"
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="h-5 w-5" fill="currentColor">
          <circle cx="12" cy="5" r="1.8" />
          <circle cx="12" cy="12" r="1.8" />
          <circle cx="12" cy="19" r="1.8" />
        </svg>
      </MenuButton>
      <InPagePortal>
        <MenuItems
          anchor="bottom end"
          modal={false}
          className="z-40 min-w-44 rounded-md border border-slate-200 bg-white p-1 text-sm shadow-lg focus:outline-none"
        >
          {actions.map((action) => (
            <MenuItem key={action.to}>
              <Link to={action.to} state={action.state} className="block rounded px-3 py-2 text-slate-800 data-[focus]:bg-brand-100">
                {action.label}
              </Link>
            </MenuItem>
          ))}
        </MenuItems>
      </InPagePortal>
    </Menu>
  );
}
