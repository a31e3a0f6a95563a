import { ORGANIZATION_SEARCH_THRESHOLD } from './constants';

interface OrganizationChoice {
  readonly participant: { readonly id: string; readonly name: string };
  readonly isDefault: boolean;
}

/** The stored organization when the user still belongs to it, else the default, else the first. */
export function chooseParticipantId(organizations: readonly OrganizationChoice[], storedId: string | null): string | null {
  if (storedId && organizations.some((entry) => entry.participant.id === storedId)) return storedId;
  return (organizations.find((entry) => entry.isDefault) ?? organizations[0])?.participant.id ?? null;
}

/** SPEC section 9: the switcher offers a search box above 8 organizations. */
export const needsOrganizationSearch = (count: number): boolean => count > ORGANIZATION_SEARCH_THRESHOLD;

export function filterOrganizations<T extends OrganizationChoice>(organizations: readonly T[], query: string): readonly T[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return organizations;
  return organizations.filter((entry) => entry.participant.name.toLowerCase().includes(needle));
}
