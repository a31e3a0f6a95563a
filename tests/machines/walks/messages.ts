// The walk of the messages machine: what its model-based test
// (tests/web/messages-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { messagesMachine, MessagesSnapshot, MessagesView } from '../../../machines/messages';
import { HttpError } from '../../../src/contract/http-error';
import type { Message } from '../../../src/contract/messages';
import { LONG_TEXT, sampleMessage, sampleMessageList } from '../../web/support/message-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const [first, second, third] = [
  sampleMessage(1, { messageData: { message: LONG_TEXT } }),
  sampleMessage(2, { messageData: { read: true } }),
  sampleMessage(3, { targetType: 'POOL', messageData: { read: true, archived: true } }),
] as [Message, Message, Message];

export const pageOfThree = sampleMessageList([first, second, third], { totalCount: 25, unreadCount: 4 });

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

export const START_VIEW: MessagesView = { page: 1, limit: 10, archived: false };

/** State identity: the machine's state, whether a page came, how many messages have actors, the bulk action. */
export const serializeState = (snapshot: MessagesSnapshot) => {
  const { unreadCount, actors, bulk } = snapshot.context;
  return JSON.stringify([snapshot.value, unreadCount !== null, actors.length, bulk?.uuids.length ?? null]);
};

export const walk: WalkerOptions<typeof messagesMachine> = {
  input: { view: START_VIEW },
  serializeState,
  events: {
    'list.loaded': { output: { items: pageOfThree.messages, totalCount: 25, unreadCount: 4 } },
    // Read more: the first control used on a message gives it an actor.
    'message.act': { message: first, event: { type: 'message.expand' } },
    'bulk.apply': [
      { action: 'archive', uuids: [] },
      { action: 'archive', uuids: [first.uuid] },
    ],
    'done: updateMessages': { output: { messagesUpdated: 1 } },
    'error: updateMessages': { error: serverError },
  },
  // What the screen offers: controls on a page shown; a message's change (message.changed) once
  // it has an actor; one bulk action per walk.
  filterEvents: (snapshot, event) => {
    const { unreadCount, actors, bulk } = snapshot.context;
    const shown = unreadCount !== null;
    if (event.type === 'list.loaded') return actors.length === 0 && bulk === null;
    if (event.type === 'message.act') return shown && actors.length === 0 && bulk === null;
    if (event.type === 'message.changed') return actors.length === 1 && bulk === null;
    if (event.type === 'bulk.apply') return shown && actors.length === 0 && bulk === null;
    return true;
  },
};
