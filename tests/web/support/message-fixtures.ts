// Typed sample messages for the messages machines and screen tests, built through the contract
// schema so they stay valid.
import { messageListSchema, messageSchema, type Message, type MessageList } from '../../../src/contract/messages';

export const ORGANIZATION_ID = '00000000-0000-4000-8000-000000000001';
export const messageUuid = (index: number): string => `30000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
export const loanIdOfMessage = (index: number): string => `10000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;

/** A text over 150 characters (SPEC section 9 shortens it). */
export const LONG_TEXT =
  'Harbor Capital requests to become the servicer of loan 1000000013. Confirm to accept the transfer of servicing rights, ' +
  'or reject it to keep the current servicer. The request expires in thirty days.';

export function sampleMessage(
  index: number,
  overrides: Partial<Omit<Message, 'messageData'>> & { messageData?: Partial<Message['messageData']> } = {},
): Message {
  const { messageData, ...rest } = overrides;
  return messageSchema.parse({
    uuid: messageUuid(index),
    created: new Date(Date.UTC(2025, 5, 1, 12, 0, 0) - index * 60_000).toISOString(),
    participantId: ORGANIZATION_ID,
    targetType: 'LOAN',
    targetId: loanIdOfMessage(index),
    ...rest,
    messageData: {
      message: `Loan ${1000000000 + index} changed hands.`,
      read: false,
      archived: false,
      isActionable: false,
      response: null,
      ...messageData,
    },
  });
}

/** A message with its flags changed, as the server would answer after a PATCH. */
export const withData = (message: Message, data: Partial<Message['messageData']>): Message => ({
  ...message,
  messageData: { ...message.messageData, ...data },
});

export function sampleMessageList(messages: readonly Message[], totals: { totalCount?: number; unreadCount?: number } = {}): MessageList {
  return messageListSchema.parse({
    messages,
    totalCount: totals.totalCount ?? messages.length,
    unreadCount: totals.unreadCount ?? messages.filter((m) => !m.messageData.read && !m.messageData.archived).length,
  });
}
