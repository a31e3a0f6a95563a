// Sign-in security writes, one transaction each: a factor's enrolment (its flow, the code sent and
// checked) and removal, with the account holder's notice mail in the same transaction. The
// identity's row is locked first, so two changes of one account take turns and SPEC section 6's
// removal rule is checked against what is committed.
import { CODE_MAX_ATTEMPTS, FACTOR_TEXTS, FACTOR_TYPE_LABELS, factorRemovalRefusal, type FactorType } from '../../domain/security-factors';
import type { Database, Transaction } from '../db/database';
import * as repository from '../db/security-factor-repository';
import { postgresErrorCode, writeTransaction } from '../db/write-transaction';
import { ConflictError, NotFoundError } from '../domain-errors';
import { hashRecoveryCode, hashVerificationCode, newRecoveryCodes, verificationCodeMatches } from '../identity/codes';

/** Queues the sending of an outbox row, in the transaction that wrote it. */
export type EnqueueMail = (tx: Transaction, outboxId: string) => Promise<unknown>;

export const NOTICE_SUBJECT = 'Security change on your Loan Registry account';

/** The notice mail to the account holder of a change to its sign-in security. */
export async function queueNotice(tx: Transaction, enqueueMail: EnqueueMail, recipient: string, change: string): Promise<void> {
  const outboxId = await repository.insertOutboxMessage(tx, {
    channel: 'email',
    recipient,
    subject: NOTICE_SUBJECT,
    body:
      `${change}\n\nWhen: ${new Date().toISOString()}\n\n` +
      'If this was not you, change your password at once and contact your registry support.\n',
  });
  await enqueueMail(tx, outboxId);
}

async function insertFlowOnce(tx: Transaction, flow: repository.FlowInsert): Promise<repository.FlowRow> {
  try {
    // A savepoint: the unique violation of a nonce used before must not end the whole transaction.
    return await tx.transaction((inner) => repository.insertFlow(inner, flow));
  } catch (error) {
    if (postgresErrorCode(error) === '23505') throw new ConflictError(FACTOR_TEXTS.nonceUsed);
    throw error;
  }
}

function refuse(refusal: string): never {
  if (refusal === FACTOR_TEXTS.factorNotFound) throw new NotFoundError(refusal);
  throw new ConflictError(refusal);
}

async function checkRemoval(tx: Transaction, identityId: string, factorId: string, requireAtLeastOneOf: readonly FactorType[]) {
  const factors = await repository.listFactors(tx, identityId);
  const refusal = factorRemovalRefusal(
    factorId,
    factors.map((factor) => ({ ...factor, type: factor.type as FactorType })),
    requireAtLeastOneOf,
  );
  if (refusal !== null) refuse(refusal);
  return factors.find((factor) => factor.id === factorId) as repository.FactorRow;
}

export interface StartFlow {
  readonly identityId: string;
  readonly sessionTokenHash: string;
  readonly tokenHash: string;
  readonly nonce: string;
  readonly kind: 'enrol' | 'remove';
  readonly factorType?: FactorType;
  readonly factorId?: string;
  readonly expiresAt: Date;
  readonly requireAtLeastOneOf: readonly FactorType[];
}

/** A round trip through the hosted factor page, tied to the session and its nonce (used once). */
export async function startFactorFlow(db: Database, start: StartFlow): Promise<repository.FlowRow> {
  return writeTransaction(db, async (tx) => {
    await repository.lockIdentity(tx, start.identityId);
    let factorType = start.factorType ?? null;
    if (start.kind === 'remove' && start.factorId) {
      factorType = (await checkRemoval(tx, start.identityId, start.factorId, start.requireAtLeastOneOf)).type as FactorType;
    }
    return insertFlowOnce(tx, {
      tokenHash: start.tokenHash,
      kind: start.kind,
      identityId: start.identityId,
      sessionTokenHash: start.sessionTokenHash,
      nonce: start.nonce,
      factorType,
      factorId: start.factorId ?? null,
      expiresAt: start.expiresAt,
    });
  });
}

export interface RemoveFactor {
  readonly identity: { readonly id: string; readonly email: string };
  readonly factorId: string;
  readonly requireAtLeastOneOf: readonly FactorType[];
  readonly enqueueMail: EnqueueMail;
  /** A removal asked for with a recent proof of presence: its nonce is spent here. */
  readonly nonce?: { readonly value: string; readonly sessionTokenHash: string; readonly tokenHash: string };
  /** A removal confirmed on the hosted page: its flow is used here. */
  readonly flowId?: string;
}

/** Removes the factor if SPEC section 6 allows it; answers what was removed. */
export async function removeFactor(db: Database, removal: RemoveFactor): Promise<repository.FactorRow> {
  return writeTransaction(db, async (tx) => {
    await repository.lockIdentity(tx, removal.identity.id);
    if (removal.flowId) {
      const flow = await repository.lockLiveFlow(tx, removal.flowId);
      if (!flow || flow.factorId !== removal.factorId) throw new ConflictError(FACTOR_TEXTS.flowExpired);
      await repository.useFlow(tx, flow.id);
    }
    const factor = await checkRemoval(tx, removal.identity.id, removal.factorId, removal.requireAtLeastOneOf);
    if (removal.nonce) {
      await insertFlowOnce(tx, {
        tokenHash: removal.nonce.tokenHash,
        kind: 'remove',
        identityId: removal.identity.id,
        sessionTokenHash: removal.nonce.sessionTokenHash,
        nonce: removal.nonce.value,
        factorType: factor.type,
        factorId: factor.id,
        expiresAt: new Date(),
        usedAt: new Date(),
      });
    }
    await repository.deleteFactor(tx, removal.identity.id, removal.factorId);
    await queueNotice(
      tx,
      removal.enqueueMail,
      removal.identity.email,
      `A ${FACTOR_TYPE_LABELS[factor.type as FactorType]} factor was removed from your Loan Registry account.`,
    );
    return factor;
  });
}

export interface SendCode {
  readonly flowId: string;
  readonly channel: 'email' | 'sms';
  /** Where the code goes (an address, or a phone number in E.164). */
  readonly destination: string;
  readonly code: string;
  readonly expiresAt: Date;
  readonly enqueueMail: EnqueueMail;
}

/** Sends a new code for the flow (the previous one, and its wrong tries, are forgotten). False: the flow is gone. */
export async function sendFlowCode(db: Database, send: SendCode): Promise<boolean> {
  return writeTransaction(db, async (tx) => {
    const flow = await repository.lockLiveFlow(tx, send.flowId);
    if (!flow) return false;
    await repository.updateFlow(tx, flow.id, {
      destination: send.destination,
      codeHash: hashVerificationCode(flow.id, send.code),
      codeExpiresAt: send.expiresAt,
      codeAttempts: 0,
    });
    const body =
      `Your Loan Registry code is ${send.code}. It is valid for 10 minutes.\n\n` +
      'If you did not ask for it, someone may know your password: change it and contact your registry support.\n';
    const outboxId = await repository.insertOutboxMessage(tx, {
      channel: send.channel,
      recipient: send.destination,
      subject: 'Your Loan Registry code',
      body: send.channel === 'sms' ? `Your Loan Registry code is ${send.code}. Valid 10 minutes.` : body,
    });
    await send.enqueueMail(tx, outboxId);
    return true;
  });
}

export type CodeCheck =
  | { readonly outcome: 'gone' | 'wrong' | 'expired' | 'too-many' | 'no-code'; readonly attempts?: number }
  | { readonly outcome: 'ok'; readonly flow: repository.FlowRow };

/**
 * Checks a typed code against the flow's (5 tries, 10 minutes, constant-time compare). A right one
 * uses the flow; a wrong one counts a try (committed, whatever follows).
 */
export async function checkFlowCode(db: Database, check: { flowId: string; code: string }): Promise<CodeCheck> {
  return writeTransaction(db, async (tx) => {
    const flow = await repository.lockLiveFlow(tx, check.flowId);
    if (!flow) return { outcome: 'gone' };
    if (flow.codeHash === null || flow.codeExpiresAt === null) return { outcome: 'no-code' };
    if (flow.codeAttempts >= CODE_MAX_ATTEMPTS) return { outcome: 'too-many' };
    if (flow.codeExpiresAt.getTime() <= Date.now()) return { outcome: 'expired' };
    if (!verificationCodeMatches(flow.id, check.code, flow.codeHash)) {
      const attempts = await repository.countCodeAttempt(tx, flow.id);
      return { outcome: attempts >= CODE_MAX_ATTEMPTS ? 'too-many' : 'wrong', attempts };
    }
    await repository.useFlow(tx, flow.id);
    return { outcome: 'ok', flow };
  });
}

export interface EnrolFactor {
  readonly identity: { readonly id: string; readonly email: string };
  readonly type: FactorType;
  readonly value: string;
  readonly enqueueMail: EnqueueMail;
  readonly webauthn?: { credentialId: string; publicKey: Buffer; signCount: number; transports: string[] };
}

/**
 * Adds a proven factor; the first one the identity enrols brings ten recovery codes (answered
 * here, once; only their hashes are stored; a new set replaces any old one).
 */
export async function enrolFactor(
  db: Database,
  enrol: EnrolFactor,
): Promise<{ factor: repository.FactorRow; recoveryCodes: string[] | null }> {
  return writeTransaction(db, async (tx) => {
    await repository.lockIdentity(tx, enrol.identity.id);
    const existing = await repository.listFactors(tx, enrol.identity.id);
    if (
      enrol.type !== 'Biometric' &&
      enrol.type !== 'SecurityKey' &&
      existing.some((factor) => factor.type === enrol.type && factor.value.toLowerCase() === enrol.value.toLowerCase())
    ) {
      throw new ConflictError(FACTOR_TEXTS.alreadyEnrolled);
    }
    const first = !existing.some((factor) => factor.verifiedAt !== null && !factor.required);
    let factor: repository.FactorRow;
    try {
      factor = await tx.transaction((inner) =>
        repository.insertFactor(inner as Transaction, {
          identityId: enrol.identity.id,
          type: enrol.type,
          value: enrol.value,
          editable: true,
          required: false,
          verifiedAt: new Date(),
          credentialId: enrol.webauthn?.credentialId ?? null,
          publicKey: enrol.webauthn?.publicKey ?? null,
          signCount: enrol.webauthn?.signCount ?? null,
          transports: enrol.webauthn?.transports ?? null,
        }),
      );
    } catch (error) {
      if (postgresErrorCode(error) === '23505') throw new ConflictError(FACTOR_TEXTS.alreadyEnrolled);
      throw error;
    }
    let recoveryCodes: string[] | null = null;
    if (first) {
      recoveryCodes = newRecoveryCodes();
      await repository.replaceRecoveryCodes(tx, enrol.identity.id, recoveryCodes.map(hashRecoveryCode));
    }
    await queueNotice(
      tx,
      enrol.enqueueMail,
      enrol.identity.email,
      `A ${FACTOR_TYPE_LABELS[enrol.type]} factor was added to your Loan Registry account.`,
    );
    return { factor, recoveryCodes };
  });
}
