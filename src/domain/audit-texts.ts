// The audit trail's texts: the asset page's Activity tab and the registry staff's audit log
// screen, and each audit row in plain words (who did what, and what changed).
import { partyRoleLabel } from './loan';

export const AUDIT_TEXTS = {
  activityTableLabel: 'Activity of this asset',
  activityLoading: 'Loading the activity…',
  activityEmpty: 'No activity recorded for this asset yet.',
  activityFailed: 'The activity could not be loaded.',
  when: 'When',
  who: 'Who',
  what: 'What happened',
  from: 'From address',
  registryStaff: 'Registry staff',
  jobRunner: 'The registry (automatic)',
  someoneAt: (organization: string) => organization,
  // The registry staff's search of the whole log (/administration/audit).
  logTitle: 'Audit log',
  logIntro: 'Every change made in the registry, newest first. Search by organization, user, entity and time.',
  logLink: 'Audit log',
  logLinkDescription: 'Search every change made in the registry and export it as CSV.',
  searchLabel: 'Search the audit log',
  organizationField: 'Organization id',
  userField: 'User (e-mail or id)',
  entityTypeField: 'Entity type',
  entityTypeAny: 'Any',
  entityIdField: 'Entity or loan id',
  fromField: 'From',
  toField: 'To',
  search: 'Search',
  clear: 'Clear',
  logTableLabel: 'Audit log entries',
  logLoading: 'Loading the audit log…',
  logEmpty: 'No audit entries match.',
  logFailed: 'The audit log could not be loaded.',
  entity: 'Entity',
  exportCsv: 'Export CSV',
  exportingCsv: 'Exporting…',
  exportFailed: 'The audit log could not be exported. Try again.',
} as const;

/** The entity types the search offers (the log's target_type values). */
export const AUDIT_ENTITY_TYPES = [
  'role-request',
  'deactivation-request',
  'document',
  'organization',
  'user',
  'invitation',
  'profile',
] as const;

/** The parts of an audit row its plain words are made of. */
export interface AuditWords {
  readonly action: string;
  readonly actingOrganizationName: string | null;
  readonly actorEmail: string | null;
  readonly before: unknown;
  readonly after: unknown;
}

type Json = Record<string, unknown> | null | undefined;
const field = (value: unknown, key: string): unknown =>
  value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
const text = (value: unknown): string => (typeof value === 'string' && value !== '' ? value : '');
const nameOf = (value: unknown): string => text(field(value, 'name')) || text(field(value, 'participantName')) || 'another organization';
const roleOf = (entry: AuditWords): string => {
  const role = text(field(field(entry.after, 'party'), 'role')) || text(field(field(entry.after, 'event'), 'role'));
  return role ? partyRoleLabel(role).toLowerCase() : 'a';
};

/** Who acted, in words: the organization (or staff, or the registry itself), and the user when shown. */
export function auditActorWords(entry: Pick<AuditWords, 'actingOrganizationName' | 'actorEmail'>): string {
  const organization = entry.actingOrganizationName;
  if (organization && entry.actorEmail) return `${entry.actorEmail} (${organization})`;
  if (organization) return organization;
  if (entry.actorEmail) return `${entry.actorEmail} (${AUDIT_TEXTS.registryStaff})`;
  return AUDIT_TEXTS.jobRunner;
}

/** What happened, in one sentence. */
export function auditActionWords(entry: AuditWords): string {
  const after = entry.after as Json;
  const receiver = nameOf(field(field(after, 'request'), 'receiver'));
  const holderBefore = nameOf(field(entry.before, 'party'));
  switch (entry.action) {
    case 'role-transfer.requested':
      return `Asked ${receiver} to take over the ${roleOf(entry)} role (held by ${holderBefore}).`;
    case 'role-transfer.confirmed':
      return `${receiver} accepted the ${roleOf(entry)} role; it moved from ${holderBefore} to ${receiver}.`;
    case 'role-transfer.rejected':
      return `${receiver} declined to take over the ${roleOf(entry)} role; it stays with ${holderBefore}.`;
    case 'role-transfer.canceled':
      return `The request for ${receiver} to take over the ${roleOf(entry)} role was canceled.`;
    case 'deactivation.requested':
      return 'Requested the deactivation of this asset.';
    case 'deactivation.completed':
      return 'The asset was deactivated.';
    case 'deactivation.failed':
      return 'The deactivation request could not be processed.';
    case 'document.added':
      return `Added the document ${text(field(after, 'fileName')) || ''}.`.replace(' .', '.');
    default:
      return entry.action;
  }
}
