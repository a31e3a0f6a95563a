// The walk of the message-count machine: what its model-based test
// (tests/web/message-count-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import type { messageCountMachine } from '../../../machines/message-count';
import { HttpError } from '../../../src/contract/http-error';
import type { WalkerOptions } from '../support/model-coverage';

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

/** What the server answers (above the cap) and what the messages screen reports (below it). */
export const LOADED = 12;

export const REPORTED = 3;

export const walk: WalkerOptions<typeof messageCountMachine> = {
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    'messageCount.changed': { unreadCount: REPORTED },
    'done: fetchUnreadCount': { output: LOADED },
    'error: fetchUnreadCount': { error: serverError },
  },
};
