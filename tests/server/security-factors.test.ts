// Sign-in security factors through inject: the list (masked values, requireAtLeastOneOf), an
// email or phone factor's enrolment on the hosted page (the code through the outbox: a wrong one,
// an expired one, the five tries), the nonce (used once, only by the session that started it),
// the proof of presence, every removal rule of SPEC section 6, the security events, the notice
// mails, the recovery codes and the development mailbox.
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { factorListSchema } from '../../src/contract/security-factors';
import { USER_NOT_FOUND } from '../../src/domain/access';
import { FACTOR_TEXTS } from '../../src/domain/security-factors';
import { authenticationFactors, identityFlows, outbox, recoveryCodes, securityEvents, sessions } from '../../src/server/db/schema';
import { hashSessionToken } from '../../src/server/identity/sessions';
import { sendPendingOutbox, type SmsSender } from '../../src/server/jobs/outbox-job';
import { NOTICE_SUBJECT } from '../../src/server/services/security-factors';
import { insertIdentity, insertParticipant, insertUser, PASSWORD, TEST_CONFIG } from './support/server-fixtures';
import { useRouteTest, type Caller, type SignedInCaller } from './support/route-test';

const server = useRouteTest();
const form = 'application/x-www-form-urlencoded';
let org: string;
let counter = 0;

const nonce = () => `nonce-${Date.now().toString(36)}-${(counter += 1).toString().padStart(8, '0')}`;

/** A registered user with the required account email factor (as every identity has). */
async function newPerson(prefix: string, options: { requiredEmail?: boolean } = {}) {
  const email = `${prefix}.${(counter += 1)}@factors.test`;
  const { identity, user } = await insertUser(server.db, { email, memberships: [{ participantId: org, isDefault: true }] });
  if (options.requiredEmail !== false) {
    await server.db
      .insert(authenticationFactors)
      .values({ identityId: identity.id, type: 'Email', value: email, editable: false, required: true });
  }
  const caller = await server.signIn(email);
  return { email, identity, user, caller };
}

const flowOf = (location: string | undefined) => new URL(location ?? '', 'http://x').searchParams.get('flow') ?? '';

const page = (caller: Caller, fields: Record<string, string>) =>
  caller.inject({
    method: 'POST',
    url: PATHS.factorPage,
    headers: { 'content-type': form },
    payload: new URLSearchParams(fields).toString(),
  });

async function startAdd(caller: Caller, type: string, stateNonce = nonce()) {
  const response = await caller.post(`${PATHS.factors}?${new URLSearchParams({ type, externalStateNonce: stateNonce })}`);
  expect(response.statusCode).toBe(303);
  expect(response.headers.location).toMatch(new RegExp(`^${PATHS.factorPage}\\?flow=`));
  return { flow: flowOf(response.headers.location as string), nonce: stateNonce };
}

async function latestCodeTo(recipient: string): Promise<string> {
  const [row] = await server.db
    .select()
    .from(outbox)
    .where(sql`lower(${outbox.recipient}) = lower(${recipient}) AND ${outbox.subject} = 'Your Loan Registry code'`)
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  const code = /code is (\d{6})/.exec(row?.body ?? '')?.[1];
  if (!code) throw new Error(`no code sent to ${recipient}`);
  return code;
}

const wrongCodeFor = (code: string) => (code === '000000' ? '111111' : '000000');

async function eventsOf(identityId: string) {
  return server.db.select().from(securityEvents).where(eq(securityEvents.identityId, identityId)).orderBy(securityEvents.id);
}

async function listOf(caller: Caller) {
  const response = await caller.get(PATHS.factors);
  expect(response.statusCode).toBe(200);
  return factorListSchema.parse(response.json());
}

/** Ages the caller's proof of presence past the 10 minutes. */
async function agePresence(caller: SignedInCaller) {
  const token = caller.cookie.split('=')[1] as string;
  await server.db
    .update(sessions)
    .set({ verifiedAt: sql`now() - interval '11 minutes'` })
    .where(eq(sessions.tokenHash, hashSessionToken(token)));
}

async function enrolEmail(caller: Caller, address: string) {
  const { flow, nonce: stateNonce } = await startAdd(caller, 'Email');
  const sent = await page(caller, { flow, action: 'send', destination: address });
  expect(sent.statusCode).toBe(200);
  const done = await page(caller, { flow, action: 'verify', code: await latestCodeTo(address) });
  return { done, nonce: stateNonce };
}

beforeAll(async () => {
  org = (await insertParticipant(server.db, { name: 'Factors Org' })).id;
});

describe('the factor list', () => {
  it('lists the factors with masked values, requireAtLeastOneOf and whether the password is manageable', async () => {
    const person = await newPerson('list');
    await server.db
      .insert(authenticationFactors)
      .values({ identityId: person.identity.id, type: 'Phone', value: '+14155550123', editable: true, required: false });
    const list = await listOf(person.caller);
    expect(list.requireAtLeastOneOf).toEqual(['Email', 'Phone']);
    expect(list.passwordManageable).toBe(true);
    expect(list.factors).toEqual([
      { type: 'Email', value: 'l***@factors.test', editable: false, required: true, ids: [expect.any(String)] },
      { type: 'Phone', value: '(***) ***-0123', editable: true, required: false, ids: [expect.any(String)] },
    ]);
    expect(JSON.stringify(list)).not.toContain(person.email);
  });

  it("answers 'User not found.' to an identity without a registry user, and 401 without a session", async () => {
    const identity = await insertIdentity(server.db, { email: `lonely.${(counter += 1)}@factors.test` });
    const caller = await server.signIn(identity.email);
    for (const response of [
      await caller.get(PATHS.factors),
      await caller.post(`${PATHS.factors}?type=Email&externalStateNonce=${nonce()}`),
      await caller.delete(`${PATHS.factor('00000000-0000-4000-8000-000000000001')}?externalStateNonce=${nonce()}`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(USER_NOT_FOUND);
    }
    expect((await server.anonymous.get(PATHS.factors)).statusCode).toBe(401);
  });

  it('refuses an unknown type and a malformed nonce with what is wrong', async () => {
    const { caller } = await newPerson('bad-query');
    const wrongType = await caller.post(`${PATHS.factors}?type=Carrier&externalStateNonce=${nonce()}`);
    expect(wrongType.statusCode).toBe(400);
    const shortNonce = await caller.post(`${PATHS.factors}?type=Email&externalStateNonce=abc`);
    expect(shortNonce.statusCode).toBe(400);
    expect(shortNonce.json().message).toContain('externalStateNonce');
  });
});

describe('adding an email factor', () => {
  it('sends a 6-digit code, refuses a wrong one, and enrols with the right one; the first factor brings ten recovery codes', async () => {
    const person = await newPerson('enrol');
    const { flow, nonce: stateNonce } = await startAdd(person.caller, 'Email');
    const form1 = await person.caller.get(`${PATHS.factorPage}?flow=${flow}`);
    expect(form1.statusCode).toBe(200);
    expect(form1.body).toContain('Add an email address');
    // Signed in a moment ago: no password asked.
    expect(form1.body).not.toContain('Current password');

    const address = `second.${counter}@elsewhere.test`;
    const sent = await page(person.caller, { flow, action: 'send', destination: address });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('s***@elsewhere.test');
    const code = await latestCodeTo(address);
    expect(code).toMatch(/^\d{6}$/);
    // The code is kept hashed, not as sent.
    const [stored] = await server.db.select().from(identityFlows).where(eq(identityFlows.nonce, stateNonce));
    expect(stored?.codeHash).not.toContain(code);

    const wrong = await page(person.caller, { flow, action: 'verify', code: wrongCodeFor(code) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(FACTOR_TEXTS.wrongCode);

    const done = await page(person.caller, { flow, action: 'verify', code });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Your recovery codes');
    const shown = [...done.body.matchAll(/<li>([a-z0-9]{5}-[a-z0-9]{5})<\/li>/g)].map((match) => match[1]);
    expect(shown).toHaveLength(10);
    expect(done.body).toContain(`/registry/profile?externalStateNonce=${stateNonce}`);
    const hashes = await server.db.select().from(recoveryCodes).where(eq(recoveryCodes.identityId, person.identity.id));
    expect(hashes).toHaveLength(10);
    expect(hashes.map((row) => row.codeHash)).not.toContain(shown[0]);

    const list = await listOf(person.caller);
    expect(list.factors.map((factor) => [factor.type, factor.value, factor.editable, factor.required])).toEqual([
      ['Email', `e***@factors.test`, false, true],
      ['Email', 's***@elsewhere.test', true, false],
    ]);
    // The flow is used: the same code again is refused.
    const again = await page(person.caller, { flow, action: 'verify', code });
    expect(again.statusCode).toBe(404);

    const kinds = (await eventsOf(person.identity.id)).map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['factor.code-sent', 'factor.code-failed', 'factor.enrolled']));
    const notices = await server.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, person.email), eq(outbox.subject, NOTICE_SUBJECT)));
    expect(notices.map((row) => row.body)).toEqual([expect.stringContaining('A Email factor was added')]);
  });

  it('a second factor brings no new recovery codes and returns to the profile with the nonce', async () => {
    const person = await newPerson('second');
    await enrolEmail(person.caller, `one.${counter}@elsewhere.test`);
    const before = await server.db.select().from(recoveryCodes).where(eq(recoveryCodes.identityId, person.identity.id));
    const { done, nonce: stateNonce } = await enrolEmail(person.caller, `two.${counter}@elsewhere.test`);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/registry/profile?externalStateNonce=${stateNonce}`);
    const after = await server.db.select().from(recoveryCodes).where(eq(recoveryCodes.identityId, person.identity.id));
    expect(after).toEqual(before);
  });

  it('refuses an expired code, and a sixth try after five wrong ones even with the right code', async () => {
    const person = await newPerson('tries');
    const address = `tries.${counter}@elsewhere.test`;
    const expired = await startAdd(person.caller, 'Email');
    await page(person.caller, { flow: expired.flow, action: 'send', destination: address });
    await server.db
      .update(identityFlows)
      .set({ codeExpiresAt: sql`now() - interval '1 second'` })
      .where(eq(identityFlows.nonce, expired.nonce));
    const late = await page(person.caller, { flow: expired.flow, action: 'verify', code: await latestCodeTo(address) });
    expect(late.statusCode).toBe(400);
    expect(late.body).toContain(FACTOR_TEXTS.codeExpired);

    const tries = await startAdd(person.caller, 'Email');
    await page(person.caller, { flow: tries.flow, action: 'send', destination: address });
    const code = await latestCodeTo(address);
    const answers = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      answers.push((await page(person.caller, { flow: tries.flow, action: 'verify', code: wrongCodeFor(code) })).body);
    }
    expect(answers.slice(0, 4).every((body) => body.includes(FACTOR_TEXTS.wrongCode))).toBe(true);
    expect(answers[4]).toContain(FACTOR_TEXTS.tooManyCodeAttempts);
    const right = await page(person.caller, { flow: tries.flow, action: 'verify', code });
    expect(right.statusCode).toBe(400);
    expect(right.body).toContain(FACTOR_TEXTS.tooManyCodeAttempts);
    // A new code starts the tries again.
    await page(person.caller, { flow: tries.flow, action: 'resend' });
    const fresh = await page(person.caller, { flow: tries.flow, action: 'verify', code: await latestCodeTo(address) });
    expect([200, 303]).toContain(fresh.statusCode);
  });

  it('takes each nonce once, and only the session that started the round trip opens its page', async () => {
    const person = await newPerson('nonce');
    const started = await startAdd(person.caller, 'Email');
    const reused = await person.caller.post(`${PATHS.factors}?type=Phone&externalStateNonce=${started.nonce}`);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe(FACTOR_TEXTS.nonceUsed);

    const otherSession = await server.signIn(person.email);
    const opened = await otherSession.get(`${PATHS.factorPage}?flow=${started.flow}`);
    expect(opened.statusCode).toBe(404);
    expect(opened.body).toContain(FACTOR_TEXTS.flowExpired);
    const posted = await page(otherSession, { flow: started.flow, action: 'send', destination: 'x@elsewhere.test' });
    expect(posted.statusCode).toBe(404);
    // Signed out, the page leads to the sign-in and back.
    const anonymous = await server.anonymous.get(`${PATHS.factorPage}?flow=${started.flow}`);
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toContain(`${PATHS.signIn}?returnTo=`);
  });

  it('asks for the password when the last proof of presence is older than 10 minutes', async () => {
    const person = await newPerson('presence');
    await agePresence(person.caller);
    const { flow } = await startAdd(person.caller, 'Email');
    const form1 = await person.caller.get(`${PATHS.factorPage}?flow=${flow}`);
    expect(form1.body).toContain('Current password');
    const address = `presence.${counter}@elsewhere.test`;
    const without = await page(person.caller, { flow, action: 'send', destination: address });
    expect(without.statusCode).toBe(400);
    expect(without.body).toContain(FACTOR_TEXTS.wrongPassword);
    const wrong = await page(person.caller, { flow, action: 'send', destination: address, password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    const right = await page(person.caller, { flow, action: 'send', destination: address, password: PASSWORD });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('Enter the code');
    const kinds = (await eventsOf(person.identity.id)).map((event) => event.kind);
    expect(kinds.filter((kind) => kind === 'presence.refused')).toHaveLength(2);
    expect(kinds).toContain('presence.confirmed');
  });
});

describe('adding a phone factor', () => {
  it('sends the code by SMS through the outbox, and refuses a number that is not one', async () => {
    const person = await newPerson('phone');
    const { flow } = await startAdd(person.caller, 'Phone');
    const invalid = await page(person.caller, { flow, action: 'send', destination: '12' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain(FACTOR_TEXTS.invalidPhone);
    const sent = await page(person.caller, { flow, action: 'send', destination: '(415) 555-0177' });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('(***) ***-0177');
    const [sms] = await server.db.select().from(outbox).where(eq(outbox.recipient, '+14155550177'));
    expect(sms?.channel).toBe('sms');
    const done = await page(person.caller, { flow, action: 'verify', code: await latestCodeTo('+14155550177') });
    expect(done.statusCode).toBe(200);
    expect((await listOf(person.caller)).factors.map((factor) => factor.value)).toContain('(***) ***-0177');
  });

  it('the outbox job posts SMS to the webhook and mail to the mailer, each only with its transport', async () => {
    const person = await newPerson('webhook');
    const { flow } = await startAdd(person.caller, 'Phone');
    await page(person.caller, { flow, action: 'send', destination: '(303) 555-0142' });
    const texts: { to: string; body: string }[] = [];
    const sms: SmsSender = { send: async (message) => void texts.push(message) };
    const mail: string[] = [];
    const mailer = { from: 'registry@example.test', sender: { sendMail: async (message: { to: string }) => void mail.push(message.to) } };
    await sendPendingOutbox(server.db, null, server.app.log, sms);
    expect(texts.map((text) => text.to)).toContain('+13035550142');
    expect(mail).toEqual([]);
    await sendPendingOutbox(server.db, mailer, server.app.log, null);
    expect(mail.length).toBeGreaterThan(0);
    expect(mail).not.toContain('+13035550142');
  });
});

describe('removing a factor', () => {
  async function factorIds(caller: Caller) {
    return (await listOf(caller)).factors;
  }

  it('refuses a required factor, one not editable, and an unknown one, with the reason', async () => {
    const person = await newPerson('rules');
    const [required] = await factorIds(person.caller);
    const refused = await person.caller.delete(`${PATHS.factor(required?.ids[0] as string)}?externalStateNonce=${nonce()}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(FACTOR_TEXTS.notEditable);

    const [fixed] = await server.db
      .insert(authenticationFactors)
      .values({ identityId: person.identity.id, type: 'Phone', value: '+14155550100', editable: true, required: true })
      .returning();
    const requiredRefused = await person.caller.delete(`${PATHS.factor(fixed?.id as string)}?externalStateNonce=${nonce()}`);
    expect(requiredRefused.statusCode).toBe(409);
    expect(requiredRefused.json().message).toBe(FACTOR_TEXTS.required);

    const unknown = await person.caller.delete(`${PATHS.factor('00000000-0000-4000-8000-00000000beef')}?externalStateNonce=${nonce()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(FACTOR_TEXTS.factorNotFound);
    // Another identity's factor is unknown to this one.
    const other = await newPerson('other');
    const [theirs] = await factorIds(other.caller);
    const foreign = await person.caller.delete(`${PATHS.factor(theirs?.ids[0] as string)}?externalStateNonce=${nonce()}`);
    expect(foreign.statusCode).toBe(404);
  });

  it('keeps the last factor of requireAtLeastOneOf', async () => {
    const person = await newPerson('last', { requiredEmail: false });
    const [phone] = await server.db
      .insert(authenticationFactors)
      .values({ identityId: person.identity.id, type: 'Phone', value: '+14155550111', editable: true, required: false })
      .returning();
    const refused = await person.caller.delete(`${PATHS.factor(phone?.id as string)}?externalStateNonce=${nonce()}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(FACTOR_TEXTS.lastOfRequired(['Email', 'Phone']));
    await server.db
      .insert(authenticationFactors)
      .values({ identityId: person.identity.id, type: 'Email', value: person.email, editable: true, required: false });
    const allowed = await person.caller.delete(`${PATHS.factor(phone?.id as string)}?externalStateNonce=${nonce()}`);
    expect(allowed.statusCode).toBe(303);
  });

  it('removes at once after a recent proof of presence: 303 to the profile with the nonce, an event and a notice; the nonce once', async () => {
    const person = await newPerson('remove');
    await enrolEmail(person.caller, `gone.${counter}@elsewhere.test`);
    const added = (await factorIds(person.caller)).find((factor) => factor.editable);
    const stateNonce = nonce();
    const removed = await person.caller.delete(`${PATHS.factor(added?.ids[0] as string)}?externalStateNonce=${stateNonce}`);
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe(`/registry/profile?externalStateNonce=${stateNonce}`);
    expect((await factorIds(person.caller)).map((factor) => factor.editable)).toEqual([false]);
    const kinds = (await eventsOf(person.identity.id)).map((event) => event.kind);
    expect(kinds).toContain('factor.removed');
    const notices = await server.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, person.email), eq(outbox.subject, NOTICE_SUBJECT)));
    expect(notices.map((row) => row.body)).toEqual(expect.arrayContaining([expect.stringContaining('was removed')]));

    await enrolEmail(person.caller, `again.${counter}@elsewhere.test`);
    const again = (await factorIds(person.caller)).find((factor) => factor.editable);
    const reused = await person.caller.delete(`${PATHS.factor(again?.ids[0] as string)}?externalStateNonce=${stateNonce}`);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe(FACTOR_TEXTS.nonceUsed);
  });

  it('without a recent proof of presence, confirms on the hosted page with the password', async () => {
    const person = await newPerson('confirm');
    await enrolEmail(person.caller, `confirm.${counter}@elsewhere.test`);
    const added = (await factorIds(person.caller)).find((factor) => factor.editable);
    await agePresence(person.caller);
    const stateNonce = nonce();
    const started = await person.caller.delete(`${PATHS.factor(added?.ids[0] as string)}?externalStateNonce=${stateNonce}`);
    expect(started.statusCode).toBe(303);
    const flow = flowOf(started.headers.location as string);
    expect(flow).not.toBe('');
    const shown = await person.caller.get(`${PATHS.factorPage}?flow=${flow}`);
    expect(shown.body).toContain('Remove a email factor');
    expect(shown.body).toContain('Current password');
    const refused = await page(person.caller, { flow, action: 'remove', password: 'wrong password' });
    expect(refused.statusCode).toBe(400);
    expect((await factorIds(person.caller)).length).toBe(2);
    const done = await page(person.caller, { flow, action: 'remove', password: PASSWORD });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/registry/profile?externalStateNonce=${stateNonce}`);
    expect((await factorIds(person.caller)).length).toBe(1);
  });
});

describe('the development mailbox', () => {
  it("lists the outbox's latest messages", async () => {
    const person = await newPerson('mailbox');
    const { flow } = await startAdd(person.caller, 'Email');
    const address = `mailbox.${counter}@elsewhere.test`;
    await page(person.caller, { flow, action: 'send', destination: address });
    const mailbox = await server.anonymous.get(PATHS.devMailbox);
    expect(mailbox.statusCode).toBe(200);
    expect(mailbox.body).toContain('Development mailbox');
    expect(mailbox.body).toContain(address);
    expect(mailbox.body).toContain(`Your Loan Registry code is ${await latestCodeTo(address)}`);
  });

  it('is not served when a transport delivers the messages, nor in production', async () => {
    const withSmtp = await server.otherApp({ app: { config: { ...TEST_CONFIG, smtpUrl: 'smtp://127.0.0.1:2525' } } });
    expect((await withSmtp.anonymous.get(PATHS.devMailbox)).statusCode).not.toBe(200);
    const withSms = await server.otherApp({ app: { config: { ...TEST_CONFIG, smsWebhookUrl: 'http://127.0.0.1:9/sms' } } });
    expect((await withSms.anonymous.get(PATHS.devMailbox)).statusCode).not.toBe(200);
    const production = await server.otherApp({ app: { config: { ...TEST_CONFIG, nodeEnv: 'production' } } });
    expect((await production.anonymous.get(PATHS.devMailbox)).statusCode).not.toBe(200);
  });
});

describe('the second step at sign-in', () => {
  const signInForm = (email: string, password = PASSWORD) =>
    server.anonymous.inject({
      method: 'POST',
      url: PATHS.signIn,
      headers: { 'content-type': form },
      payload: new URLSearchParams({ email, password, returnTo: '/registry/profile' }).toString(),
    });
  const verify = (fields: Record<string, string>) =>
    server.anonymous.inject({
      method: 'POST',
      url: PATHS.signInVerify,
      headers: { 'content-type': form },
      payload: new URLSearchParams(fields).toString(),
    });
  const flowIn = (body: string) => /name="flow" value="([^"]+)"/.exec(body)?.[1] ?? '';
  const factorIdIn = (body: string) => /name="factorId" value="([^"]+)"/.exec(body)?.[1] ?? '';

  async function personWithFactor(prefix: string) {
    const person = await newPerson(prefix);
    const address = `${prefix}.${counter}@codes.test`;
    await enrolEmail(person.caller, address);
    return { ...person, address };
  }

  it('the account email alone asks for nothing more: the password signs in', async () => {
    const person = await newPerson('plain');
    const response = await signInForm(person.email);
    expect(response.statusCode).toBe(303);
    expect(response.cookies.some((cookie) => cookie.value !== '')).toBe(true);
  });

  it('asks an enrolled factor before any session, and signs in with its code', async () => {
    const person = await personWithFactor('second');
    const asked = await signInForm(person.email);
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('Confirm it is you');
    expect(asked.cookies.filter((cookie) => cookie.value !== '')).toEqual([]);
    const flow = flowIn(asked.body);
    const sent = await verify({ flow, action: 'send', factorId: factorIdIn(asked.body) });
    expect(sent.statusCode).toBe(200);
    const code = await latestCodeTo(person.address);
    const wrong = await verify({ flow, action: 'verify', code: wrongCodeFor(code) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(FACTOR_TEXTS.wrongCode);
    expect(wrong.cookies.filter((cookie) => cookie.value !== '')).toEqual([]);
    const passed = await verify({ flow, action: 'verify', code });
    expect(passed.statusCode).toBe(303);
    expect(passed.headers.location).toBe('/registry/profile');
    const cookie = passed.cookies.find((candidate) => candidate.value !== '');
    expect(cookie).toBeDefined();
    const caller = server.caller(`${cookie?.name}=${cookie?.value}`);
    expect((await caller.get(PATHS.figureInfo)).statusCode).toBe(200);
    // The step is used once.
    expect((await verify({ flow, action: 'verify', code })).statusCode).toBe(404);
    const kinds = (await eventsOf(person.identity.id)).map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(['sign-in.second-step', 'factor.code-failed', 'sign-in.success']));
  });

  it('takes a recovery code once', async () => {
    const person = await newPerson('recovery');
    const { flow: enrolFlow } = await startAdd(person.caller, 'Email');
    const address = `recovery.${counter}@codes.test`;
    await page(person.caller, { flow: enrolFlow, action: 'send', destination: address });
    const shown = await page(person.caller, { flow: enrolFlow, action: 'verify', code: await latestCodeTo(address) });
    const recoveryCode = /<li>([a-z0-9]{5}-[a-z0-9]{5})<\/li>/.exec(shown.body)?.[1] ?? '';
    const first = flowIn((await signInForm(person.email)).body);
    const used = await verify({ flow: first, action: 'recovery', recoveryCode: recoveryCode.toUpperCase() });
    expect(used.statusCode).toBe(303);
    const second = flowIn((await signInForm(person.email)).body);
    const again = await verify({ flow: second, action: 'recovery', recoveryCode });
    expect(again.statusCode).toBe(400);
    expect((await eventsOf(person.identity.id)).map((event) => event.kind)).toContain('recovery-code.used');
  });

  it('is throttled like the password step, and ends when the password changes', async () => {
    const person = await personWithFactor('throttled');
    const flow = flowIn((await signInForm(person.email)).body);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push((await verify({ flow, action: 'recovery', recoveryCode: 'aaaaa-bbbbb' })).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses[5]).toBe(429);
    await server.db.execute(sql`DELETE FROM sign_in_throttle`);
    const other = flowIn((await signInForm(person.email)).body);
    await server.db.execute(sql`UPDATE identities SET password_hash = 'changed' WHERE id = ${person.identity.id}`);
    expect((await verify({ flow: other, action: 'recovery', recoveryCode: 'aaaaa-bbbbb' })).statusCode).toBe(404);
  });
});
