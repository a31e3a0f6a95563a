// Durability under kill -9: while a client makes acknowledged writes over HTTP (message
// read and archived flags, single and bulk; transfer requests; answers to transfers; deactivation
// requests), the real server (`src/server/main.ts`, embedded PostgreSQL, demo seed) is killed with
// SIGKILL 20 times, each time with writes in flight, and restarted on the same data folder. Only
// the Node process dies: its PostgreSQL is left orphaned and the next start must recover the folder
// by itself. Afterwards every acknowledged write is in the database and no rule of the registry is
// broken (tests/server/support/registry-invariants.ts, the message counts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deactivationAcceptedSchema, deactivationFormData, draftOf } from '../../src/contract/deactivation';
import { loanDetailsSchema, loanListSchema, type LoanDetails } from '../../src/contract/loans';
import { messageBulkResultSchema, messageListSchema, messageSchema } from '../../src/contract/messages';
import { userParticipantsSchema } from '../../src/contract/participants';
import { PATHS } from '../../src/contract/paths';
import { roleRequestSchema } from '../../src/contract/role-requests';
import { usersMeSchema } from '../../src/contract/users';
import { transferableRoles, type TransferableRole } from '../../src/domain/role-transfer';
import { connectDatabase } from '../../src/server/db/database';
import { freePort, startEmbeddedPostgres } from '../../src/server/db/embedded-postgres';
import { VALID_VALUES } from '../support/deactivation-fixtures';
import { loanListDrift, NO_DRIFT } from './support/loan-list-drift';
import { messageCountMismatches } from './support/message-counts';
import { NO_RULE_BREACHES, pendingTransfersOnDeactivatedLoans, registryRuleBreaches } from './support/registry-invariants';
import {
  httpCall,
  signalServer,
  signInOverHttp,
  startServerProcess,
  type HttpAnswer,
  type HttpCall,
  type ServerProcess,
} from './support/server-process';

const KILLS = 20;
/** Concurrent writers. */
const WRITERS = 6;
/** Each kill comes this long (ms, uniformly) after the restarted server opened to the writers. */
const KILL_AFTER_MS = [150, 700] as const;
/** Deactivations acknowledged at most (each takes a loan out of play). */
const MAX_DEACTIVATIONS = 30;
const ADMIN = 'admin@registry.test';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-kill9-'));
fs.chmodSync(tmp, 0o755);
const dataDir = path.join(tmp, 'data');
const started: ServerProcess[] = [];

afterAll(async () => {
  for (const server of started) await signalServer(server, 'SIGKILL');
  // A PostgreSQL left orphaned by a failure: the server's own recovery shuts it down.
  if (fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))) {
    const orphan = await startEmbeddedPostgres(dataDir).catch(() => undefined);
    await orphan?.stop();
  }
  // PostgreSQL's processes, killed with their group, may still be writing as they exit: retry ENOTEMPTY.
  fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
});

// ---------------------------------------------------------------------------------------------
// What the client did, and what the server acknowledged.

type Flag = 'read' | 'archived';
/** A write of one message flag: `acked` when the server answered 2xx, else its outcome is unknown. */
interface FlagWrite {
  readonly value: boolean;
  acked: boolean;
}
interface Org {
  readonly id: string;
  /** Messages that take no response, for the flag writes. */
  readonly plainMessages: string[];
  readonly loans: string[];
}

const random = (below: number) => Math.floor(Math.random() * below);
const pick = <T>(items: readonly T[]): T | undefined => items[random(items.length)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const flagWrites = new Map<string, FlagWrite[]>();
const acked = {
  transfers: [] as { id: string; loanId: string; role: TransferableRole; receiverId: string }[],
  answers: [] as { messageId: string; response: boolean }[],
  deactivations: [] as { id: string; loanId: string; participantId: string }[],
};
const tally = new Map<string, number>();
const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
const serverErrors: string[] = [];
/** Messages or loans a writer is working on: one write at a time each, so the last acknowledged one is known. */
const busy = new Set<string>();

// ---------------------------------------------------------------------------------------------
// The server and its restarts.

let server: ServerProcess;
let env: Record<string, string>;
let cookie = '';
let opened: Promise<void> = Promise.resolve();
let inFlight = 0;
let stopping = false;

/** A request once the server is open to writers; undefined when it failed on the network (the server died). */
async function request(pathAndQuery: string, call: HttpCall): Promise<HttpAnswer | undefined> {
  await opened;
  const write = call.method !== undefined && call.method !== 'GET';
  if (write) inFlight++;
  try {
    const answer = await httpCall(server.url, pathAndQuery, { cookie, ...call });
    if (answer.status >= 500) serverErrors.push(`${call.method ?? 'GET'} ${pathAndQuery}: ${answer.status} ${answer.body.slice(0, 200)}`);
    if (answer.status === 401) count('401 (session lost)');
    return answer;
  } catch {
    if (write) count('write without answer');
    return undefined;
  } finally {
    if (write) inFlight--;
  }
}

async function startServer(): Promise<ServerProcess> {
  const next = await startServerProcess(env, 90_000);
  started.push(next);
  return next;
}

// ---------------------------------------------------------------------------------------------
// The writes.

function recordFlag(messageId: string, flag: Flag, value: boolean): FlagWrite {
  const write: FlagWrite = { value, acked: false };
  const key = `${messageId} ${flag}`;
  flagWrites.set(key, [...(flagWrites.get(key) ?? []), write]);
  return write;
}

/** Takes the keys if none is busy. */
function claim(keys: readonly string[]): boolean {
  if (keys.length === 0 || keys.some((key) => busy.has(key))) return false;
  for (const key of keys) busy.add(key);
  return true;
}
const release = (keys: readonly string[]) => keys.forEach((key) => busy.delete(key));

async function updateMessage(org: Org): Promise<void> {
  const messageId = pick(org.plainMessages);
  if (!messageId || !claim([messageId])) return;
  try {
    const flag: Flag = random(2) ? 'read' : 'archived';
    const value = random(2) === 1;
    const write = recordFlag(messageId, flag, value);
    const answer = await request(PATHS.messages, {
      method: 'PATCH',
      participantId: org.id,
      json: { uuid: messageId, [flag]: value },
    });
    if (!answer) return;
    count(`message PATCH ${answer.status}`);
    if (answer.status === 200) {
      write.acked = true;
      expect(messageSchema.parse(answer.json()).messageData[flag]).toBe(value);
    }
  } finally {
    release([messageId]);
  }
}

async function updateMessages(org: Org): Promise<void> {
  const messageIds = [...new Set(Array.from({ length: 2 + random(4) }, () => pick(org.plainMessages) ?? ''))].filter(Boolean);
  if (!claim(messageIds)) return;
  try {
    const flag: Flag = random(2) ? 'read' : 'archived';
    const value = random(2) === 1;
    const writes = messageIds.map((messageId) => recordFlag(messageId, flag, value));
    const answer = await request(PATHS.messagesBulk, {
      method: 'PATCH',
      participantId: org.id,
      json: { uuids: messageIds, [flag]: value },
    });
    if (!answer) return;
    count(`bulk PATCH ${answer.status}`);
    if (answer.status === 200) {
      for (const write of writes) write.acked = true;
      expect(messageBulkResultSchema.parse(answer.json()).messagesUpdated).toBe(messageIds.length);
    }
  } finally {
    release(messageIds);
  }
}

async function detailsOf(loanId: string, org: Org): Promise<LoanDetails | undefined> {
  const answer = await request(PATHS.loanDetails(loanId), { participantId: org.id });
  return answer?.status === 200 ? loanDetailsSchema.parse(answer.json()) : undefined;
}

async function requestTransfer(org: Org, orgs: readonly Org[]): Promise<void> {
  const loanId = pick(org.loans);
  if (!loanId || !claim([loanId])) return;
  try {
    const details = await detailsOf(loanId, org);
    if (!details || details.loan.deactivated || details.loan.loanData.status !== 'Active') return;
    const roles = transferableRoles(details.parties, org.id).filter(
      (role) => details.parties.find((party) => party.role === role)?.state !== 'PENDING',
    );
    const role = pick(roles);
    const holder = details.parties.find((party) => party.role === role)?.participantId;
    const receiver = pick(orgs.filter((candidate) => candidate.id !== org.id && candidate.id !== holder));
    if (!role || !receiver) return;
    const answer = await request(PATHS.loanRoleRequests(loanId), {
      method: 'POST',
      participantId: org.id,
      json: { role, participantId: receiver.id },
    });
    if (!answer) return;
    count(`transfer POST ${answer.status}`);
    if (answer.status === 201) {
      const created = roleRequestSchema.parse(answer.json());
      acked.transfers.push({ id: created.id, loanId, role, receiverId: receiver.id });
    }
  } finally {
    release([loanId]);
  }
}

async function answerTransfer(orgs: readonly Org[]): Promise<void> {
  // The receivers of the latest transfers first: their messages wait for an answer.
  const recent = acked.transfers.slice(-10).map((transfer) => orgs.find((org) => org.id === transfer.receiverId));
  const org = pick(recent.filter((candidate) => candidate !== undefined)) ?? pick(orgs);
  if (!org) return;
  const listed = await request(`${PATHS.messages}?limit=100&archived=true`, { participantId: org.id });
  if (listed?.status !== 200) return;
  const waiting = messageListSchema
    .parse(listed.json())
    .messages.filter((message) => message.messageData.isActionable && message.messageData.response === null);
  const message = pick(waiting);
  if (!message || !claim([message.uuid, message.targetId])) return;
  try {
    const response = random(3) > 0;
    const answer = await request(PATHS.messages, { method: 'PATCH', participantId: org.id, json: { uuid: message.uuid, response } });
    if (!answer) return;
    count(`answer PATCH ${answer.status}`);
    if (answer.status === 200) {
      expect(messageSchema.parse(answer.json()).messageData.response).toBe(response);
      acked.answers.push({ messageId: message.uuid, response });
    }
  } finally {
    release([message.uuid, message.targetId]);
  }
}

const PDF = Buffer.from(
  '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);

async function requestDeactivation(org: Org): Promise<void> {
  if (acked.deactivations.length >= MAX_DEACTIVATIONS) return;
  const loanId = pick(org.loans);
  if (!loanId || !claim([loanId])) return;
  try {
    const details = await detailsOf(loanId, org);
    if (!details || details.loan.deactivated) return;
    const roles = details.parties.filter((party) => party.participantId === org.id).map((party) => party.role);
    if (!roles.includes('OWNER') && !roles.includes('SERVICER')) return;
    // The multipart body exactly as the web app's form builds it.
    const form = new Response(deactivationFormData(draftOf(VALID_VALUES), new Blob([PDF], { type: 'application/pdf' })));
    const answer = await request(PATHS.loanDeactivate(loanId), {
      method: 'POST',
      participantId: org.id,
      body: Buffer.from(await form.arrayBuffer()),
      contentType: form.headers.get('content-type') ?? '',
    });
    if (!answer) return;
    count(`deactivation POST ${answer.status}`);
    if (answer.status === 202) {
      acked.deactivations.push({ id: deactivationAcceptedSchema.parse(answer.json()).id, loanId, participantId: org.id });
    }
  } finally {
    release([loanId]);
  }
}

const writerFailures: unknown[] = [];

async function writer(orgs: readonly Org[]): Promise<void> {
  try {
    await writeUntilStopped(orgs);
  } catch (error) {
    writerFailures.push(error);
  }
}

async function writeUntilStopped(orgs: readonly Org[]): Promise<void> {
  while (!stopping) {
    const org = pick(orgs);
    if (!org) return;
    const roll = random(100);
    if (roll < 35) await updateMessage(org);
    else if (roll < 50) await updateMessages(org);
    else if (roll < 70) await requestTransfer(org, orgs);
    else if (roll < 87) await answerTransfer(orgs);
    else await requestDeactivation(org);
  }
}

/** The admin's organizations, each with some of its messages and loans. */
async function loadOrgs(): Promise<Org[]> {
  const me = usersMeSchema.parse((await httpCall(server.url, PATHS.usersMe, { cookie })).json());
  const memberships = userParticipantsSchema.parse((await httpCall(server.url, PATHS.userParticipants(me.user.id), { cookie })).json());
  const orgs: Org[] = [];
  for (const { participant } of memberships.filter((membership) => membership.participant.isActive)) {
    const call = { cookie, participantId: participant.id };
    const messages = messageListSchema.parse((await httpCall(server.url, `${PATHS.messages}?limit=100&archived=true`, call)).json());
    const loans = loanListSchema.parse((await httpCall(server.url, `${PATHS.loans}?limit=100`, call)).json());
    orgs.push({
      id: participant.id,
      plainMessages: messages.messages.filter((message) => !message.messageData.isActionable).map((message) => message.uuid),
      loans: loans.loans.map((loan) => loan.loanId),
    });
  }
  return orgs;
}

// ---------------------------------------------------------------------------------------------

describe('kill -9 under acknowledged writes', () => {
  it(`keeps every acknowledged write and every rule through ${KILLS} kills and restarts`, { timeout: 420_000 }, async () => {
    const began = Date.now();
    env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      SEED_LOANS: '200',
      SIGN_IN_RATE_LIMIT: '1000',
      STATIC_DIR: path.join(tmp, 'no-dist'),
    };
    server = await startServer();
    cookie = await signInOverHttp(server.url, ADMIN);
    const orgs = await loadOrgs();
    expect(orgs.length).toBeGreaterThanOrEqual(8);

    const writers = Array.from({ length: WRITERS }, () => writer(orgs));
    let killsMidWrite = 0;
    const restartMs: number[] = [];
    const inFlightAtKills: number[] = [];
    for (let kill = 1; kill <= KILLS; kill++) {
      await sleep(KILL_AFTER_MS[0] + random(KILL_AFTER_MS[1] - KILL_AFTER_MS[0]));
      // Strike while writes are on the wire (they almost always are; wait a little if not).
      for (let waited = 0; inFlight === 0 && waited < 1000; waited += 5) await sleep(5);
      let open: () => void = () => undefined;
      opened = new Promise((resolve) => (open = resolve));
      inFlightAtKills.push(inFlight);
      if (inFlight > 0) killsMidWrite++;
      await signalServer(server, 'SIGKILL');
      const restartBegan = Date.now();
      server = await startServer();
      restartMs.push(Date.now() - restartBegan);
      open();
    }
    // The session signed in before the first kill still works after the last one.
    expect((await httpCall(server.url, PATHS.usersMe, { cookie })).status).toBe(200);
    stopping = true;
    await Promise.all(writers);
    expect(writerFailures).toEqual([]);

    // The acknowledged deactivations are processed by the last server's worker (jobs survive kills).
    const jobsWaitBegan = Date.now();
    const deadline = jobsWaitBegan + 90_000;
    const unprocessed: string[] = [];
    for (const deactivation of acked.deactivations) {
      for (;;) {
        const answer = await httpCall(server.url, PATHS.loanDetails(deactivation.loanId), {
          cookie,
          participantId: deactivation.participantId,
        });
        if (answer.status === 200 && loanDetailsSchema.parse(answer.json()).loan.deactivated) break;
        if (Date.now() > deadline) {
          unprocessed.push(deactivation.id);
          break;
        }
        await sleep(200);
      }
    }
    const jobsWaitMs = Date.now() - jobsWaitBegan;
    await signalServer(server, 'SIGTERM');

    // The database, through the server's own connection code.
    const postgres = await startEmbeddedPostgres(dataDir);
    const database = connectDatabase(postgres.connectionString(), 2);
    try {
      const pool = database.pool;
      // Message flags: the last acknowledged value, or a later write whose answer was lost.
      const flagProblems: string[] = [];
      let flagsChecked = 0;
      for (const [key, writes] of flagWrites) {
        const [messageId, flag] = key.split(' ') as [string, Flag];
        const lastAcked = writes.map((write) => write.acked).lastIndexOf(true);
        if (lastAcked < 0) continue;
        // Every write after the last acknowledged one is unacknowledged: it may or may not have committed.
        const allowed = new Set(writes.slice(lastAcked).map((write) => write.value));
        const row = await pool.query<{ value: boolean }>(
          `SELECT ${flag === 'read' ? 'read' : 'archived'} AS value FROM messages WHERE id = $1`,
          [messageId],
        );
        flagsChecked++;
        const stored = row.rows[0]?.value;
        if (stored === undefined || !allowed.has(stored)) flagProblems.push(`${key}: ${stored} not in ${[...allowed].join('|')}`);
      }

      const missingTransfers: string[] = [];
      for (const transfer of acked.transfers) {
        // Kept, its message still taking an answer; or canceled since, with its message closed, when
        // the ownership moved on and the requester no longer held the role (services/role-transfers.ts).
        const row = await pool.query(
          `SELECT 1 FROM role_requests r JOIN messages m ON m.id = r.message_id
            WHERE r.id = $1 AND r.loan_id = $2 AND r.role = $3 AND r.receiver_participant_id = $4
              AND (m.is_actionable OR (r.state = 'CANCELED' AND r.answered_at IS NOT NULL))`,
          [transfer.id, transfer.loanId, transfer.role, transfer.receiverId],
        );
        if (row.rowCount !== 1) missingTransfers.push(transfer.id);
      }

      const missingAnswers: string[] = [];
      for (const answer of acked.answers) {
        const row = await pool.query(
          `SELECT 1 FROM messages m JOIN role_requests r ON r.message_id = m.id
            WHERE m.id = $1 AND m.response = $2 AND m.read AND r.state = $3 AND r.answered_at IS NOT NULL`,
          [answer.messageId, answer.response, answer.response ? 'CONFIRMED' : 'REJECTED'],
        );
        if (row.rowCount !== 1) missingAnswers.push(answer.messageId);
      }

      const missingDeactivations: string[] = [];
      for (const deactivation of acked.deactivations) {
        const row = await pool.query(
          `SELECT 1 FROM deactivation_requests d JOIN loans l ON l.id = d.loan_id
            WHERE d.id = $1 AND d.loan_id = $2 AND d.status = 'COMPLETED' AND l.deactivated AND l.status = 'Inactive'`,
          [deactivation.id, deactivation.loanId],
        );
        if (row.rowCount !== 1) missingDeactivations.push(deactivation.id);
      }

      const breaches = await registryRuleBreaches(pool);
      const pendingOnDeactivated = await pendingTransfersOnDeactivatedLoans(pool);
      const countMismatches = await messageCountMismatches(database);
      const listDrift = await loanListDrift(database.db);

      // How the deactivation jobs fared through the kills (pg-boss keeps finished jobs in job, then archive).
      const jobRows = await pool.query<{ jobs: number; retries: number | null; slowest: number | null }>(`
        SELECT count(*)::int AS jobs, max(retry_count) AS retries,
          round(max(extract(epoch FROM completed_on - created_on)))::int AS slowest
        FROM (SELECT name, retry_count, created_on, completed_on FROM pgboss.job
              UNION ALL SELECT name, retry_count, created_on, completed_on FROM pgboss.archive) j
        WHERE name = 'process-deactivation'`);
      const jobStats = jobRows.rows[0];
      const logged = (text: string) => started.reduce((sum, each) => sum + each.output().split(text).length - 1, 0);
      const failedAttempts = started.flatMap((each) =>
        each
          .output()
          .split('\n')
          .filter((line) => line.includes('job attempt failed')),
      );
      if (failedAttempts.length > 0) console.log(`failed job attempts:\n${failedAttempts.slice(0, 5).join('\n')}`);
      const deactivationJobs = `${jobStats?.jobs}, most retries ${jobStats?.retries}, slowest ${jobStats?.slowest} s from enqueue to done; the servers logged ${logged('job attempt failed')} failed attempts and returned ${logged('returned to the queue')} jobs of killed servers`;
      // A deactivation still waiting: what became of its job.
      const stuckJobs = await pool.query(
        `SELECT data->>'requestId' AS "requestId", state, retry_count AS "retryCount", retry_limit AS "retryLimit",
            to_char(created_on, 'HH24:MI:SS') AS created, to_char(start_after, 'HH24:MI:SS') AS "startAfter", output
          FROM (SELECT data, state, retry_count, retry_limit, created_on, start_after, output FROM pgboss.job
                UNION ALL SELECT data, state, retry_count, retry_limit, created_on, start_after, output FROM pgboss.archive) j
          WHERE data->>'requestId' = ANY($1::text[])`,
        [unprocessed],
      );
      const ackedRequests = [...tally].filter(([key]) => / 2\d\d$/.test(key)).reduce((sum, [, value]) => sum + value, 0);
      const checks = flagsChecked + acked.transfers.length + acked.answers.length + acked.deactivations.length;
      console.log(
        [
          `kill -9: ${KILLS} kills, ${killsMidWrite} with writes in flight (in flight at each kill: ${inFlightAtKills.join(' ')})`,
          `acknowledged write requests: ${ackedRequests}; verified in the database: ${checks} final states ` +
            `(message flags ${flagsChecked}, transfers ${acked.transfers.length}, answers ${acked.answers.length}, ` +
            `deactivations ${acked.deactivations.length}); lost: ${flagProblems.length + missingTransfers.length + missingAnswers.length + missingDeactivations.length}`,
          `answers by kind and status: ${[...tally].map(([key, value]) => `${key}: ${value}`).join(', ')}`,
          `restarts: ${restartMs.length}, mean ${Math.round(restartMs.reduce((sum, ms) => sum + ms, 0) / restartMs.length)} ms, ` +
            `max ${Math.max(...restartMs)} ms; deactivation jobs: ${deactivationJobs}; waited ${jobsWaitMs} ms for them after the last kill` +
            `${unprocessed.length ? `; NOT PROCESSED: ${unprocessed.length}` : ''}`,
          `run time ${((Date.now() - began) / 1000).toFixed(1)} s`,
        ].join('\n'),
      );
      expect(unprocessed, `jobs of unprocessed deactivations: ${JSON.stringify(stuckJobs.rows)}`).toEqual([]);
      expect(flagProblems).toEqual([]);
      expect(missingTransfers).toEqual([]);
      expect(missingAnswers).toEqual([]);
      expect(missingDeactivations).toEqual([]);
      expect(breaches, `pending transfers on deactivated loans: ${JSON.stringify(pendingOnDeactivated)}`).toEqual(NO_RULE_BREACHES);
      expect(countMismatches).toEqual([]);
      expect(listDrift).toEqual(NO_DRIFT);
      // A 5xx names its cause: the servers' error log lines (pino level 50) go with the failure.
      const loggedErrors = started.flatMap((each) =>
        each
          .output()
          .split('\n')
          .filter((line) => line.includes('"level":50')),
      );
      expect(serverErrors, `the servers logged:\n${loggedErrors.slice(0, 5).join('\n')}`).toEqual([]);
      expect(tally.get('401 (session lost)') ?? 0).toBe(0);
      expect(killsMidWrite).toBeGreaterThanOrEqual(KILLS - 2);
      expect(acked.transfers.length).toBeGreaterThan(0);
      expect(acked.answers.length).toBeGreaterThan(0);
      expect(acked.deactivations.length).toBeGreaterThan(0);
    } finally {
      await database.close();
      await postgres.stop();
    }
  });
});
