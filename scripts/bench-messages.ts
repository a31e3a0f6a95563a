// The message scenarios of `npm run bench`, on the organization with the most messages
// (at a million loans, tens of thousands): the inbox's first page and the unread count (GET, at
// the run's concurrency, through the shared load generator), a bulk update of 100 messages and
// the confirm of an actionable message (PATCH, in a child process of this module forked with
// --messages-client, as scripts/bench-deactivation.ts does).
//
// Writes leave a kept data folder as it was. The bulk update alternates archived true and false
// on 40 sets of 100 of the organization's own messages (consecutive requests never touch the same
// set, so they do not wait on each other's row locks) and puts every message's archived flag back
// afterwards. A message can be answered once, so the confirm scenario makes its own: loans owned
// by another organization (loan numbers BENCH-MSG-...), each asked through POST v1
// /loans/{loanId}/role-requests to pass its OWNER role to the measured organization, whose
// actionable messages are then confirmed one by one; the loans and their messages are removed
// afterwards (also those an interrupted run left).
//
// The writes run one at a time (BENCH_MESSAGES_WRITE_CONCURRENCY to change it): an inbox's
// answers and bulk edits are its people's clicks, one after another, not 16 requests in flight.
// Concurrent confirms to one organization would also queue on one row lock, its count row of the
// asset list index (loan_list_counts, updated by the loan_parties trigger), and measure the queue.
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PATHS } from '../src/contract/paths';
import { PARTICIPANT_HEADER } from '../src/domain/constants';
import { uliCheckDigits } from '../src/domain/uli';
import { httpScenario, runClosedLoop, type HttpScenarioSpec, type LoadResult } from './bench-load';

export const MESSAGE_SCENARIOS = {
  firstPage: 'messages: first page',
  unreadCount: 'messages: unread count',
  bulk: 'messages: bulk archive/unarchive (100)',
  confirm: 'messages: confirm a transfer',
} as const;
export const MESSAGES_WRITE_CONCURRENCY = Number(process.env.BENCH_MESSAGES_WRITE_CONCURRENCY) || 1;
/** SPEC's first page size. */
const PAGE_SIZE = 10;
const BULK_SIZE = 100;
/** Disjoint sets of BULK_SIZE messages the bulk scenario cycles through (more than any write concurrency). */
const BULK_SETS = 40;
/** Requests made for the confirm scenario: enough for the warm-up and the measured run on a 2-core machine (about 40 a second). */
const CONFIRM_REQUESTS = 1000;
/** Role requests sent at once while preparing them. */
const PREPARE_CONCURRENCY = 8;
const LOAN_NUMBER_PREFIX = 'BENCH-MSG-';
const CLIENT_FLAG = '--messages-client';
const BENCH_LEI = '5493001KJTIIGC8Y1R12';
const DEMO_ADMIN = 'admin@registry.test';

export interface MessageBenchData {
  readonly participantId: string;
  readonly participantName: string;
  /** All its messages, archived ones included. */
  readonly messages: number;
  /** A member who signs in for the scenarios (the demo admin when a member). */
  readonly email: string;
}

/** The organization with the most messages and a member of it; undefined when no organization has any. */
export async function messageBenchData(connectionString: string): Promise<MessageBenchData | undefined> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const largest = (
      await client.query<{ participant_id: string; name: string; messages: number }>(
        `SELECT m.participant_id, p.name, count(*)::int AS messages
           FROM messages m JOIN participants p ON p.id = m.participant_id
          WHERE p.is_active
          GROUP BY m.participant_id, p.name ORDER BY messages DESC, m.participant_id LIMIT 1`,
      )
    ).rows[0];
    if (!largest) return undefined;
    const member = (
      await client.query<{ email: string }>(
        `SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.participant_id = $1
          ORDER BY lower(u.email) = $2 DESC, u.email LIMIT 1`,
        [largest.participant_id, DEMO_ADMIN],
      )
    ).rows[0];
    if (!member) return undefined;
    return { participantId: largest.participant_id, participantName: largest.name, messages: largest.messages, email: member.email };
  } finally {
    await client.end();
  }
}

/** The inbox's two reads: its first page (archived hidden, as the screen opens) and the unread count. */
export function messageReadScenarios(baseUrl: string, cookie: string, data: MessageBenchData): HttpScenarioSpec[] {
  const headers = { cookie, [PARTICIPANT_HEADER]: data.participantId };
  const firstPage = new URLSearchParams({ limit: String(PAGE_SIZE), offset: '0' });
  return [
    httpScenario(MESSAGE_SCENARIOS.firstPage, {
      method: 'GET',
      url: `${baseUrl}${PATHS.messages}?${firstPage}`,
      headers,
      expectStatus: 200,
    }),
    httpScenario(MESSAGE_SCENARIOS.unreadCount, { method: 'GET', url: baseUrl + PATHS.messagesUnreadCount, headers, expectStatus: 200 }),
  ];
}

// ---------------------------------------------------------------------------------------------
// The write load generator (child process): PATCH requests with JSON bodies, each body sent once
// (or, with `cycle`, the bodies in turn), `concurrency` at a time.

export interface WriteLoadOptions {
  readonly warmupMs: number;
  readonly durationMs: number;
  readonly timeoutMs: number;
}

interface ClientRun {
  readonly type: 'run';
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bodies: readonly string[];
  /** Send the bodies in turn for as long as the run lasts; otherwise each once at most. */
  readonly cycle: boolean;
  readonly concurrency: number;
  readonly options: WriteLoadOptions;
}

type ClientAnswer = { readonly type: 'result'; readonly result: LoadResult } | { readonly type: 'error'; readonly message: string };

async function runClient(run: ClientRun): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  const exhausted = () => !run.cycle && next >= run.bodies.length;
  const send = (body: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const request = http.request(
        run.url,
        {
          method: 'PATCH',
          agent,
          signal: AbortSignal.timeout(run.options.timeoutMs),
          headers: {
            ...run.headers,
            origin: new URL(run.url).origin,
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('error', reject);
          response.on('end', () =>
            resolve(response.statusCode === 200 ? undefined : `status ${response.statusCode}: ${text.slice(0, 120)}`),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  const result = await runClosedLoop(run.name, { ...run.options, concurrency: run.concurrency }, () => {
    if (exhausted()) return undefined;
    const body = run.bodies[next++ % run.bodies.length] as string;
    return () => send(body);
  });
  agent.destroy();
  return result;
}

if (process.argv.includes(CLIENT_FLAG) && process.send) {
  process.on('disconnect', () => process.exit(0));
  process.once('message', (run: ClientRun) => {
    runClient(run).then(
      (result) => process.send?.({ type: 'result', result } satisfies ClientAnswer),
      (error: unknown) =>
        process.send?.({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies ClientAnswer),
    );
  });
}

/** Runs one write scenario in a child process of this module and prints its line. */
async function runWrites(run: Omit<ClientRun, 'type' | 'concurrency'>): Promise<LoadResult> {
  process.stdout.write(`  ${run.name} (${MESSAGES_WRITE_CONCURRENCY} concurrent)...`);
  const child = fork(fileURLToPath(import.meta.url), [CLIENT_FLAG], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let answer: ClientAnswer;
  try {
    answer = await new Promise<ClientAnswer>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${run.name}: no answer`)),
        run.options.warmupMs + run.options.durationMs + 2 * run.options.timeoutMs + 30_000,
      );
      child.once('message', (message: ClientAnswer) => {
        clearTimeout(timer);
        resolve(message);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the messages load generator exited (${code})`));
      });
      child.send({ ...run, type: 'run', concurrency: MESSAGES_WRITE_CONCURRENCY } satisfies ClientRun);
    });
  } finally {
    child.removeAllListeners('exit');
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  if (answer.type === 'error') throw new Error(`${run.name}: ${answer.message}`);
  const result = answer.result;
  process.stdout.write(` ${result.count} requests${result.capped ? ' (all prepared ones)' : ''}, p95 ${result.p95.toFixed(2)} ms\n`);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Bulk update: sets of the organization's own messages, their archived flags put back afterwards.

async function runBulk(
  client: pg.Client,
  baseUrl: string,
  headers: Readonly<Record<string, string>>,
  data: MessageBenchData,
  options: WriteLoadOptions,
): Promise<LoadResult | string> {
  // Spread over the whole inbox (by a hash of the id), not only its newest page.
  const picked = (
    await client.query<{ id: string; archived: boolean }>(
      'SELECT id, archived FROM messages WHERE participant_id = $1 ORDER BY md5(id::text) LIMIT $2',
      [data.participantId, BULK_SETS * BULK_SIZE],
    )
  ).rows;
  const sets = Math.floor(picked.length / BULK_SIZE);
  if (sets < 2) return `the organization has ${picked.length} messages (< ${2 * BULK_SIZE})`;
  // Request i: set i % sets, archived on the first round, off on the next, and so on.
  const bodies: string[] = [];
  for (const archived of [true, false]) {
    for (let set = 0; set < sets; set++) {
      bodies.push(JSON.stringify({ uuids: picked.slice(set * BULK_SIZE, (set + 1) * BULK_SIZE).map((row) => row.id), archived }));
    }
  }
  try {
    return await runWrites({ name: MESSAGE_SCENARIOS.bulk, url: baseUrl + PATHS.messagesBulk, headers, bodies, cycle: true, options });
  } finally {
    await client.query(
      'UPDATE messages m SET archived = o.archived FROM unnest($1::uuid[], $2::boolean[]) AS o(id, archived) WHERE m.id = o.id',
      [picked.map((row) => row.id), picked.map((row) => row.archived)],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Confirm: loans of another organization, each with a pending OWNER transfer to the measured one.

/** Removes the scenario's loans (and what cascades: parties, events, requests) and the messages about them. */
async function removeBenchLoans(client: pg.Client): Promise<number> {
  const ids = (await client.query<{ id: string }>('SELECT id FROM loans WHERE loan_number LIKE $1', [`${LOAN_NUMBER_PREFIX}%`])).rows.map(
    (row) => row.id,
  );
  if (ids.length === 0) return 0;
  await client.query('DELETE FROM messages WHERE target_id = ANY($1::text[])', [ids]);
  await client.query('DELETE FROM loans WHERE id = ANY($1::uuid[])', [ids]);
  return ids.length;
}

/** Active loans the requesting organization owns, made for the scenario (valid ULIs, one OWNER party each). */
async function createBenchLoans(client: pg.Client, ownerId: string, count: number): Promise<string[]> {
  const run = Date.now().toString(36).toUpperCase().slice(-7);
  const ulis = Array.from({ length: count }, (_, index) => {
    const body = `${BENCH_LEI}BM${run}${String(index).padStart(6, '0')}`;
    return `${body}${uliCheckDigits(body)}`;
  });
  const created = await client.query<{ loan_id: string }>(
    `WITH created AS (
       INSERT INTO loans (uli, loan_number, loan_type, status, note_amount, note_date, borrower_first_name, borrower_last_name,
         property_street1, property_city, property_state, property_zip)
       SELECT u.uli, $2 || u.n, 'FIGURE_HELOC', 'Active', 100000, current_date, 'Bench', 'Transfer',
         '1 Bench Street', 'Springfield', 'IL', '62701'
       FROM unnest($1::text[]) WITH ORDINALITY AS u(uli, n)
       RETURNING id)
     INSERT INTO loan_parties (loan_id, role, state, participant_id)
     SELECT id, 'OWNER', 'CONFIRMED', $3 FROM created RETURNING loan_id`,
    [ulis, LOAN_NUMBER_PREFIX, ownerId],
  );
  return created.rows.map((row) => row.loan_id);
}

/** Another active organization and a member of it, the measured organization's member first (one session for both). */
async function requestingOrganization(
  client: pg.Client,
  data: MessageBenchData,
): Promise<{ participantId: string; email: string } | undefined> {
  const row = (
    await client.query<{ participant_id: string; email: string }>(
      `SELECT m.participant_id, u.email FROM memberships m JOIN users u ON u.id = m.user_id JOIN participants p ON p.id = m.participant_id
        WHERE p.is_active AND m.participant_id <> $1
        ORDER BY lower(u.email) = lower($2) DESC, p.code, u.email LIMIT 1`,
      [data.participantId, data.email],
    )
  ).rows[0];
  return row ? { participantId: row.participant_id, email: row.email } : undefined;
}

/** Asks, through the route, that the measured organization take over each loan's OWNER role. */
async function requestTransfers(baseUrl: string, cookie: string, requesterId: string, receiverId: string, loanIds: readonly string[]) {
  let next = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (next < loanIds.length) {
      const loanId = loanIds[next++] as string;
      const response = await fetch(baseUrl + PATHS.loanRoleRequests(loanId), {
        method: 'POST',
        headers: { origin: new URL(baseUrl).origin, cookie, [PARTICIPANT_HEADER]: requesterId, 'content-type': 'application/json' },
        body: JSON.stringify({ role: 'OWNER', participantId: receiverId }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      if (response.status !== 201 && failures.length < 3) failures.push(`status ${response.status}: ${text.slice(0, 120)}`);
    }
  };
  await Promise.all(Array.from({ length: PREPARE_CONCURRENCY }, worker));
  return failures;
}

async function runConfirm(
  client: pg.Client,
  baseUrl: string,
  headers: Readonly<Record<string, string>>,
  data: MessageBenchData,
  cookieFor: (email: string) => Promise<string>,
  options: WriteLoadOptions,
): Promise<LoadResult | string> {
  const requester = await requestingOrganization(client, data);
  if (!requester) return 'no other active organization has a member';
  try {
    await removeBenchLoans(client);
    const loanIds = await createBenchLoans(client, requester.participantId, CONFIRM_REQUESTS);
    process.stdout.write(`  preparing ${loanIds.length} transfer requests to ${data.participantName}...`);
    const started = performance.now();
    const failures = await requestTransfers(
      baseUrl,
      await cookieFor(requester.email),
      requester.participantId,
      data.participantId,
      loanIds,
    );
    const messageIds = (
      await client.query<{ message_id: string }>(
        `SELECT r.message_id FROM role_requests r JOIN loans l ON l.id = r.loan_id
          WHERE l.loan_number LIKE $1 AND r.state = 'PENDING' AND r.message_id IS NOT NULL ORDER BY l.loan_number`,
        [`${LOAN_NUMBER_PREFIX}%`],
      )
    ).rows.map((row) => row.message_id);
    process.stdout.write(` ${messageIds.length} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    if (messageIds.length === 0) return `no transfer request was created (${failures.join('; ') || 'no answer'})`;
    const bodies = messageIds.map((uuid) => JSON.stringify({ uuid, response: true }));
    return await runWrites({ name: MESSAGE_SCENARIOS.confirm, url: baseUrl + PATHS.messages, headers, bodies, cycle: false, options });
  } finally {
    await removeBenchLoans(client).catch((error: unknown) =>
      console.error(`  could not remove the message bench loans: ${error instanceof Error ? error.message : String(error)}`),
    );
  }
}

export interface MessageWritesOutcome {
  readonly results: readonly LoadResult[];
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
}

/** The two write scenarios (those `selected`), each leaving the data as it found it. */
export async function runMessageWrites(input: {
  readonly connectionString: string;
  readonly baseUrl: string;
  readonly data: MessageBenchData;
  readonly cookieFor: (email: string) => Promise<string>;
  readonly selected: (name: string) => boolean;
  readonly options: WriteLoadOptions;
}): Promise<MessageWritesOutcome> {
  const { data } = input;
  const headers = { cookie: await input.cookieFor(data.email), [PARTICIPANT_HEADER]: data.participantId };
  const results: LoadResult[] = [];
  const skipped: { name: string; reason: string }[] = [];
  const client = new pg.Client({ connectionString: input.connectionString });
  await client.connect();
  try {
    if (input.selected(MESSAGE_SCENARIOS.bulk)) {
      const bulk = await runBulk(client, input.baseUrl, headers, data, input.options);
      if (typeof bulk === 'string') skipped.push({ name: MESSAGE_SCENARIOS.bulk, reason: bulk });
      else results.push(bulk);
    }
    if (input.selected(MESSAGE_SCENARIOS.confirm)) {
      const confirm = await runConfirm(client, input.baseUrl, headers, data, input.cookieFor, input.options);
      if (typeof confirm === 'string') skipped.push({ name: MESSAGE_SCENARIOS.confirm, reason: confirm });
      else results.push(confirm);
    }
  } finally {
    await client.end();
  }
  return { results, skipped };
}
