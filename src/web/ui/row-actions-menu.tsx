// A row's actions menu (Headless UI Menu): links, reachable by keyboard, named after the row. An
// action that cannot be taken now stays in the menu, reachable by keyboard like the others, marked
// aria-disabled and saying why (visible, and its accessible description): never a link to a dead end.
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { InPagePortal } from './page-portal';

export interface RowAction {
  readonly label: string;
  readonly to: string;
  /** Router state the link carries (e.g. the list view to return to). */
  readonly state?: unknown;
  /** Why the action cannot be taken now: shown instead of a link. */
  readonly disabledReason?: string | null;
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
          {actions.map((action) =>
            action.disabledReason ? (
              <DisabledAction key={action.to} label={action.label} reason={action.disabledReason} />
            ) : (
              <MenuItem key={action.to}>
                <Link to={action.to} state={action.state} className="block rounded px-3 py-2 text-slate-800 data-[focus]:bg-brand-100">
                  {action.label}
                </Link>
              </MenuItem>
            ),
          )}
        </MenuItems>
      </InPagePortal>
    </Menu>
  );
}

/** Focusable (Headless UI's own `disabled` would skip it, and its reason, from the keyboard); choosing it does nothing. */
function DisabledAction({ label, reason }: { label: string; reason: string }) {
  const id = useId();
  return (
    <MenuItem>
      <div
        aria-disabled="true"
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-reason`}
        onClick={(event) => event.preventDefault()}
        className="block max-w-64 cursor-not-allowed rounded px-3 py-2 text-slate-500 data-[focus]:bg-slate-100"
      >
        <span id={`${id}-label`}>{label}</span>
        <span id={`${id}-reason`} className="mt-0.5 block text-xs text-slate-700">
          {reason}
        </span>
      </div>
    </MenuItem>
  );
}
