// The administration of an organization's users: invite a new person, add an existing user,
// change roles, remove, resend or revoke an invitation, and the invited person's acceptance. Each
// is one transaction that first locks the organization's row (repository.lockParticipant), so the
// guards read a state no concurrent write of the same organization can change before commit:
// - the last ORG_ADMIN of an active organization is neither removed nor demoted;
// - nobody removes their own ORG_ADMIN role or their own membership;
// - an administrator demoted meanwhile can no longer act (two admins demoting each other).
// Every write appends its audit row (who, from where, before and after) in the same transaction.
import { createHash, randomBytes } from 'node:crypto';
import type { Invitation, OrganizationUser } from '../../contract/organization-users';
import { isOrganizationAdmin, ORG_ADMIN_ROLE, USER_NOT_FOUND } from '../../domain/access';
import { USER_TEXTS } from '../../domain/administration-texts';
import { appendAudit, type AuditActor } from '../db/audit-repository';
import type { Database, Transaction } from '../db/database';
import * as repository from '../db/organization-user-repository';
import { postgresErrorCode, writeTransaction } from '../db/write-transaction';
import { ConflictError, NoLongerHeldError, NotFoundError } from '../domain-errors';

/** The caller of an administration write: the audit's actor, and whether it acts as registry staff. */
export interface AdminActor extends AuditActor {
  readonly registryStaff: boolean;
}

/** How a new invitation is made: its lifetime, the link's base, and the outbox job's enqueue. */
export interface InvitationSettings {
  readonly ttlHours: number;
  /** The absolute URL of the hosted invitation page (PATHS.invitationPage on the public origin). */
  readonly pageUrl: string;
  /** Queues the sending of an outbox row, in the transaction that wrote it. */
  readonly enqueueMail: (tx: Transaction, outboxId: string) => Promise<unknown>;
}

export const hashInvitationToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** 32 random bytes, base64url: what the link carries; the table keeps only its SHA-256. */
export const newInvitationToken = (): string => randomBytes(32).toString('base64url');

export const invitationLinkOf = (pageUrl: string, token: string): string => `${pageUrl}?${new URLSearchParams({ token }).toString()}`;

const userAudit = (user: { id: string; email: string; firstName: string; middleName: string | null; lastName: string }) => ({
  userId: user.id,
  email: user.email,
  firstName: user.firstName,
  middleName: user.middleName,
  lastName: user.lastName,
});

/**
 * `work`, with a unique violation (23505) answered as the email being taken: two invitations of one
 * email to two organizations at once (each holds only its own organization's lock), or an identity
 * of the email made or linked meanwhile. The transaction is rolled back either way.
 */
async function emailUnique<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (postgresErrorCode(error) === '23505') throw new ConflictError(USER_TEXTS.emailTaken);
    throw error;
  }
}

async function lockOrganization(tx: Transaction, participantId: string) {
  const organization = await repository.lockParticipant(tx, participantId);
  if (!organization) throw new NotFoundError(USER_TEXTS.organizationNotFound);
  return organization;
}

/** An administrator (not staff) demoted or removed since the access check may no longer act. */
async function requireStillAdmin(tx: Transaction, participantId: string, actor: AdminActor): Promise<void> {
  if (actor.registryStaff) return;
  const own = actor.userId ? await repository.findMembership(tx, participantId, actor.userId) : undefined;
  if (!own || !isOrganizationAdmin(own.roles)) throw new ConflictError(USER_TEXTS.noLongerAdmin);
}

async function requireMember(tx: Transaction, participantId: string, userId: string) {
  const membership = await repository.findMembership(tx, participantId, userId);
  if (!membership) throw new NotFoundError(USER_TEXTS.notMember);
  return membership;
}

async function memberView(tx: Transaction, participantId: string, userId: string): Promise<OrganizationUser> {
  const view = await repository.findOrganizationUser(tx, participantId, userId);
  if (!view) throw new Error('member not found after its write');
  return view;
}

/** Writes the invitation, its mail in the outbox and the mail's job; answers the link. */
async function invite(
  tx: Transaction,
  organization: { id: string; name: string },
  user: { id: string; email: string; firstName: string },
  actor: AdminActor,
  settings: InvitationSettings,
) {
  const token = newInvitationToken();
  const invitation = await repository.insertInvitation(tx, {
    tokenHash: hashInvitationToken(token),
    userId: user.id,
    participantId: organization.id,
    invitedBy: actor.userId,
    expiresAt: new Date(Date.now() + settings.ttlHours * 60 * 60 * 1000),
  });
  const link = invitationLinkOf(settings.pageUrl, token);
  const outboxId = await repository.insertOutboxMail(tx, {
    recipient: user.email,
    subject: `You are invited to ${organization.name} on the Loan Registry`,
    body:
      `Hello ${user.firstName},\n\n${actor.email ?? 'An administrator'} invited you to ${organization.name} on the Loan Registry.\n` +
      `Set your password here (the link works once, until ${invitation.expiresAt.toISOString()}):\n\n${link}\n`,
  });
  await settings.enqueueMail(tx, outboxId);
  return { invitation, link };
}

/** POST v2 /participants/{participantId}/users: a new person, its membership and its invitation. */
export async function inviteNewUser(
  db: Database,
  request: {
    readonly participantId: string;
    readonly user: { email: string; firstName: string; middleName: string | null; lastName: string; roles: string[] };
    readonly actor: AdminActor;
    readonly settings: InvitationSettings;
  },
): Promise<{ user: OrganizationUser; invitationLink: string }> {
  const { participantId, actor, settings } = request;
  return writeTransaction(db, async (tx) => {
    const organization = await lockOrganization(tx, participantId);
    await requireStillAdmin(tx, participantId, actor);
    if (!organization.isActive) throw new ConflictError(USER_TEXTS.organizationInactive);
    const { roles, ...person } = request.user;
    if (await repository.emailTaken(tx, person.email)) throw new ConflictError(USER_TEXTS.emailTaken);
    const user = await emailUnique(() => repository.insertUser(tx, person));
    await repository.insertMembership(tx, { userId: user.id, participantId, roles, isDefault: true });
    const { invitation, link } = await invite(tx, organization, user, actor, settings);
    await appendAudit(tx, actor, {
      participantId,
      action: 'user.invited',
      targetType: 'user',
      targetId: user.id,
      before: null,
      after: { ...userAudit(user), roles, invitationId: invitation.id, expiresAt: invitation.expiresAt.toISOString() },
    });
    return { user: await memberView(tx, participantId, user.id), invitationLink: link };
  });
}

/** POST v2 /users/{userId}/participants: an existing user joins the organization. */
export async function addExistingUser(
  db: Database,
  request: { readonly participantId: string; readonly userId: string; readonly roles: string[]; readonly actor: AdminActor },
): Promise<OrganizationUser> {
  const { participantId, userId, roles, actor } = request;
  return writeTransaction(db, async (tx) => {
    const organization = await lockOrganization(tx, participantId);
    await requireStillAdmin(tx, participantId, actor);
    if (!organization.isActive) throw new ConflictError(USER_TEXTS.organizationInactive);
    const user = await repository.findUser(tx, userId);
    if (!user) throw new NotFoundError(USER_NOT_FOUND);
    if (await repository.findMembership(tx, participantId, userId)) throw new ConflictError(USER_TEXTS.alreadyMember);
    const isDefault = !(await repository.hasDefaultMembership(tx, userId));
    await repository.insertMembership(tx, { userId, participantId, roles, isDefault });
    await appendAudit(tx, actor, {
      participantId,
      action: 'user.added',
      targetType: 'user',
      targetId: userId,
      before: null,
      after: { ...userAudit(user), roles },
    });
    return memberView(tx, participantId, userId);
  });
}

/** PUT v2 /participants/{participantId}/users/{userId}: the member's roles become `roles`. */
export async function changeRoles(
  db: Database,
  request: { readonly participantId: string; readonly userId: string; readonly roles: string[]; readonly actor: AdminActor },
): Promise<OrganizationUser> {
  const { participantId, userId, roles, actor } = request;
  return writeTransaction(db, async (tx) => {
    const organization = await lockOrganization(tx, participantId);
    await requireStillAdmin(tx, participantId, actor);
    const membership = await requireMember(tx, participantId, userId);
    const losesAdmin = isOrganizationAdmin(membership.roles) && !roles.includes(ORG_ADMIN_ROLE);
    if (losesAdmin && actor.userId === userId) throw new ConflictError(USER_TEXTS.ownAdminRole);
    if (losesAdmin && organization.isActive && (await repository.countAdmins(tx, participantId)) <= 1)
      throw new ConflictError(USER_TEXTS.lastAdmin);
    await repository.setMembershipRoles(tx, participantId, userId, roles);
    await appendAudit(tx, actor, {
      participantId,
      action: 'user.roles-changed',
      targetType: 'user',
      targetId: userId,
      before: { roles: membership.roles },
      after: { roles },
    });
    return memberView(tx, participantId, userId);
  });
}

/** DELETE v2 /participants/{participantId}/users/{userId}: the membership ends (the user stays in the registry). */
export async function removeUser(
  db: Database,
  request: { readonly participantId: string; readonly userId: string; readonly actor: AdminActor },
): Promise<void> {
  const { participantId, userId, actor } = request;
  await writeTransaction(db, async (tx) => {
    const organization = await lockOrganization(tx, participantId);
    await requireStillAdmin(tx, participantId, actor);
    const membership = await requireMember(tx, participantId, userId);
    if (actor.userId === userId) throw new ConflictError(USER_TEXTS.ownMembership);
    if (isOrganizationAdmin(membership.roles) && organization.isActive && (await repository.countAdmins(tx, participantId)) <= 1)
      throw new ConflictError(USER_TEXTS.lastAdmin);
    const user = await repository.findUser(tx, userId);
    const revoked = await repository.revokePendingInvitations(tx, participantId, userId);
    await repository.deleteMembership(tx, participantId, userId);
    await appendAudit(tx, actor, {
      participantId,
      action: 'user.removed',
      targetType: 'user',
      targetId: userId,
      before: { ...(user ? userAudit(user) : { userId }), roles: membership.roles, isDefault: membership.isDefault },
      after: revoked.length > 0 ? { revokedInvitations: revoked.map((invitation) => invitation.id) } : null,
    });
  });
}

/** POST .../users/{userId}/invitation: a new link; every earlier one of the member is revoked. */
export async function resendInvitation(
  db: Database,
  request: { readonly participantId: string; readonly userId: string; readonly actor: AdminActor; readonly settings: InvitationSettings },
): Promise<{ invitation: Invitation; invitationLink: string }> {
  const { participantId, userId, actor, settings } = request;
  return writeTransaction(db, async (tx) => {
    const organization = await lockOrganization(tx, participantId);
    await requireStillAdmin(tx, participantId, actor);
    if (!organization.isActive) throw new ConflictError(USER_TEXTS.organizationInactive);
    await requireMember(tx, participantId, userId);
    const user = await repository.findUser(tx, userId);
    if (!user) throw new NotFoundError(USER_TEXTS.notMember);
    // Someone who already signs in needs no invitation.
    if (user.identityId) throw new ConflictError(USER_TEXTS.invitationUsed);
    const revoked = await repository.revokePendingInvitations(tx, participantId, userId);
    const { invitation, link } = await invite(tx, organization, user, actor, settings);
    await appendAudit(tx, actor, {
      participantId,
      action: 'user.invitation-resent',
      targetType: 'user',
      targetId: userId,
      before: { invitations: revoked.map((row) => row.id) },
      after: { invitationId: invitation.id, expiresAt: invitation.expiresAt.toISOString() },
    });
    return { invitation: repository.invitationOf(invitation), invitationLink: link };
  });
}

/** DELETE .../users/{userId}/invitation: the member's pending invitation no longer works. */
export async function revokeInvitation(
  db: Database,
  request: { readonly participantId: string; readonly userId: string; readonly actor: AdminActor },
): Promise<void> {
  const { participantId, userId, actor } = request;
  await writeTransaction(db, async (tx) => {
    await lockOrganization(tx, participantId);
    await requireStillAdmin(tx, participantId, actor);
    await requireMember(tx, participantId, userId);
    const revoked = await repository.revokePendingInvitations(tx, participantId, userId);
    if (revoked.length === 0) throw new NotFoundError(USER_TEXTS.invitationNotFound);
    await appendAudit(tx, actor, {
      participantId,
      action: 'user.invitation-revoked',
      targetType: 'user',
      targetId: userId,
      before: { invitations: revoked.map((row) => row.id) },
      after: null,
    });
  });
}

export type InvitationState = 'pending' | 'expired' | 'used' | 'revoked';

export function invitationState(
  invitation: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now = new Date(),
): InvitationState {
  if (invitation.acceptedAt) return 'used';
  if (invitation.revokedAt) return 'revoked';
  return invitation.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

/** The refusal of an invitation that cannot be accepted (unknown: 404; expired, used, revoked: 410). */
export function invitationRefusal(state: InvitationState | 'unknown'): Error | undefined {
  switch (state) {
    case 'unknown':
      return new NotFoundError(USER_TEXTS.invitationNotFound);
    case 'expired':
      return new NoLongerHeldError(USER_TEXTS.invitationExpired);
    case 'used':
      return new NoLongerHeldError(USER_TEXTS.invitationUsed);
    case 'revoked':
      return new NoLongerHeldError(USER_TEXTS.invitationRevoked);
    case 'pending':
      return undefined;
  }
}

/**
 * The invited person's acceptance, in one transaction over the locked invitation (single use: of
 * two acceptances at once, the second finds it used): a new identity with `passwordHash`, or the
 * existing identity of the same email (`existingIdentityId`, whose password the page checked),
 * linked to the user; the invitation accepted; the sign-in recorded; the organization made the
 * user's default when it has none. Answers the identity and its password hash (the session's check).
 */
export async function acceptInvitation(
  db: Database,
  request: {
    readonly tokenHash: string;
    readonly clientAddress: string | null;
    readonly credential: { readonly passwordHash: string } | { readonly existingIdentityId: string };
  },
): Promise<{ identityId: string; passwordHash: string; participantId: string; email: string }> {
  return writeTransaction(db, async (tx) => {
    const invitation = await repository.lockInvitationByTokenHash(tx, request.tokenHash);
    const refusal = invitationRefusal(invitation ? invitationState(invitation) : 'unknown');
    if (refusal || !invitation) throw refusal ?? new NotFoundError(USER_TEXTS.invitationNotFound);
    const user = await repository.findUser(tx, invitation.userId);
    const membership = user ? await repository.findMembership(tx, invitation.participantId, invitation.userId) : undefined;
    if (!user || !membership) throw new NoLongerHeldError(USER_TEXTS.invitationRevoked);
    if (user.identityId) throw new NoLongerHeldError(USER_TEXTS.invitationUsed);
    const existing = await repository.findIdentityByEmail(tx, user.email);
    let identity: { id: string; passwordHash: string };
    if ('existingIdentityId' in request.credential) {
      // The page checked this identity's password; it must still be the one of this email.
      if (!existing || existing.id !== request.credential.existingIdentityId) throw new ConflictError(USER_TEXTS.invitationUsed);
      identity = existing;
    } else {
      // An identity of this email appeared since the page was shown: its owner joins with its own password.
      if (existing) throw new ConflictError(USER_TEXTS.emailTaken);
      const { passwordHash } = request.credential;
      identity = await emailUnique(() =>
        repository.insertIdentity(tx, { email: user.email, name: [user.firstName, user.lastName].join(' '), passwordHash }),
      );
    }
    // An identity already linked to another user cannot be linked again (users_identity_key).
    const linked = identity.id;
    await emailUnique(() => repository.linkIdentity(tx, user.id, linked));
    await repository.markInvitationAccepted(tx, invitation.id);
    if (!(await repository.hasDefaultMembership(tx, user.id))) await repository.setDefaultMembership(tx, invitation.participantId, user.id);
    await appendAudit(
      tx,
      { identityId: identity.id, userId: user.id, email: user.email, clientAddress: request.clientAddress, actingParticipantId: null },
      {
        participantId: invitation.participantId,
        action: 'user.invitation-accepted',
        targetType: 'user',
        targetId: user.id,
        before: { invitationId: invitation.id },
        after: { identityId: identity.id, newIdentity: !('existingIdentityId' in request.credential) },
      },
    );
    return { identityId: identity.id, passwordHash: identity.passwordHash, participantId: invitation.participantId, email: user.email };
  });
}
