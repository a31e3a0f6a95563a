// Messages (SPEC sections 3 and 4): an organization's inbox, newest first, its unread
// count and its single and bulk updates. Every statement names the organization, so another's
// message is never read, changed or counted. The page reads its view's index of migration 0009
// in order and stops at offset + limit:
// - the default view (archived hidden): messages_participant_idx (participant_id, archived, created_at desc, id desc);
// - archived=true (all): messages_participant_created_idx (participant_id, created_at desc, id desc).
// The totals and the unread count are one row of message_counts, kept exact by the statement
// triggers of migration 0010 (counting the largest inbox took tens of milliseconds per request).
// The list and the unread count are prepared by name (planning is a large share of their cost and
// their plans do not depend on the values), as loan-list-repository.ts does for the asset list.
import type { Message } from '../../contract/messages';
import type { Database } from './database';
import { poolOf } from './pg-pool';
import type { SqlQuery } from './loan-list-query';
import { pageSql } from './paging';
import { retryOnConflict } from './write-transaction';

export interface MessagePageRequest {
  readonly limit: number;
  readonly offset: number;
  /** true: archived messages are listed too; false: hidden (the default view). */
  readonly archived: boolean;
}

export interface MessagePage {
  readonly messages: Message[];
  /** Messages of this view (all pages). */
  readonly totalCount: number;
  /** Unread messages that are not archived (whatever the view). */
  readonly unreadCount: number;
}

/** `read` or `archived`, set to the value given. */
export type MessageChange = { readonly read: boolean } | { readonly archived: boolean };

type NamedQuery = SqlQuery & { readonly name: string };

interface MessageRow {
  id: string;
  created_at: Date;
  participant_id: string;
  target_type: Message['targetType'];
  target_id: string;
  message: string;
  read: boolean;
  archived: boolean;
  is_actionable: boolean;
  response: boolean | null;
}

const MESSAGE_COLUMNS =
  'm.id, m.created_at, m.participant_id, m.target_type, m.target_id, m.message, m.read, m.archived, m.is_actionable, m.response';

function toMessage(row: MessageRow): Message {
  return {
    uuid: row.id,
    created: row.created_at.toISOString(),
    participantId: row.participant_id,
    targetType: row.target_type,
    targetId: row.target_id,
    messageData: {
      message: row.message,
      read: row.read,
      archived: row.archived,
      isActionable: row.is_actionable,
      response: row.response,
    },
  };
}

/**
 * One page of a view with the view's total and the unread count, in one statement and one round
 * trip (one snapshot): the counts from message_counts, the page from the view's index. A page
 * past the end still gives one row (id null) carrying the counts.
 */
/** Newest first: the inbox's one order (its indexes match it). */
const NEWEST_FIRST = { columns: { created: 'created_at' }, sort: { column: 'created', direction: 'desc' }, tieBreaker: 'id' } as const;

export function messagePageSql(participantId: string, page: MessagePageRequest): NamedQuery {
  const view = page.archived ? 'participant_id = $1' : 'participant_id = $1 AND archived = false';
  const paged = pageSql(NEWEST_FIRST, page, 2);
  return {
    name: page.archived ? 'messages_page_all' : 'messages_page_unarchived',
    text: `SELECT coalesce(c.${page.archived ? 'total' : 'unarchived'}, 0) AS total, coalesce(c.unread, 0) AS unread, ${MESSAGE_COLUMNS}
     FROM (SELECT 1) one
     LEFT JOIN message_counts c ON c.participant_id = $1
     LEFT JOIN LATERAL (
       SELECT * FROM messages WHERE ${view} ${paged.sql}
     ) m ON true
     ORDER BY m.created_at DESC, m.id DESC`,
    values: [participantId, ...paged.values],
  };
}

/** Unread and not archived: the organization's row of message_counts (0 without one). */
export function unreadCountSql(participantId: string): NamedQuery {
  return {
    name: 'messages_unread_count',
    text: `SELECT coalesce((SELECT unread FROM message_counts WHERE participant_id = $1), 0) AS unread`,
    values: [participantId],
  };
}

const changeColumn = (change: MessageChange): { column: 'read' | 'archived'; value: boolean } =>
  'read' in change ? { column: 'read', value: change.read } : { column: 'archived', value: change.archived };

/** Sets read or archived on the listed messages of the organization (the primary key finds them); others' ids match nothing. */
export function bulkUpdateSql(participantId: string, messageIds: readonly string[], change: MessageChange): SqlQuery {
  const { column, value } = changeColumn(change);
  return {
    text: `UPDATE messages SET ${column} = $3 WHERE id = ANY($2::uuid[]) AND participant_id = $1`,
    values: [participantId, messageIds, value],
  };
}

export async function listMessages(db: Database, participantId: string, page: MessagePageRequest): Promise<MessagePage> {
  const { rows } = await poolOf(db).query<(MessageRow & { total: number; unread: number }) | { id: null; total: number; unread: number }>(
    messagePageSql(participantId, page),
  );
  const first = rows[0];
  return {
    messages: rows.filter((row): row is MessageRow & { total: number; unread: number } => row.id !== null).map(toMessage),
    totalCount: first?.total ?? 0,
    unreadCount: first?.unread ?? 0,
  };
}

export async function countUnreadMessages(db: Database, participantId: string): Promise<number> {
  const { rows } = await poolOf(db).query<{ unread: number }>(unreadCountSql(participantId));
  return rows[0]?.unread ?? 0;
}

/** The organization's message; undefined for an unknown one and another organization's alike. */
export async function findMessage(db: Database, participantId: string, messageId: string): Promise<Message | undefined> {
  const { rows } = await poolOf(db).query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.id = $2 AND m.participant_id = $1`,
    [participantId, messageId],
  );
  const row = rows[0];
  return row && toMessage(row);
}

/** Sets read or archived on one message of the organization and gives it back; undefined when it is not the organization's. */
export async function updateMessage(
  db: Database,
  participantId: string,
  messageId: string,
  change: MessageChange,
): Promise<Message | undefined> {
  const { column, value } = changeColumn(change);
  const { rows } = await poolOf(db).query<MessageRow>(
    `UPDATE messages m SET ${column} = $3 WHERE m.id = $2 AND m.participant_id = $1 RETURNING ${MESSAGE_COLUMNS}`,
    [participantId, messageId, value],
  );
  const row = rows[0];
  return row && toMessage(row);
}

/** One UPDATE over the listed messages; the number of the organization's messages among them (each counted once). */
export async function updateMessages(
  db: Database,
  participantId: string,
  messageIds: readonly string[],
  change: MessageChange,
): Promise<number> {
  // Two bulk updates of one organization may lock shared rows in different orders (an index scan
  // for a few ids, a bitmap scan for many): the statement then runs again after a deadlock.
  const result = await retryOnConflict(() => poolOf(db).query(bulkUpdateSql(participantId, messageIds, change)));
  return result.rowCount ?? 0;
}
