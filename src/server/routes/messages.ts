// Messages (SPEC sections 3, 4 and 7): GET v1 /messages (the current organization's inbox,
// newest first, archived ones only when asked, paged, with the view's total and the unread count),
// GET v1 /messages/unread-count (our addition), PATCH v1 /messages (one message: read, archived or
// the response to an actionable one) and PATCH v1 /messages/bulk (read or archived on a selection,
// in one statement). Another organization's message is 404 like an unknown one, and never counted.
import { auditActorOf } from '../audit/audit-actor';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import {
  messageBulkPatchSchema,
  messageBulkResultSchema,
  messageListQuerySchema,
  messageListSchema,
  messagePatchSchema,
  messageSchema,
  unreadCountSchema,
} from '../../contract/messages';
import { PATHS } from '../../contract/paths';
import { MESSAGE_ERRORS, MESSAGES_TEXTS } from '../../domain/messages';
import type { MessageChange } from '../db/message-repository';
import { NotFoundError } from '../domain-errors';
import { requireMembership } from '../plugins/access';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const OWNERSHIP =
  "A message belongs to the organization named by x-participant-id; another organization's message answers 404 exactly like an unknown one.";

/** The change a body asks for; the contract lets exactly one of read and archived through. */
const changeOf = (body: { read?: boolean | undefined; archived?: boolean | undefined }): MessageChange =>
  body.read !== undefined ? { read: body.read } : { archived: body.archived ?? false };

export async function messageRoutes(app: FastifyInstance): Promise<void> {
  const messages = app.repositories.messages;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get(
    PATHS.messages,
    {
      config: { access: 'member' },
      schema: {
        tags: ['messages'],
        summary: "The organization's messages, newest first",
        description:
          'Archived messages are hidden unless `archived=true` (then every message is listed). `totalCount` counts the ' +
          'messages of this view (all pages); `unreadCount` (our addition) counts the unread messages that are not archived.',
        querystring: messageListQuerySchema,
        response: { 200: messageListSchema, ...errors },
      },
    },
    async (request) => {
      const participantId = requireMembership(request).participant.id;
      const { limit, offset, archived } = request.query;
      return messages.listMessages(participantId, { limit, offset, archived });
    },
  );

  routes.get(
    PATHS.messagesUnreadCount,
    {
      config: { access: 'member' },
      schema: {
        tags: ['messages'],
        summary: 'Our addition: the number of unread messages that are not archived',
        description: 'Cheap enough for every screen (the navigation badge and the dashboard tile).',
        response: { 200: unreadCountSchema, ...errors },
      },
    },
    async (request) => ({ unreadCount: await messages.countUnreadMessages(requireMembership(request).participant.id) }),
  );

  routes.patch(
    PATHS.messages,
    {
      config: { access: 'member' },
      schema: {
        tags: ['messages'],
        summary: 'Marks one message read or unread, archives or unarchives it, or answers it',
        description:
          'The body carries `uuid` and exactly one of `read`, `archived` or `response`. `response` answers an actionable ' +
          'message (true confirm, false reject), marks it read and acts on the transfer it asks for, in one transaction: ' +
          'a message that takes no response is 400, one already answered 409. Answers the message as it now is. ' +
          OWNERSHIP,
        body: messagePatchSchema,
        response: { 200: messageSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => {
      const participantId = requireMembership(request).participant.id;
      const { uuid, response } = request.body;
      const messageId = uuid.toLowerCase();
      if (response !== undefined)
        return app.services.roleTransfers.answerMessage(
          { participantId, userId: request.registryUser?.id ?? null, messageId, response },
          auditActorOf(request),
        );
      const updated = await messages.updateMessage(participantId, messageId, changeOf(request.body));
      if (!updated) throw new NotFoundError(MESSAGE_ERRORS.notFound);
      return updated;
    },
  );

  routes.patch(
    PATHS.messagesBulk,
    {
      config: { access: 'member' },
      schema: {
        tags: ['messages'],
        summary: 'Marks the selected messages read or unread, or archives or unarchives them',
        description:
          `The body carries \`uuids\` (1 to 100; none is 400 '${MESSAGES_TEXTS.selectAtLeastOne}') and exactly one of ` +
          '`read` or `archived`. `messagesUpdated` counts the messages of the organization among them; ' +
          "another organization's or unknown uuids are left alone and not counted.",
        body: messageBulkPatchSchema,
        response: { 200: messageBulkResultSchema, ...errors },
      },
    },
    async (request) => {
      const participantId = requireMembership(request).participant.id;
      const { uuids } = request.body;
      return { messagesUpdated: await messages.updateMessages(participantId, uuids, changeOf(request.body)) };
    },
  );
}
