// A reconciliation's start: the job, its details and the whole tape (in chunks) recorded, and its
// work queued, in one transaction: a tape cut off or refused half-way leaves nothing behind.
import type { Database, Transaction } from '../db/database';
import type { JobOwner } from '../db/job-repository';
import * as repository from '../db/reconciliation-repository';
import type { NewReconciliation, ReconciliationRow } from '../db/reconciliation-repository';
import { writeTransaction } from '../db/write-transaction';

/** Size of a stored chunk of the tape. */
export const TAPE_CHUNK_BYTES = 1024 * 1024;

/** Buffers of any size as chunks of TAPE_CHUNK_BYTES (the last may be shorter). */
export async function* rechunk(pieces: AsyncIterable<Buffer>, size = TAPE_CHUNK_BYTES): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of pieces) {
    pending.push(piece);
    pendingBytes += piece.length;
    while (pendingBytes >= size) {
      const all = Buffer.concat(pending, pendingBytes);
      yield all.subarray(0, size);
      pending = [all.subarray(size)];
      pendingBytes = all.length - size;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}

/**
 * Records the reconciliation and its tape (read from `tape` as it arrives; its errors roll all of it
 * back) and queues its job through `enqueue`. Null, and nothing written, when the owner already has
 * `maxUnfinished` reconciliations PENDING or RUNNING (starts of one owner take turns).
 */
export async function startReconciliation(
  db: Database,
  values: NewReconciliation,
  tape: AsyncIterable<Buffer>,
  enqueue: (tx: Transaction) => Promise<unknown>,
  maxUnfinished: number,
): Promise<ReconciliationRow | null> {
  let consumed = false;
  const started = await writeTransaction(db, async (tx) => {
    const owner: JobOwner = { participantId: values.participantId, userId: values.userId };
    if ((await repository.lockAndCountUnfinished(tx, owner)) >= maxUnfinished) return false;
    // The upload can be read once: a second attempt of the transaction cannot read it again.
    if (consumed) throw new Error('the tape was read by an earlier attempt');
    consumed = true;
    await repository.insertReconciliation(tx, values);
    let bytes = 0;
    let chunkNo = 0;
    for await (const chunk of rechunk(tape)) {
      await repository.insertTapeChunk(tx, values.id, chunkNo++, chunk);
      bytes += chunk.length;
    }
    await repository.setTapeSize(tx, values.id, bytes);
    await enqueue(tx);
    return true;
  });
  return started ? ((await repository.findReconciliation(db, values.id)) ?? null) : null;
}
