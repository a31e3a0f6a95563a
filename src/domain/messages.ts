// Messages of SPEC sections 4, 5, 8 and 9: texts, the bulk toasts and the display rules.
import { MESSAGE_PREVIEW_LENGTH, UNREAD_BADGE_CAP } from './constants';

export type BulkMessageAction = 'archive' | 'unarchive' | 'markRead' | 'markUnread';

const BULK_ACTION_PAST: Record<BulkMessageAction, string> = {
  archive: 'archived',
  unarchive: 'unarchived',
  markRead: 'marked as read',
  markUnread: 'marked as unread',
};

export const MESSAGES_TEXTS = {
  title: 'Messages',
  /** SPEC section 5: a batch action with nothing selected. */
  selectAtLeastOne: 'Must select at least one message!',
  /** SPEC section 8: bulk failure. */
  bulkFailed: 'Failed to update message(s)',
  /** SPEC section 8: '<n> message(s) archived, unarchived, marked as read or marked as unread'. */
  bulkSucceeded: (count: number, action: BulkMessageAction) => `${count} message(s) ${BULK_ACTION_PAST[action]}`,
  confirmed: 'Message confirmed',
  confirmFailed: 'Unable to confirm message',
  rejected: 'Message rejected',
  rejectFailed: 'Unable to reject message',
  archivedFilter: 'Archived',
  markRead: 'Mark read',
  markUnread: 'Mark unread',
  archive: 'Archive',
  unarchive: 'Unarchive',
  confirm: 'Confirm',
  reject: 'Reject',
  readMore: 'Read more',
  readLess: 'Show less',
  unread: 'Unread',
  read: 'Read',
  archivedBadge: 'Archived',
  answeredConfirmed: 'Confirmed',
  answeredRejected: 'Rejected',
  empty: 'No messages.',
  loading: 'Loading messages…',
  failed: 'The messages could not be loaded.',
  tableLabel: 'Messages',
  selectAll: 'Select all messages on this page',
  selectOne: (preview: string) => `Select message: ${preview}`,
  openAsset: 'Open asset',
  openPool: 'Open pool',
  openPartner: 'View partner profile',
  unreadCount: (count: number) => `${count} unread`,
  /** The messages screen: its reload, the bulk action group and the selection. */
  refresh: 'Refresh',
  bulkActions: 'Selected messages',
  selectedCount: (count: number) => `${count} selected`,
  clearSelection: 'Clear selection',
  /** The dashboard's Messages tile while the count loads, when it failed, and its retry. */
  unreadCountLoading: 'Counting unread messages…',
  unreadCountFailed: 'The unread count could not be loaded.',
  unreadCountRetry: 'Count unread messages again',
} as const;

/** Server answers that the web shows as they are (4xx bodies). */
export const MESSAGE_ERRORS = {
  notFound: 'Message not found',
  notActionable: 'This message does not take a response',
  alreadyAnswered: 'This message has already been answered',
} as const;

/** SPEC section 9: message text shortens at 150 characters; `shortened` tells whether it did. */
export function messagePreview(text: string): { text: string; shortened: boolean } {
  if (text.length <= MESSAGE_PREVIEW_LENGTH) return { text, shortened: false };
  return { text: `${text.slice(0, MESSAGE_PREVIEW_LENGTH).trimEnd()}…`, shortened: true };
}

/** SPEC section 2: the unread badge caps at '9+'; no badge for none. */
export function unreadBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(count);
}
