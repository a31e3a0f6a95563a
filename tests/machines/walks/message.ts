// The walk of the message machine: what its model-based test
// (tests/web/message-model.test.tsx) sends on every path,
// and the statechart explorer's input, service answers and tours.
import { createActor, createMachine, getNextSnapshot } from 'xstate';
import { messageMachine, type MessageSnapshot } from '../../../machines/message';
import { HttpError } from '../../../src/contract/http-error';
import type { Message } from '../../../src/contract/messages';
import { LONG_TEXT, sampleMessage, withData } from '../../web/support/message-fixtures';
import type { WalkerOptions } from '../support/model-coverage';

export const actionable = sampleMessage(1, { messageData: { message: LONG_TEXT, isActionable: true } });

export const plain = sampleMessage(2, { targetType: 'BATCH' });

export const serverError = new HttpError(500, '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}');

/** The model's stand-in for the list (the screen's own list receives the real `message.changed`). */
export const listStandIn = createActor(createMachine({}));

export type Flags = Pick<Message['messageData'], 'read' | 'archived' | 'response'>;

/** The message's flags as its states show them. */
export function flagsOf(snapshot: MessageSnapshot): Flags {
  return {
    read: snapshot.matches({ read: 'read' }) || snapshot.matches({ read: 'markingUnread' }),
    archived: snapshot.matches({ archive: 'archived' }) || snapshot.matches({ archive: 'unarchiving' }),
    response: snapshot.matches({ answer: 'confirmed' }) ? true : snapshot.matches({ answer: 'rejected' }) ? false : null,
  };
}

/** What the server answers to the call under way (a response also marks it read). */
export function answerTo(snapshot: MessageSnapshot): Flags {
  const flags = flagsOf(snapshot);
  if (snapshot.matches({ read: 'markingRead' }) || snapshot.matches({ read: 'opening' })) return { ...flags, read: true };
  if (snapshot.matches({ read: 'markingUnread' })) return { ...flags, read: false };
  if (snapshot.matches({ archive: 'archiving' })) return { ...flags, archived: true };
  if (snapshot.matches({ archive: 'unarchiving' })) return { ...flags, archived: false };
  if (snapshot.matches({ answer: 'confirming' })) return { ...flags, read: true, response: true };
  return { ...flags, read: true, response: false };
}

export const ALL_FLAGS: Flags[] = [false, true].flatMap((read) =>
  [false, true].flatMap((archived) => [null, true, false].map((response) => ({ read, archived, response }))),
);

/** Each region's first state (the actionable message as listed). */
export const BASE = { read: 'unread', archive: 'unarchived', answer: 'unanswered', text: 'collapsed' } as const;

export type Region = keyof typeof BASE;

export const REGION_OF: Record<string, Region> = {
  'message.markRead': 'read',
  'message.markUnread': 'read',
  'message.open': 'read',
  'message.archive': 'archive',
  'message.unarchive': 'archive',
  'message.confirm': 'answer',
  'message.reject': 'answer',
  'message.expand': 'text',
  'message.collapse': 'text',
};

export const awayFromBase = (snapshot: MessageSnapshot) =>
  (Object.keys(BASE) as Region[]).filter((region) => (snapshot.value as Record<Region, string>)[region] !== BASE[region]);
export const sameFlags = (a: Flags, b: Flags) => a.read === b.read && a.archived === b.archived && a.response === b.response;

export const walk: WalkerOptions<typeof messageMachine> = {
  input: { message: actionable, list: listStandIn },
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  events: {
    'done: updateMessage': ALL_FLAGS.map((flags) => ({ output: withData(actionable, flags) })),
    'error: updateMessage': { error: serverError },
    // A reload brings the message as the server has it.
    'message.sync': ALL_FLAGS.map((flags) => ({ message: withData(actionable, flags) })),
  },
  filterEvents: (snapshot, event) => {
    const away = awayFromBase(snapshot);
    const output = (event as { output?: Message }).output;
    // The server answers the call under way, and nothing else.
    if (output) return sameFlags(output.messageData, answerTo(snapshot));
    if (event.type === 'message.sync') {
      const { messageData } = (event as { message: Message }).message;
      const next = getNextSnapshot(messageMachine, snapshot, event);
      // A reload from a quiet row (no call, text collapsed, at most one region moved) that changes something.
      return (
        !snapshot.hasTag('busy') &&
        !away.includes('text') &&
        away.length <= 1 &&
        JSON.stringify(next.value) !== JSON.stringify(snapshot.value) &&
        (messageData.response === null || messageData.read)
      );
    }
    const region = REGION_OF[event.type];
    // A region is walked while the others are in their first state.
    return region === undefined || away.every((each) => each === region);
  },
};

/** A message that takes no response: its answer region starts (and stays) in notActionable. */
export const plainWalk: WalkerOptions<typeof messageMachine> = {
  input: { message: plain, list: listStandIn },
  serializeState: (snapshot) => JSON.stringify(snapshot.value),
  filterEvents: () => false,
};
