// Messages of SPEC sections 3, 4 and 7: the inbox, its single and bulk updates.
import { z } from 'zod';
import { MESSAGE_TARGET_TYPES } from '../domain/loan';
import { MESSAGES_TEXTS } from '../domain/messages';
import { pageAnswerOf, pageQueryOf } from './paging';

/** `true` or `false` as a query string carries them. */
const queryBooleanSchema = z.enum(['true', 'false']).transform((value) => value === 'true');

/** GET v1 /messages: newest first, archived ones only when asked. */
export const messageListQuerySchema = pageQueryOf({
  archived: queryBooleanSchema
    .default(false)
    .describe('true: archived messages are listed too; false (default): they are hidden, as the inbox shows by default'),
});
export type MessageListQuery = z.input<typeof messageListQuerySchema>;

/** SPEC section 3: a message. `response` (our addition) is the answer to an actionable message, null until given. */
export const messageSchema = z.object({
  uuid: z.uuid(),
  created: z.iso.datetime({ offset: true }),
  participantId: z.uuid(),
  targetType: z.enum(MESSAGE_TARGET_TYPES),
  targetId: z.string(),
  messageData: z.object({
    message: z.string(),
    read: z.boolean(),
    archived: z.boolean(),
    isActionable: z.boolean(),
    response: z.boolean().nullable().describe('Our addition: true confirmed, false rejected, null not answered (or not actionable)'),
  }),
});
export type Message = z.infer<typeof messageSchema>;

export const unreadCountSchema = z.object({
  unreadCount: z.number().int().min(0).describe('Our addition: unread messages that are not archived'),
});
export type UnreadCount = z.infer<typeof unreadCountSchema>;

export const messageListSchema = pageAnswerOf('messages', messageSchema, 'Messages in this view (all pages)').extend(
  unreadCountSchema.shape,
);
export type MessageList = z.infer<typeof messageListSchema>;

/** PATCH v1 /messages: one message, exactly one of read, archived or response. */
export const messagePatchSchema = z
  .object({
    uuid: z.uuid(),
    read: z.boolean().optional(),
    archived: z.boolean().optional(),
    response: z.boolean().optional().describe('Answer an actionable message: true confirm, false reject; marks it read'),
  })
  .refine((body) => [body.read, body.archived, body.response].filter((value) => value !== undefined).length === 1, {
    message: 'must carry exactly one of read, archived or response',
  });
export type MessagePatch = z.input<typeof messagePatchSchema>;

/** PATCH v1 /messages/bulk: the selected messages, exactly one of archived or read. */
export const messageBulkPatchSchema = z
  .object({
    uuids: z.array(z.uuid()).min(1, MESSAGES_TEXTS.selectAtLeastOne).max(100),
    read: z.boolean().optional(),
    archived: z.boolean().optional(),
  })
  .refine((body) => (body.read === undefined) !== (body.archived === undefined), {
    message: 'must carry exactly one of read or archived',
  });
export type MessageBulkPatch = z.input<typeof messageBulkPatchSchema>;

export const messageBulkResultSchema = z.object({
  messagesUpdated: z.number().int().min(0).describe("Messages of the current organization that were updated (others' are not counted)"),
});
export type MessageBulkResult = z.infer<typeof messageBulkResultSchema>;
