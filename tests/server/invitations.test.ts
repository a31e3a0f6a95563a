// Invitations end to end through inject: the admin invites, the hosted page (GET the form, POST the
// password) accepts once, signs the person in (cookie, 303 to the dashboard, the organization as
// its default) and records the sign-in; expiry, single use, revoke and resend; an identity of the
// same email joins with its own password; the outbox row and its sending with nodemailer.
import nodemailer from 'nodemailer';
import { createHash } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { resentInvitationSchema } from '../../src/contract/organization-users';
import { PATHS } from '../../src/contract/paths';
import { usersMeSchema } from '../../src/contract/users';
import { USER_TEXTS } from '../../src/domain/administration-texts';
import { auditLog, invitations, outbox, users } from '../../src/server/db/schema';
import { JOB_QUEUES } from '../../src/server/jobs/job-queues';
import { sendPendingOutbox } from '../../src/server/jobs/outbox-job';
import { insertIdentity, insertParticipant, insertUser, PASSWORD, sessionCookieOf, TEST_CONFIG } from './support/server-fixtures';
import { useRouteTest, type SignedInCaller } from './support/route-test';

const server = useRouteTest();
const NEW_PASSWORD = 'a long new password 42';
let org: string;
let admin: SignedInCaller;

const form = 'application/x-www-form-urlencoded';
const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';

async function invite(email: string, firstName = 'Ivy'): Promise<{ link: string; userId: string }> {
  const response = await admin.post(PATHS.participantUsers(org), { firstName, lastName: 'Invitee', email, roles: ['CUSTODIAN'] });
  expect(response.statusCode).toBe(201);
  const body = response.json();
  return { link: body.invitationLink, userId: body.user.id };
}

const openPage = (token: string) => server.anonymous.get(`${PATHS.invitationPage}?${new URLSearchParams({ token })}`);

const submit = (fields: Record<string, string>, headers: Record<string, string | null> = {}) =>
  server.anonymous.inject({
    method: 'POST',
    url: PATHS.invitationPage,
    headers: { 'content-type': form, ...headers },
    payload: new URLSearchParams(fields).toString(),
  });

const silentLog = { info: () => undefined, warn: () => undefined } as never;

beforeAll(async () => {
  org = (await insertParticipant(server.db, { name: 'Invite & Co' })).id;
  await insertUser(server.db, {
    email: 'inviter@invitations.test',
    memberships: [{ participantId: org, roles: ['ORG_ADMIN'], isDefault: true }],
  });
  admin = await server.signIn('inviter@invitations.test', { participantId: org });
});

describe('the hosted invitation page', () => {
  it('sets the password once, signs in with a new cookie, lands on the dashboard with the organization as default', async () => {
    const { link, userId } = await invite('ivy@invitations.test');
    const token = tokenOf(link);
    // Only the token's SHA-256 is stored.
    const [stored] = await server.db.select().from(invitations).where(eq(invitations.userId, userId));
    expect(stored?.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(token);

    const page = await openPage(token);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(USER_TEXTS.invitationTitle);
    expect(page.body).toContain('Invite &#38; Co');
    expect(page.body).toContain('ivy@invitations.test');
    expect(page.headers['cache-control']).toBe('no-store');

    const short = await submit({ token, newPassword: 'short', confirmPassword: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('at least 12 characters');
    expect(short.body).toContain('aria-invalid="true"');
    const mismatch = await submit({ token, newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}!` });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('do not match');
    // Another site's form is refused (the same-origin check of every write).
    const crossSite = await submit({ token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, { origin: 'https://evil.test' });
    expect(crossSite.statusCode).toBe(403);

    // A session the browser had before is ended (no fixation).
    const before = await server.signIn('inviter@invitations.test');
    const accepted = await submit({ token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, { cookie: before.cookie });
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('/registry/dashboard');
    const cookie = sessionCookieOf(accepted);
    expect(cookie).toBeDefined();
    expect(cookie).not.toBe(before.cookie);
    expect((await before.get(PATHS.figureInfo)).statusCode).toBe(401);

    const me = await server.caller(cookie).get(PATHS.usersMe);
    expect(me.statusCode).toBe(200);
    const account = usersMeSchema.parse(me.json());
    expect(account.user.email).toBe('ivy@invitations.test');
    expect(account.participant?.id).toBe(org);
    const [user] = await server.db.select().from(users).where(eq(users.id, userId));
    expect(user?.lastSignInAt).not.toBeNull();
    expect(user?.identityId).not.toBeNull();
    const [audit] = await server.db.select().from(auditLog).where(eq(auditLog.targetId, userId)).orderBy(desc(auditLog.id)).limit(1);
    expect(audit).toMatchObject({ action: 'user.invitation-accepted', actorUserId: userId });

    // Single use: the page and its form refuse the link now.
    const again = await openPage(token);
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain(USER_TEXTS.invitationUsed);
    const resubmitted = await submit({ token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(resubmitted.statusCode).toBe(410);
    // And the new password signs in through the hosted sign-in page.
    const signedIn = await server.signIn('ivy@invitations.test', { password: NEW_PASSWORD });
    expect(signedIn.cookie).toBeDefined();
  });

  it('of two acceptances at once, one wins', async () => {
    const { link } = await invite('race@invitations.test');
    const token = tokenOf(link);
    const results = await Promise.all([
      submit({ token, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
      submit({ token, newPassword: `${NEW_PASSWORD}x`, confirmPassword: `${NEW_PASSWORD}x` }),
    ]);
    expect(results.map((result) => result.statusCode).sort()).toEqual([303, 410]);
  });

  it('404 for an unknown or missing token; 410 for an expired one', async () => {
    expect((await openPage('A'.repeat(43))).statusCode).toBe(404);
    const missing = await server.anonymous.get(PATHS.invitationPage);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain(USER_TEXTS.invitationNotFound);
    const { link, userId } = await invite('late@invitations.test');
    await server.db
      .update(invitations)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(invitations.userId, userId));
    const expired = await openPage(tokenOf(link));
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain(USER_TEXTS.invitationExpired);
    const submitted = await submit({ token: tokenOf(link), newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD });
    expect(submitted.statusCode).toBe(410);
    // The list shows it expired (the admin can resend it).
    const list = (await admin.get(PATHS.participantUsers(org), { query: { query: 'late@' } })).json();
    expect(list.users[0].invitation.expired).toBe(true);
  });

  it('an identity of the same email joins with its own password, not a new one', async () => {
    await insertIdentity(server.db, { email: 'known@invitations.test' });
    const { link, userId } = await invite('known@invitations.test');
    const token = tokenOf(link);
    const page = await openPage(token);
    expect(page.body).toContain(USER_TEXTS.invitationExistingTitle);
    expect(page.body).not.toContain('newPassword');
    const wrong = await submit({ token, password: 'not the password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain(USER_TEXTS.invitationWrongPassword);
    const joined = await submit({ token, password: PASSWORD });
    expect(joined.statusCode).toBe(303);
    const [user] = await server.db.select().from(users).where(eq(users.id, userId));
    expect(user?.identityId).not.toBeNull();
  });
});

describe('resend and revoke', () => {
  it('resend: a new link, the old one revoked, with audit rows; revoke: the link no longer works', async () => {
    const { link, userId } = await invite('resend@invitations.test');
    const resent = await admin.post(PATHS.participantUserInvitation(org, userId));
    expect(resent.statusCode).toBe(201);
    const body = resentInvitationSchema.parse(resent.json());
    expect(body.invitationLink).not.toBe(link);
    const old = await openPage(tokenOf(link));
    expect(old.statusCode).toBe(410);
    expect(old.body).toContain(USER_TEXTS.invitationRevoked);
    expect((await openPage(tokenOf(body.invitationLink))).statusCode).toBe(200);
    const [resendAudit] = await server.db.select().from(auditLog).where(eq(auditLog.targetId, userId)).orderBy(desc(auditLog.id)).limit(1);
    expect(resendAudit).toMatchObject({ action: 'user.invitation-resent', after: { invitationId: body.invitation.id } });

    const revoked = await admin.delete(PATHS.participantUserInvitation(org, userId));
    expect(revoked.statusCode).toBe(204);
    const [revokeAudit] = await server.db.select().from(auditLog).where(eq(auditLog.targetId, userId)).orderBy(desc(auditLog.id)).limit(1);
    expect(revokeAudit).toMatchObject({ action: 'user.invitation-revoked', after: null });
    expect((await openPage(tokenOf(body.invitationLink))).statusCode).toBe(410);
    const none = await admin.delete(PATHS.participantUserInvitation(org, userId));
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(USER_TEXTS.invitationNotFound);
  });

  it('409 to resend to someone who signs in already; removing a member revokes its invitation', async () => {
    const inviter = (await server.db.select().from(users).where(eq(users.email, 'inviter@invitations.test')))[0]!;
    const signsIn = await admin.post(PATHS.participantUserInvitation(org, inviter.id));
    expect(signsIn.statusCode).toBe(409);
    expect(signsIn.json().message).toBe(USER_TEXTS.invitationUsed);
    const { link, userId } = await invite('removed@invitations.test');
    expect((await admin.delete(PATHS.participantUser(org, userId))).statusCode).toBe(204);
    expect((await openPage(tokenOf(link))).statusCode).toBe(410);
  });
});

describe('configuration and the outbox', () => {
  it('INVITATION_TTL_HOURS sets the lifetime', async () => {
    const other = await server.otherApp({ app: { config: { ...TEST_CONFIG, invitationTtlHours: 2 } } });
    const caller = await other.signIn('inviter@invitations.test', { participantId: org });
    const response = await caller.post(PATHS.participantUsers(org), {
      firstName: 'Tess',
      lastName: 'Ttl',
      email: 'ttl@invitations.test',
      roles: ['CUSTODIAN'],
    });
    expect(response.statusCode).toBe(201);
    const hours = (Date.parse(response.json().user.invitation.expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.99);
    expect(hours).toBeLessThanOrEqual(2);
  });

  it('writes the mail with the link in the outbox, sent by nodemailer (jsonTransport) once', async () => {
    const { link } = await invite('mail@invitations.test', 'Mae');
    const [row] = await server.db.select().from(outbox).where(eq(outbox.recipient, 'mail@invitations.test'));
    expect(row?.sentAt).toBeNull();
    expect(row?.body).toContain(link);
    const sent: string[] = [];
    const transport = nodemailer.createTransport({ jsonTransport: true });
    const mailer = {
      from: 'Registry <registry@invitations.test>',
      sender: {
        sendMail: async (mail: { from: string; to: string; subject: string; text: string }) => {
          const info = await transport.sendMail(mail);
          sent.push(String(info.message));
          return info;
        },
      },
    };
    const first = await sendPendingOutbox(server.db, mailer, silentLog);
    expect(first.failed).toBe(0);
    expect(first.sent).toBeGreaterThanOrEqual(1);
    const message = sent.map((text) => JSON.parse(text)).find((mail) => mail.to[0].address === 'mail@invitations.test');
    expect(message.text).toContain(link);
    expect(message.subject).toContain('Invite & Co');
    const [after] = await server.db.select().from(outbox).where(eq(outbox.recipient, 'mail@invitations.test'));
    expect(after?.sentAt).not.toBeNull();
    expect((await sendPendingOutbox(server.db, mailer, silentLog)).sent).toBe(0);
  });

  it('queues the outbox job with the invitation; without SMTP_URL the job leaves the mail in the outbox', async () => {
    await invite('queued@invitations.test');
    expect(process.env.SMTP_URL).toBeUndefined();
    expect(await server.app.jobs.runPending(JOB_QUEUES.sendOutbox)).toBeGreaterThanOrEqual(1);
    const [row] = await server.db.select().from(outbox).where(eq(outbox.recipient, 'queued@invitations.test'));
    expect(row).toMatchObject({ sentAt: null, attempts: 0 });
  });

  it('a failed send stays unsent with its error and attempt counted', async () => {
    await invite('bounce@invitations.test');
    const failing = { from: 'x@invitations.test', sender: { sendMail: async () => Promise.reject(new Error('mail server down')) } };
    const result = await sendPendingOutbox(server.db, failing, silentLog);
    expect(result.failed).toBeGreaterThanOrEqual(1);
    const [row] = await server.db.select().from(outbox).where(eq(outbox.recipient, 'bounce@invitations.test'));
    expect(row).toMatchObject({ sentAt: null, attempts: 1, lastError: 'mail server down' });
  });
});

it('every sign-in records users.last_sign_in_at', async () => {
  await insertUser(server.db, { email: 'signs.in@invitations.test', memberships: [{ participantId: org, roles: ['CUSTODIAN'] }] });
  const before = (await server.db.select().from(users).where(eq(users.email, 'signs.in@invitations.test')))[0];
  expect(before?.lastSignInAt).toBeNull();
  await server.signIn('signs.in@invitations.test');
  const after = (await server.db.select().from(users).where(eq(users.email, 'signs.in@invitations.test')))[0];
  expect(after?.lastSignInAt).toBeInstanceOf(Date);
});
