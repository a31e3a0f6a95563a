import { randomUUID } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/common';
import { messageBulkResultSchema, messageListSchema, messageSchema, unreadCountSchema, type Message } from '../../src/contract/messages';
import { PATHS } from '../../src/contract/paths';
import { MESSAGE_ERRORS, MESSAGES_TEXTS } from '../../src/domain/messages';
import { TEXTS } from '../../src/domain/texts';
import { messages } from '../../src/server/db/schema';
import { API_DOCS_PATH } from '../../src/server/plugins/openapi';
import { messageCountMismatches } from './support/message-counts';
import { type Caller, useRouteTest } from './support/route-test';
import { insertParticipant, insertUser } from './support/server-fixtures';

const server = useRouteTest();
/** The member, acting for Home unless a call names another organization. */
let member: Caller;
/** The member belongs to Home (default), Paging and Actions; Outsider's messages and header are someone else's. */
const ids = {} as Record<'home' | 'paging' | 'actions' | 'outsider', string>;

interface TestMessage {
  readonly createdAt: Date;
  readonly read?: boolean;
  readonly archived?: boolean;
  readonly message?: string;
  readonly id?: string;
}

/** Inserts messages of one organization (default: unread, not archived, on a loan). */
async function insertMessages(participantId: string, values: readonly TestMessage[]) {
  return server.db
    .insert(messages)
    .values(
      values.map((value, index) => ({
        ...(value.id ? { id: value.id } : {}),
        participantId,
        targetType: 'LOAN',
        targetId: randomUUID(),
        message: value.message ?? `Message ${index + 1}`,
        read: value.read ?? false,
        archived: value.archived ?? false,
        createdAt: value.createdAt,
      })),
    )
    .returning();
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

/** The rows as they are now, by id. */
async function stored(messageIds: readonly string[]) {
  const rows = await server.db
    .select()
    .from(messages)
    .where(inArray(messages.id, [...messageIds]));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The member's call, or (cookie: null) the same call without a session. */
const callerFor = (options: { cookie?: null; participantId?: string }) =>
  options.cookie === null ? server.anonymous.as(options.participantId ?? ids.home) : member.as(options.participantId ?? ids.home);

const get = (url: string, options: { cookie?: null; participantId?: string } = {}) => callerFor(options).get(url);

const patch = (url: string, payload: unknown, options: { cookie?: null; participantId?: string } = {}) =>
  callerFor(options).patch(url, payload);

const list = async (query: string, participantId: string) => {
  const response = await get(`${PATHS.messages}?${query}`, { participantId });
  expect(response.statusCode).toBe(200);
  return messageListSchema.parse(response.json());
};

const unreadCount = async (participantId: string) => {
  const response = await get(PATHS.messagesUnreadCount, { participantId });
  expect(response.statusCode).toBe(200);
  // The badge is asked on every screen: no cache may keep one organization's count.
  expect(response.headers['cache-control']).toBe('no-store');
  return unreadCountSchema.parse(response.json()).unreadCount;
};

const messageOf = (response: { json(): unknown }) => errorBodySchema.parse(response.json()).message;

beforeAll(async () => {
  for (const name of ['home', 'paging', 'actions', 'outsider'] as const) {
    ids[name] = (await insertParticipant(server.db, { name: `${name} Org` })).id;
  }
  await insertUser(server.db, {
    email: 'member@registry.test',
    memberships: [{ participantId: ids.home, isDefault: true }, { participantId: ids.paging }, { participantId: ids.actions, roles: [] }],
  });
  member = await server.signIn('member@registry.test');
});

describe('GET v1 /messages', () => {
  /** Paging's 25 messages, newest first: #0 is 1 minute old, #i is i + 1 minutes old, except #5 and #6 which share one instant. */
  let newestFirst: Message[];
  const archivedAt = new Set([2, 11, 24]);
  const readAt = new Set([0, 1, 2, 3, 7, 20]);

  beforeAll(async () => {
    const sameInstant = minutesAgo(6);
    const rows = await insertMessages(
      ids.paging,
      Array.from({ length: 25 }, (_, index) => ({
        createdAt: index === 5 || index === 6 ? sameInstant : minutesAgo(index + 1),
        read: readAt.has(index),
        archived: archivedAt.has(index),
        message: `Paging message ${index}`,
      })),
    );
    // The expected order: created descending, then id descending (the tie of #5 and #6).
    const ordered = [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
    newestFirst = ordered.map((row) => ({
      uuid: row.id,
      created: row.createdAt.toISOString(),
      participantId: ids.paging,
      targetType: 'LOAN',
      targetId: row.targetId,
      messageData: { message: row.message, read: row.read, archived: row.archived, isActionable: false, response: null },
    }));
    // Another organization's messages, newer than all of Paging's: never listed nor counted.
    await insertMessages(ids.outsider, [{ createdAt: new Date() }, { createdAt: new Date(), archived: true }]);
  });

  it("lists the organization's messages newest first in SPEC's shape, archived hidden, with the view's total and the unread count", async () => {
    const page = await list('limit=10', ids.paging);
    const unarchived = newestFirst.filter((message) => !message.messageData.archived);
    expect(page.totalCount).toBe(22);
    // Unread and not archived: 25 less the 6 read (one of them archived) less the 2 other archived ones.
    expect(page.unreadCount).toBe(17);
    expect(page.messages).toEqual(unarchived.slice(0, 10));
    const names = page.messages.map((message) => message.messageData.message.replace('Paging message ', '#'));
    expect(names.slice(0, 4)).toEqual(['#0', '#1', '#3', '#4']);
    expect(names.slice(6)).toEqual(['#7', '#8', '#9', '#10']);
    // #5 and #6 share their instant: the larger id comes first.
    expect([...names.slice(4, 6)].sort()).toEqual(['#5', '#6']);
    const [first, second] = page.messages.slice(4, 6);
    expect(first && second && first.uuid > second.uuid).toBe(true);
  });

  it('pages with limit and offset; a page past the end is empty and still carries the totals', async () => {
    const unarchived = newestFirst.filter((message) => !message.messageData.archived);
    const pages = [
      await list('limit=10&offset=0', ids.paging),
      await list('limit=10&offset=10', ids.paging),
      await list('limit=10&offset=20', ids.paging),
    ];
    expect(pages.map((page) => page.messages.length)).toEqual([10, 10, 2]);
    expect(pages.flatMap((page) => page.messages)).toEqual(unarchived);
    expect(pages.map((page) => page.totalCount)).toEqual([22, 22, 22]);
    const beyond = await list('limit=10&offset=100', ids.paging);
    expect(beyond).toEqual({ messages: [], totalCount: 22, unreadCount: 17 });
    // The default page size is 10.
    expect((await list('', ids.paging)).messages).toEqual(unarchived.slice(0, 10));
  });

  it('lists archived messages too with archived=true (and counts them), unread count unchanged', async () => {
    const all = await list('limit=50&archived=true', ids.paging);
    expect(all.totalCount).toBe(25);
    expect(all.unreadCount).toBe(17);
    expect(all.messages).toEqual(newestFirst);
    expect(all.messages.filter((message) => message.messageData.archived).map((message) => message.messageData.message)).toEqual([
      'Paging message 2',
      'Paging message 11',
      'Paging message 24',
    ]);
    const second = await list('limit=20&offset=20&archived=true', ids.paging);
    expect(second.messages).toEqual(newestFirst.slice(20));
    expect((await list('limit=50&archived=false', ids.paging)).totalCount).toBe(22);
  });

  it('shows an organization without messages an empty inbox', async () => {
    expect(await list('limit=10', ids.home)).toEqual({ messages: [], totalCount: 0, unreadCount: 0 });
    expect(await unreadCount(ids.home)).toBe(0);
  });

  it('refuses a page size outside SPEC, a negative offset and an archived flag that is not true or false (400 naming it)', async () => {
    for (const [query, field] of [
      ['limit=7', 'limit'],
      ['offset=-1', 'offset'],
      ['archived=yes', 'archived'],
    ]) {
      const response = await get(`${PATHS.messages}?${query}`, { participantId: ids.paging });
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toContain(`querystring.${field}`);
    }
  });
});

describe('PATCH v1 /messages (read and archived) and the unread count', () => {
  it('marks read and unread, archives and unarchives one message, answering it; the unread count follows', async () => {
    const [target, other] = await insertMessages(ids.actions, [{ createdAt: minutesAgo(3) }, { createdAt: minutesAgo(2) }]);
    if (!target || !other) throw new Error('not inserted');
    const base = await unreadCount(ids.actions);
    const act = async (change: Record<string, boolean>) => {
      const response = await patch(PATHS.messages, { uuid: target.id, ...change }, { participantId: ids.actions });
      expect(response.statusCode).toBe(200);
      return messageSchema.parse(response.json());
    };

    const read = await act({ read: true });
    expect(read).toMatchObject({ uuid: target.id, participantId: ids.actions, messageData: { read: true, archived: false } });
    expect(await unreadCount(ids.actions)).toBe(base - 1);

    expect((await act({ read: false })).messageData).toMatchObject({ read: false, archived: false });
    expect(await unreadCount(ids.actions)).toBe(base);

    // Archiving an unread message takes it out of the unread count and out of the default view.
    const archived = await act({ archived: true });
    expect(archived.messageData).toMatchObject({ read: false, archived: true });
    expect(await unreadCount(ids.actions)).toBe(base - 1);
    const view = await list('limit=100', ids.actions);
    expect(view.unreadCount).toBe(base - 1);
    expect(view.messages.map((message) => message.uuid)).not.toContain(target.id);
    expect((await list('limit=100&archived=true', ids.actions)).messages.map((message) => message.uuid)).toContain(target.id);

    const unarchived = await act({ archived: false });
    expect(unarchived.messageData).toMatchObject({ read: false, archived: false });
    expect(await unreadCount(ids.actions)).toBe(base);
    expect(unarchived).toEqual({ ...read, messageData: { ...read.messageData, read: false } });

    // Only that message changed.
    const rows = await stored([target.id, other.id]);
    expect(rows.get(target.id)).toMatchObject({ read: false, archived: false });
    expect(rows.get(other.id)).toMatchObject({ read: false, archived: false });
  });

  it("answers 404 for another organization's message exactly as for an unknown one, and leaves it unchanged", async () => {
    const [foreign] = await insertMessages(ids.outsider, [{ createdAt: minutesAgo(1) }]);
    if (!foreign) throw new Error('not inserted');
    const foreignResponse = await patch(PATHS.messages, { uuid: foreign.id, read: true });
    const unknownResponse = await patch(PATHS.messages, { uuid: randomUUID(), read: true });
    for (const response of [foreignResponse, unknownResponse]) {
      expect(response.statusCode).toBe(404);
      expect(messageOf(response)).toBe(MESSAGE_ERRORS.notFound);
    }
    expect(foreignResponse.json()).toEqual(unknownResponse.json());
    expect((await patch(PATHS.messages, { uuid: foreign.id, archived: true })).statusCode).toBe(404);
    expect((await stored([foreign.id])).get(foreign.id)).toMatchObject({ read: false, archived: false });
  });

  it("refuses a response to a message that takes none (400) and to another organization's (404), changing neither", async () => {
    const [plain] = await insertMessages(ids.actions, [{ createdAt: minutesAgo(1) }]);
    const [foreign] = await insertMessages(ids.outsider, [{ createdAt: minutesAgo(1) }]);
    if (!plain || !foreign) throw new Error('not inserted');
    const notActionable = await patch(PATHS.messages, { uuid: plain.id, response: true }, { participantId: ids.actions });
    expect(notActionable.statusCode).toBe(400);
    expect(messageOf(notActionable)).toBe(MESSAGE_ERRORS.notActionable);
    const foreignAnswer = await patch(PATHS.messages, { uuid: foreign.id, response: false }, { participantId: ids.actions });
    expect(foreignAnswer.statusCode).toBe(404);
    expect(messageOf(foreignAnswer)).toBe(MESSAGE_ERRORS.notFound);
    const rows = await stored([plain.id, foreign.id]);
    for (const row of rows.values()) expect(row).toMatchObject({ read: false, response: null });
  });

  it('refuses a body with both read and archived, with none of them, or with an invalid uuid (400)', async () => {
    const [target] = await insertMessages(ids.actions, [{ createdAt: minutesAgo(1) }]);
    if (!target) throw new Error('not inserted');
    for (const [body, where] of [
      [{ uuid: target.id, read: true, archived: true }, 'body:'],
      [{ uuid: target.id, read: true, response: true }, 'body:'],
      [{ uuid: target.id }, 'body:'],
      [{ uuid: 'not-a-uuid', read: true }, 'body.uuid:'],
      [{ read: true }, 'body.uuid:'],
      [{ uuid: target.id, read: 'yes' }, 'body.read:'],
    ] as const) {
      const response = await patch(PATHS.messages, body, { participantId: ids.actions });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(messageOf(response)).toContain(where);
    }
    expect((await stored([target.id])).get(target.id)).toMatchObject({ read: false, archived: false });
  });
});

describe('PATCH v1 /messages/bulk', () => {
  it("archives and reads the selected messages in one call, counting only the organization's own", async () => {
    const own = await insertMessages(
      ids.actions,
      Array.from({ length: 4 }, (_, index) => ({ createdAt: minutesAgo(30 + index) })),
    );
    const [foreign] = await insertMessages(ids.outsider, [{ createdAt: minutesAgo(1) }]);
    if (!foreign) throw new Error('not inserted');
    const ownIds = own.map((row) => row.id);
    const before = await unreadCount(ids.actions);
    const bulk = async (body: Record<string, unknown>) => {
      const response = await patch(PATHS.messagesBulk, body, { participantId: ids.actions });
      expect(response.statusCode).toBe(200);
      return messageBulkResultSchema.parse(response.json()).messagesUpdated;
    };

    // Three of its own, another organization's, an unknown one and a repeated one.
    const selection = [ownIds[0], ownIds[1], ownIds[2], foreign.id, randomUUID(), ownIds[0]];
    expect(await bulk({ uuids: selection, read: true })).toBe(3);
    expect(await unreadCount(ids.actions)).toBe(before - 3);
    let rows = await stored([...ownIds, foreign.id]);
    expect(ownIds.map((id) => rows.get(id)?.read)).toEqual([true, true, true, false]);
    expect(rows.get(foreign.id)).toMatchObject({ read: false, archived: false });

    expect(await bulk({ uuids: [ownIds[2], ownIds[3], foreign.id], archived: true })).toBe(2);
    rows = await stored([...ownIds, foreign.id]);
    expect(ownIds.map((id) => rows.get(id)?.archived)).toEqual([false, false, true, true]);
    expect(rows.get(foreign.id)).toMatchObject({ read: false, archived: false });
    // ownIds[3] was unread: archiving it leaves the unread count.
    expect(await unreadCount(ids.actions)).toBe(before - 4);
    const view = (await list('limit=100', ids.actions)).messages.map((message) => message.uuid);
    expect(view).toEqual(expect.arrayContaining([ownIds[0], ownIds[1]]));
    expect(view).not.toContain(ownIds[2]);
    expect(view).not.toContain(ownIds[3]);

    // Unarchive and mark unread: back where they started.
    expect(await bulk({ uuids: ownIds, archived: false })).toBe(4);
    expect(await bulk({ uuids: ownIds, read: false })).toBe(4);
    expect(await unreadCount(ids.actions)).toBe(before);
    // Only another organization's messages: nothing counted, nothing changed.
    expect(await bulk({ uuids: [foreign.id], archived: true })).toBe(0);
    expect((await stored([foreign.id])).get(foreign.id)).toMatchObject({ read: false, archived: false });
  });

  it("refuses an empty selection with SPEC's text 'Must select at least one message!' (400)", async () => {
    for (const body of [
      { uuids: [], archived: true },
      { uuids: [], read: true },
    ]) {
      const response = await patch(PATHS.messagesBulk, body);
      expect(response.statusCode).toBe(400);
      expect(messageOf(response)).toContain(MESSAGES_TEXTS.selectAtLeastOne);
    }
  });

  it('refuses more than 100 uuids, an invalid uuid, both read and archived, or neither (400), changing nothing', async () => {
    const [target] = await insertMessages(ids.actions, [{ createdAt: minutesAgo(1) }]);
    if (!target) throw new Error('not inserted');
    const hundred = Array.from({ length: 100 }, () => randomUUID());
    for (const [body, where] of [
      [{ uuids: [target.id, ...hundred], read: true }, 'body.uuids:'],
      [{ uuids: [target.id, 'not-a-uuid'], read: true }, 'body.uuids.1:'],
      [{ uuids: [target.id], read: true, archived: true }, 'body:'],
      [{ uuids: [target.id] }, 'body:'],
      [{ uuids: target.id, read: true }, 'body.uuids:'],
    ] as const) {
      const response = await patch(PATHS.messagesBulk, body, { participantId: ids.actions });
      expect(response.statusCode, where).toBe(400);
      expect(messageOf(response)).toContain(where);
      expect(messageOf(response)).not.toContain(MESSAGES_TEXTS.selectAtLeastOne);
    }
    expect((await stored([target.id])).get(target.id)).toMatchObject({ read: false, archived: false });
    // Exactly 100 is allowed.
    const response = await patch(
      PATHS.messagesBulk,
      { uuids: [target.id, ...hundred.slice(1)], read: true },
      { participantId: ids.actions },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ messagesUpdated: 1 });
  });
});

describe('access', () => {
  const calls = () => [
    { method: 'GET', url: `${PATHS.messages}?limit=10` },
    { method: 'GET', url: PATHS.messagesUnreadCount },
    { method: 'PATCH', url: PATHS.messages, payload: { uuid: randomUUID(), read: true } },
    { method: 'PATCH', url: PATHS.messagesBulk, payload: { uuids: [randomUUID()], read: true } },
  ];

  it('refuses every messages call without a session (401)', async () => {
    for (const call of calls()) {
      const response =
        call.method === 'GET' ? await get(call.url, { cookie: null }) : await patch(call.url, call.payload, { cookie: null });
      expect(response.statusCode, call.url).toBe(401);
    }
  });

  it("refuses every messages call for an organization the caller does not belong to (403 'Invalid participant')", async () => {
    for (const call of calls()) {
      const response =
        call.method === 'GET'
          ? await get(call.url, { participantId: ids.outsider })
          : await patch(call.url, call.payload, { participantId: ids.outsider });
      expect(response.statusCode, call.url).toBe(403);
      expect(messageOf(response)).toBe(TEXTS.invalidParticipantBody);
    }
  });

  it('documents the unread count (our addition) and the message calls in OpenAPI', async () => {
    const document = (await server.anonymous.get(`${API_DOCS_PATH}/json`)).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(document.paths[PATHS.messagesUnreadCount] ?? {})).toEqual(['get']);
    expect(Object.keys(document.paths[PATHS.messages] ?? {}).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(document.paths[PATHS.messagesBulk] ?? {})).toEqual(['patch']);
  });

  it('keeps the stored counts equal to a recount after every change above, a delete and a truncate', async () => {
    expect(await messageCountMismatches(server.database)).toEqual([]);
    // Deletes (a participant's cascade among them) decrement; a truncate empties the counts.
    await server.db.delete(messages).where(inArray(messages.participantId, [ids.paging]));
    expect(await messageCountMismatches(server.database)).toEqual([]);
    const unread = await get(PATHS.messagesUnreadCount, { participantId: ids.paging });
    expect(unreadCountSchema.parse(unread.json()).unreadCount).toBe(0);
    await server.database.owner.db.execute(sql`truncate messages cascade`);
    expect(await messageCountMismatches(server.database)).toEqual([]);
  });
});
