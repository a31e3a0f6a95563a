// Writes that run at the same time between the same organizations: transfer requests, answers to
// them, deactivation requests and their processing. Each locks rows of derived tables through its
// triggers (the asset list's day counts and totals, message_counts), so two of them could wait on
// each other. Every one must succeed, and the derived rows must still equal a recount.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { processDeactivation, requestDeactivation } from '../../src/server/services/deactivations';
import { roleRequests } from '../../src/server/db/schema';
import { PAYOFF_FIELDS } from '../support/deactivation-fixtures';
import { insertLoan } from './support/loan-rows';
import { loanListDrift, NO_DRIFT } from './support/loan-list-drift';
import { messageCountMismatches } from './support/message-counts';
import { insertParticipant, insertUser } from './support/server-fixtures';
import { type Caller, useRouteTest } from './support/route-test';

const server = useRouteTest();
const ids = {} as Record<'home' | 'receiver', string>;
let home: Caller;

/** Loans Home Bank owns and services: each one's servicer role can be handed to the receiver. */
async function homeLoans(count: number): Promise<string[]> {
  const loanIds: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const loan = await insertLoan(server.db, {
      parties: [
        { role: 'OWNER', participantId: ids.home, provenanceId: 'pb1home' },
        { role: 'SERVICER', participantId: ids.home, provenanceId: 'pb1home' },
      ],
    });
    loanIds.push(loan.id);
  }
  return loanIds;
}

function requestServicerTransfer(loanId: string) {
  return home.post(PATHS.loanRoleRequests(loanId), { role: 'SERVICER', participantId: ids.receiver });
}

const INSTRUMENT = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

/** A recorded deactivation request of Home Bank's (its job left to the test): the request's id. */
async function deactivationRequested(loanId: string): Promise<string> {
  const accepted = await requestDeactivation(
    server.db,
    {
      loanId,
      participantId: ids.home,
      participantName: 'Home Bank',
      userId: null,
      fields: PAYOFF_FIELDS,
      instrument: { fileName: 'instrument.pdf', content: INSTRUMENT, hash: createHash('sha256').update(INSTRUMENT).digest('hex') },
    },
    async () => undefined,
  );
  return accepted.requestId;
}

/** The asset list's day counts and totals as stored (rows with a count), in key order. */
async function listCounts(): Promise<unknown[]> {
  const result = await server.db.execute(sql`
    select 'day' as kind, participant_id, updated_on::text as key, roles, count from loan_list_counts where count <> 0
    union all
    select 'total', participant_id, '', roles, count from loan_list_totals where count <> 0
    order by 1, 2, 3, 4`);
  return result.rows;
}

beforeAll(async () => {
  ids.home = (await insertParticipant(server.db, { name: 'Home Bank' })).id;
  ids.receiver = (await insertParticipant(server.db, { name: 'Receiving Servicer' })).id;
  await insertUser(server.db, { email: 'home@registry.test', memberships: [{ participantId: ids.home, isDefault: true }] });
  home = await server.signIn('home@registry.test', { participantId: ids.home });
});

describe('concurrent writes between the same organizations', () => {
  it('answers, new transfer requests and deactivations between two organizations all succeed, counts exact', async () => {
    const ROUNDS = 4;
    const PAIRS = 8;
    for (let round = 0; round < ROUNDS; round += 1) {
      // Requests waiting for an answer, then as many new requests sent while those are answered.
      const waiting = await homeLoans(PAIRS);
      for (const loanId of waiting) expect((await requestServicerTransfer(loanId)).statusCode).toBe(201);
      const requests = await server.db
        .select({ messageId: roleRequests.messageId, loanId: roleRequests.loanId })
        .from(roleRequests)
        .where(sql`${roleRequests.state} = 'PENDING'`);
      const fresh = await homeLoans(PAIRS);
      const deactivations = await Promise.all((await homeLoans(PAIRS)).map(deactivationRequested));

      const outcomes = await Promise.all([
        ...requests.map(async (request, index) => {
          await server.app.services.roleTransfers.answerMessage({
            participantId: ids.receiver,
            userId: null,
            messageId: request.messageId ?? '',
            response: index % 2 === 0,
          });
          return 'answered';
        }),
        ...deactivations.map(async (requestId) => processDeactivation(server.db, requestId)),
        ...fresh.map(async (loanId) => {
          const response = await requestServicerTransfer(loanId);
          return response.statusCode === 201 ? 'requested' : `request ${response.statusCode}: ${response.body}`;
        }),
      ]);
      expect(outcomes.filter((outcome) => !['answered', 'requested', 'completed'].includes(outcome))).toEqual([]);
      // The fresh requests are answered in the next round, beside its new ones.
    }
    expect(await messageCountMismatches(server.database)).toEqual([]);
    // The triggers kept the asset list index (counts and totals too) exactly as a rebuild computes it.
    expect(await loanListDrift(server.database.owner.db)).toEqual(NO_DRIFT);
  });

  it('migration 0015 recounts the totals a deployment kept wrong before the fix', async () => {
    await homeLoans(3);
    const exact = await listCounts();
    // What the bug left: totals and day counts that still counted loans where they had been.
    await server.database.owner.db.execute(sql`update loan_list_totals set count = count + 1`);
    await server.database.owner.db.execute(sql`update loan_list_counts set count = count - 1`);
    expect(await listCounts()).not.toEqual(exact);
    const migration = await readFile(new URL('../../src/server/db/migrations/0015_loan_list_recount.sql', import.meta.url), 'utf8');
    await server.database.owner.db.transaction(async (tx) => {
      for (const statement of migration.split('--> statement-breakpoint')) await tx.execute(sql.raw(statement));
    });
    expect(await listCounts()).toEqual(exact);
  });
});
