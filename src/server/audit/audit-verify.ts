// The audit log's hash chain, checked from outside the database: each row's content (the same
// fields, in the same order and form, as the migration's audit_row_content) is hashed here with
// the previous row's hash, and the row must carry both; chain_seq must run 1, 2, 3 ... without a
// gap, and the chain's head must name the last row. The first row that does not match is named.
// The content is computed by this file's own statement, not the database's function, so a changed
// function cannot hide a changed row.
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** audit_row_content of migration 0029, written out again. */
const CONTENT = `jsonb_build_array(
  a.chain_seq, a.id, to_char(a.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
  a.identity_id, a.actor_user_id, a.actor_email, a.acting_participant_id, a.participant_id, a.client_address,
  a.loan_id, a.action, a.target_type, a.target_id, a.before, a.after
)::text`;

export interface AuditMismatch {
  readonly chainSeq: number;
  readonly id: number | null;
  readonly reason: string;
}

export interface AuditVerification {
  /** Rows checked (up to the first mismatch). */
  readonly rows: number;
  /** The last row's hash: keep it elsewhere, and a later verify that ends on it proves nothing before it changed. */
  readonly headHash: string;
  readonly mismatch: AuditMismatch | null;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

interface ChainRow {
  readonly chain_seq: string;
  readonly id: string;
  readonly prev_hash: string;
  readonly row_hash: string;
  readonly content: string;
}

/** Walks the chain in batches of `batchSize` (keyset on chain_seq). Needs the owner role (the chain head). */
export async function verifyAuditChain(client: pg.Pool | pg.Client, batchSize = 5000): Promise<AuditVerification> {
  let expectedSeq = 1;
  let previous = '';
  let rows = 0;
  for (;;) {
    const { rows: batch } = await client.query<ChainRow>(
      `SELECT a.chain_seq::text, a.id::text, a.prev_hash, a.row_hash, ${CONTENT} AS content
         FROM audit_log a WHERE a.chain_seq >= $1 ORDER BY a.chain_seq LIMIT $2`,
      [expectedSeq, batchSize],
    );
    for (const row of batch) {
      const seq = Number(row.chain_seq);
      const at = (reason: string): AuditVerification => ({
        rows,
        headHash: previous,
        mismatch: { chainSeq: seq, id: Number(row.id), reason },
      });
      if (seq !== expectedSeq) return at(`row ${expectedSeq} is missing (the next is ${seq})`);
      if (row.prev_hash !== previous) return at("its prev_hash is not the previous row's hash");
      if (row.row_hash !== sha256(previous + row.content)) return at('its content does not match its hash');
      previous = row.row_hash;
      expectedSeq += 1;
      rows += 1;
    }
    if (batch.length < batchSize) break;
  }
  const { rows: heads } = await client.query<{ seq: string; hash: string }>('SELECT seq::text, hash FROM audit_chain_head');
  const head = heads[0];
  if (!head) return { rows, headHash: previous, mismatch: { chainSeq: expectedSeq, id: null, reason: 'the chain head is missing' } };
  if (Number(head.seq) !== rows || head.hash !== previous)
    return {
      rows,
      headHash: previous,
      mismatch: { chainSeq: Number(head.seq), id: null, reason: `the chain head names row ${head.seq}, the log ends at row ${rows}` },
    };
  return { rows, headHash: previous, mismatch: null };
}
