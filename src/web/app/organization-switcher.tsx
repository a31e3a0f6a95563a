// The organization switcher: a list for a few organizations, a searchable combobox above 8.
import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Field,
  Label,
  Listbox,
  ListboxButton,
  ListboxOption,
  ListboxOptions,
} from '@headlessui/react';
import { useActorRef, useSelector } from '@xstate/react';
import type { UserParticipant } from '../../contract/participants';
import { filterOrganizations, needsOrganizationSearch } from '../../domain/organizations';
import { MULTI_SELECT_TEXTS, NAVIGATION_LABELS } from '../../domain/texts';
import { organizationSwitcherMachine, selectOrganizationQuery } from '../../../machines/organization-switcher';
import { selectCurrentOrganization, selectOrganizations } from '../../../machines/session';
import { Icon } from '../ui/icons';
import { SessionActorContext } from './actor-contexts';

const optionClasses =
  'group flex cursor-pointer items-center gap-2 rounded px-3 py-2 text-sm text-slate-800 data-[focus]:bg-brand-100 data-[selected]:font-semibold';
// Options open in place (no portal): they stay inside the navigation landmark and leave the
// rest of the page reachable.
const panelClasses =
  'absolute left-0 z-40 mt-1 max-h-80 w-full min-w-56 overflow-auto rounded-md border border-slate-200 bg-white p-1 shadow-lg focus:outline-none';

export function OrganizationSwitcher() {
  const organizations = SessionActorContext.useSelector(selectOrganizations);
  const current = SessionActorContext.useSelector(selectCurrentOrganization);
  const session = SessionActorContext.useActorRef();
  const switchTo = (entry: UserParticipant | null) => {
    if (entry) session.send({ type: 'organization.switch', participantId: entry.participant.id });
  };
  const props = { organizations, current, onSwitch: switchTo };
  return (
    <Field>
      <Label className="mb-1 block text-xs font-semibold uppercase tracking-wide text-slate-300">
        {NAVIGATION_LABELS.switchOrganization}
      </Label>
      <div className="relative">
        {needsOrganizationSearch(organizations.length) ? <SearchableSwitcher {...props} /> : <ListSwitcher {...props} />}
      </div>
    </Field>
  );
}

interface SwitcherProps {
  readonly organizations: readonly UserParticipant[];
  readonly current: UserParticipant | null;
  readonly onSwitch: (entry: UserParticipant | null) => void;
}

const sameOrganization = (a: UserParticipant | null, b: UserParticipant | null) => a?.participant.id === b?.participant.id;

function OptionContent({ entry }: { entry: UserParticipant }) {
  return (
    <>
      <Icon name="check" className="invisible h-4 w-4 group-data-[selected]:visible" />
      {entry.participant.name}
    </>
  );
}

function ListSwitcher({ organizations, current, onSwitch }: SwitcherProps) {
  return (
    <Listbox value={current} onChange={onSwitch} by={sameOrganization}>
      <ListboxButton className="flex w-full items-center justify-between gap-2 rounded-md bg-white/10 px-3 py-2 text-left text-sm text-white hover:bg-white/20">
        <span className="truncate">{current?.participant.name ?? NAVIGATION_LABELS.chooseOrganization}</span>
        <Icon name="chevronDown" className="h-4 w-4 shrink-0" />
      </ListboxButton>
      <ListboxOptions modal={false} className={panelClasses}>
        {organizations.map((entry) => (
          <ListboxOption key={entry.participant.id} value={entry} className={optionClasses}>
            <OptionContent entry={entry} />
          </ListboxOption>
        ))}
      </ListboxOptions>
    </Listbox>
  );
}

function SearchableSwitcher({ organizations, current, onSwitch }: SwitcherProps) {
  const filter = useActorRef(organizationSwitcherMachine);
  const query = useSelector(filter, selectOrganizationQuery);
  const shown = filterOrganizations(organizations, query);
  return (
    <Combobox value={current} onChange={onSwitch} onClose={() => filter.send({ type: 'filter.clear' })} by={sameOrganization} immediate>
      {/* Named by the Field's visible label (WCAG 2.5.3, label in name); the placeholder says what to type. */}
      <ComboboxInput
        placeholder={NAVIGATION_LABELS.searchOrganizations}
        className="w-full rounded-md bg-white px-3 py-2 pr-8 text-sm text-slate-900"
        displayValue={(entry: UserParticipant | null) => entry?.participant.name ?? ''}
        onChange={(event) => filter.send({ type: 'filter.change', query: event.target.value })}
      />
      <ComboboxButton className="absolute top-0 right-0 h-9 px-2 text-slate-600" aria-label={NAVIGATION_LABELS.showOrganizations}>
        <Icon name="chevronDown" className="h-4 w-4" />
      </ComboboxButton>
      <ComboboxOptions modal={false} className={`${panelClasses} empty:invisible`}>
        {shown.map((entry) => (
          <ComboboxOption key={entry.participant.id} value={entry} className={optionClasses}>
            <OptionContent entry={entry} />
          </ComboboxOption>
        ))}
      </ComboboxOptions>
      {/* Not inside the listbox (only options belong there): a status beside it, read when it appears. */}
      <p role="status" className={shown.length === 0 ? `${panelClasses} px-3 py-2 text-sm text-slate-700` : 'sr-only'}>
        {shown.length === 0 ? MULTI_SELECT_TEXTS.noResults : ''}
      </p>
    </Combobox>
  );
}
