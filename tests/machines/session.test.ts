import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { HttpError } from '../../src/contract/http-error';
import { PERMISSION_REFUSALS } from '../../src/domain/access';
import { APP_PATHS } from '../../src/domain/app-paths';
import {
  selectIsRegistryStaff,
  selectLoginRedirect,
  selectPermissionRefused,
  selectSessionSettling,
  selectSignedInOrganization,
  sessionMachine,
  type Account,
} from '../../machines/session';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';

const organizations = [sampleOrganization(1, true), sampleOrganization(2)];
const account: Account = { user: sampleUser, organizations };
const invalidParticipant = new HttpError(403, '{"statusCode":403,"error":"Forbidden","message":"Invalid participant"}');

function startSession(
  options: {
    stored?: string | null;
    identity?: () => Promise<typeof sampleIdentity>;
    account?: (participantId: string | null) => Promise<Account>;
    logout?: () => Promise<void>;
  } = {},
) {
  const effects = {
    storeParticipant: vi.fn(),
    clearStoredParticipant: vi.fn(),
    navigateToDashboard: vi.fn(),
    notifyInvalidParticipant: vi.fn(),
    startHostedLogin: vi.fn(),
  };
  const fetchAccount = vi.fn(options.account ?? (async () => account));
  const machine = sessionMachine.provide({
    actors: {
      fetchIdentity: fromPromise(options.identity ?? (async () => sampleIdentity)),
      fetchAccount: fromPromise(({ input }) => fetchAccount(input.participantId)),
      logout: fromPromise(options.logout ?? (async () => undefined)),
    },
    actions: {
      storeParticipant: (_, params) => effects.storeParticipant(params.participantId),
      clearStoredParticipant: effects.clearStoredParticipant,
      navigateToDashboard: effects.navigateToDashboard,
      notifyInvalidParticipant: effects.notifyInvalidParticipant,
      startHostedLogin: effects.startHostedLogin,
    },
  });
  const actor = createActor(machine, { input: { storedParticipantId: options.stored ?? null } }).start();
  return { actor, effects, fetchAccount };
}

describe('session machine', () => {
  it('signs in with the default organization and stores it', async () => {
    const { actor, effects } = startSession();
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(actor.getSnapshot().context.participantId).toBe(organizations[0]?.participant.id);
    expect(actor.getSnapshot().context.identity?.email).toBe('user@registry.test');
    expect(effects.storeParticipant).toHaveBeenCalledWith(organizations[0]?.participant.id);
  });

  it('keeps a stored organization the user belongs to', async () => {
    const stored = organizations[1]?.participant.id ?? '';
    const { actor, fetchAccount } = startSession({ stored });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(fetchAccount).toHaveBeenCalledWith(stored);
    expect(actor.getSnapshot().context.participantId).toBe(stored);
  });

  it('drops a stored organization answered with Invalid participant, toasts and goes to the dashboard', async () => {
    const { actor, effects, fetchAccount } = startSession({
      stored: 'ffffffff-0000-4000-8000-000000000000',
      account: async (participantId) => {
        if (participantId) throw invalidParticipant;
        return account;
      },
    });
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(fetchAccount).toHaveBeenNthCalledWith(1, 'ffffffff-0000-4000-8000-000000000000');
    expect(fetchAccount).toHaveBeenNthCalledWith(2, null);
    expect(effects.clearStoredParticipant).toHaveBeenCalledTimes(1);
    expect(effects.notifyInvalidParticipant).toHaveBeenCalledTimes(1);
    expect(effects.navigateToDashboard).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.participantId).toBe(organizations[0]?.participant.id);
  });

  it('is signed out (unauthorized) when the identity check answers 401', async () => {
    const { actor } = startSession({ identity: async () => Promise.reject(new HttpError(401, 'Authentication required')) });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(actor.getSnapshot().matches({ signedOut: 'unauthorized' })).toBe(true);
    expect(actor.getSnapshot().hasTag('identified')).toBe(false);
  });

  it('is settling while it loads the identity and the account, and no longer once it knows', async () => {
    let answerIdentity: (identity: typeof sampleIdentity) => void = () => undefined;
    let answerAccount: (account: Account) => void = () => undefined;
    const { actor } = startSession({
      identity: () => new Promise((resolve) => (answerIdentity = resolve)),
      account: () => new Promise((resolve) => (answerAccount = resolve)),
    });
    expect(selectSessionSettling(actor.getSnapshot())).toBe(true);
    answerIdentity(sampleIdentity);
    await waitFor(actor, (s) => s.matches('loadingAccount'));
    expect(selectSessionSettling(actor.getSnapshot())).toBe(true);
    answerAccount(account);
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(selectSessionSettling(actor.getSnapshot())).toBe(false);
    const signedOut = startSession({ identity: async () => Promise.reject(new HttpError(401, 'Authentication required')) }).actor;
    await waitFor(signedOut, (s) => s.matches('signedOut'));
    expect(selectSessionSettling(signedOut.getSnapshot())).toBe(false);
  });

  it('is unregistered when the identity has no registry user (404)', async () => {
    const { actor } = startSession({ account: async () => Promise.reject(new HttpError(404, 'User not found.')) });
    await waitFor(actor, (s) => s.matches('unregistered'));
    expect(actor.getSnapshot().hasTag('identified')).toBe(true);
  });

  it('has no organization to act for when every organization of the account is inactive: no loop, login with a notice', async () => {
    const { actor, effects, fetchAccount } = startSession({
      stored: organizations[0]?.participant.id ?? null,
      account: async () => ({ user: sampleUser, organizations: [] }),
    });
    await waitFor(actor, (s) => s.matches('noOrganization'));
    expect(actor.getSnapshot().context.participantId).toBeNull();
    expect(effects.clearStoredParticipant).toHaveBeenCalledTimes(1);
    expect(selectSignedInOrganization(actor.getSnapshot())).toBeNull();
    expect(selectLoginRedirect(actor.getSnapshot())).toBe(APP_PATHS.login);
    // A screen's call failing with Invalid participant (as one naming no organization would) changes nothing.
    actor.send({ type: 'session.callFailed', error: invalidParticipant });
    expect(actor.getSnapshot().matches('noOrganization')).toBe(true);
    expect(fetchAccount).toHaveBeenCalledTimes(1);
    expect(effects.notifyInvalidParticipant).not.toHaveBeenCalled();
    actor.send({ type: 'session.signOut' });
    await waitFor(actor, (s) => s.matches({ signedOut: 'byUser' }));
  });

  it('fails, not loops, when the account answers Invalid participant with no organization named', async () => {
    const { actor, effects, fetchAccount } = startSession({ account: async () => Promise.reject(invalidParticipant) });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(fetchAccount).toHaveBeenCalledTimes(1);
    expect(effects.notifyInvalidParticipant).not.toHaveBeenCalled();
  });

  it('fails on a server error and retries on request', async () => {
    let calls = 0;
    const { actor } = startSession({
      identity: async () => {
        calls += 1;
        if (calls === 1) throw new HttpError(500, 'Internal Server Error');
        return sampleIdentity;
      },
    });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'session.retry' });
    await waitFor(actor, (s) => s.matches('signedIn'));
  });

  it('switches only to an organization of the user, storing it and going to the dashboard', async () => {
    const { actor, effects } = startSession();
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'organization.switch', participantId: 'ffffffff-0000-4000-8000-000000000000' });
    expect(actor.getSnapshot().context.participantId).toBe(organizations[0]?.participant.id);
    expect(effects.navigateToDashboard).not.toHaveBeenCalled();
    const second = organizations[1]?.participant.id ?? '';
    actor.send({ type: 'organization.switch', participantId: second });
    expect(actor.getSnapshot().context.participantId).toBe(second);
    expect(effects.storeParticipant).toHaveBeenLastCalledWith(second);
    expect(effects.navigateToDashboard).toHaveBeenCalledTimes(1);
    // Choosing the current organization again is no switch: the user stays on the screen.
    actor.send({ type: 'organization.switch', participantId: second });
    expect(effects.navigateToDashboard).toHaveBeenCalledTimes(1);
    expect(effects.storeParticipant).toHaveBeenCalledTimes(2);
  });

  it('re-checks identity on a 401 from any call and signs out when it is gone', async () => {
    let identityCalls = 0;
    const { actor } = startSession({
      identity: async () => {
        identityCalls += 1;
        if (identityCalls > 1) throw new HttpError(401, 'Authentication required');
        return sampleIdentity;
      },
    });
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'session.callFailed', error: new HttpError(401, 'Authentication required') });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(actor.getSnapshot().matches({ signedOut: 'unauthorized' })).toBe(true);
    expect(identityCalls).toBe(2);
  });

  it('handles Invalid participant from any call and ignores other failures', async () => {
    const { actor, effects } = startSession();
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'session.callFailed', error: new HttpError(500, 'Internal Server Error') });
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    actor.send({ type: 'session.callFailed', error: new HttpError(400, 'oops: Invalid participant') });
    expect(actor.getSnapshot().matches('loadingAccount')).toBe(true);
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(effects.notifyInvalidParticipant).toHaveBeenCalledTimes(1);
    expect(effects.clearStoredParticipant).toHaveBeenCalledTimes(1);
  });

  it('shows the Invalid Permissions page on a role refusal, keeping the organization, until the user goes elsewhere', async () => {
    const { actor, effects } = startSession();
    await waitFor(actor, (s) => s.matches('signedIn'));
    const participantId = actor.getSnapshot().context.participantId;
    const refusal = (message: string) => new HttpError(403, JSON.stringify({ statusCode: 403, error: 'Forbidden', message }));
    for (const message of Object.values(PERMISSION_REFUSALS)) {
      actor.send({ type: 'session.callFailed', error: refusal(message) });
      expect(selectPermissionRefused(actor.getSnapshot())).toBe(true);
      // Not SPEC section 8's Invalid participant: the organization stays, no toast, no reload.
      expect(actor.getSnapshot().context.participantId).toBe(participantId);
      expect(effects.notifyInvalidParticipant).not.toHaveBeenCalled();
      expect(effects.clearStoredParticipant).not.toHaveBeenCalled();
      actor.send({ type: 'session.pageChanged' });
      expect(selectPermissionRefused(actor.getSnapshot())).toBe(false);
      expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    }
    // Any other 403 body is still Invalid participant (SPEC section 8).
    actor.send({ type: 'session.callFailed', error: refusal('Invalid participant') });
    expect(actor.getSnapshot().matches('loadingAccount')).toBe(true);
    await waitFor(actor, (s) => s.matches('signedIn'));
    expect(effects.notifyInvalidParticipant).toHaveBeenCalledTimes(1);
  });

  it('ends the Invalid Permissions page on a 401 (login) and on an organization switch (dashboard)', async () => {
    const refused = new HttpError(403, JSON.stringify({ message: PERMISSION_REFUSALS['registry-staff'] }));
    const { actor, effects } = startSession();
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'session.callFailed', error: refused });
    actor.send({ type: 'organization.switch', participantId: organizations[1]?.participant.id ?? '' });
    expect(actor.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(effects.navigateToDashboard).toHaveBeenCalledTimes(1);
    actor.send({ type: 'session.callFailed', error: refused });
    actor.send({ type: 'session.callFailed', error: new HttpError(401, 'Authentication required') });
    expect(actor.getSnapshot().matches('checkingIdentity')).toBe(true);
  });

  it('tells registry staff (ROLE_DART_ADMIN or ROLE_DART_OPS of service-dart) from other users', async () => {
    const cases: [Record<string, string[]>, boolean][] = [
      [{ 'service-dart': ['ROLE_DART_ADMIN'] }, true],
      [{ 'service-dart': ['ROLE_DART_OPS'] }, true],
      [{ 'service-dart': ['ROLE_DART_USER'] }, false],
      [{ csp: ['ROLE_DART_ADMIN'] }, false],
    ];
    for (const [roles, expected] of cases) {
      const { actor } = startSession({ identity: async () => ({ ...sampleIdentity, roles }) });
      await waitFor(actor, (s) => s.matches('signedIn'));
      expect(selectIsRegistryStaff(actor.getSnapshot())).toBe(expected);
      actor.stop();
    }
  });

  it('signs out: clears the stored organization and forgets the identity', async () => {
    const { actor, effects } = startSession();
    await waitFor(actor, (s) => s.matches('signedIn'));
    actor.send({ type: 'session.signOut' });
    await waitFor(actor, (s) => s.matches('signedOut'));
    expect(actor.getSnapshot().matches({ signedOut: 'byUser' })).toBe(true);
    expect(actor.getSnapshot().context.identity).toBeNull();
    expect(effects.clearStoredParticipant).toHaveBeenCalledTimes(1);
  });

  it('starts the hosted login from signed out', async () => {
    const { actor, effects } = startSession({ identity: async () => Promise.reject(new HttpError(401, '')) });
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'session.logIn' });
    expect(effects.startHostedLogin).toHaveBeenCalledTimes(1);
    expect(effects.startHostedLogin.mock.calls[0]?.[1]).toEqual({ returnTo: null });
  });

  it('gives the hosted login the screen to come back to', async () => {
    const { actor, effects } = startSession({ identity: async () => Promise.reject(new HttpError(401, '')) });
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.send({ type: 'session.logIn', returnTo: '/assets/pools?page=2' });
    expect(effects.startHostedLogin.mock.calls[0]?.[1]).toEqual({ returnTo: '/assets/pools?page=2' });
  });
});
