import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  failureMessage,
  removalRefusalOf,
  securityFactorsMachine,
  selectFactorRows,
  type Redirected,
} from '../../machines/security-factors';
import { HttpError } from '../../src/contract/http-error';
import type { FactorList } from '../../src/contract/security-factors';
import { FACTOR_TEXTS } from '../../src/domain/security-factors';

const list = (overrides: Partial<FactorList> = {}): FactorList => ({
  factors: [
    { type: 'Email', value: 'u***@registry.test', editable: false, required: true, ids: ['e'] },
    { type: 'Phone', value: '(***) ***-0123', editable: true, required: false, ids: ['p'] },
  ],
  requireAtLeastOneOf: ['Email', 'Phone'],
  passwordManageable: true,
  ...overrides,
});

function start(options: { returned?: 'matched' | 'mismatched' | null; factors?: FactorList } = {}) {
  const actions = {
    notifyReturn: vi.fn(),
    notifyRemoved: vi.fn(),
    notifyLoadFailed: vi.fn(),
    notifyAddFailed: vi.fn(),
    notifyRemoveFailed: vi.fn(),
    notifyPasswordFailed: vi.fn(),
    openHostedPage: vi.fn(),
    focusList: vi.fn(),
    focusRemoval: vi.fn(),
  };
  const removals: unknown[] = [];
  const logic = securityFactorsMachine.provide({
    actors: {
      loadFactors: fromPromise(async () => options.factors ?? list()),
      startEnrolment: fromPromise(async (): Promise<Redirected> => ({ hostedUrl: 'http://localhost/hosted?flow=1' })),
      removeFactor: fromPromise(async ({ input }): Promise<Redirected> => {
        removals.push(input);
        return { hostedUrl: null };
      }),
      startPasswordChange: fromPromise(async (): Promise<Redirected> => ({ hostedUrl: 'http://localhost/password' })),
    },
    actions,
  });
  const actor = createActor(logic, { input: { returned: options.returned ?? null } }).start();
  return { actor, actions, removals };
}

describe('security-factors machine', () => {
  it('says how the return from a hosted page went, once', async () => {
    const matched = start({ returned: 'matched' });
    await waitFor(matched.actor, (snapshot) => snapshot.matches('ready'));
    expect(matched.actions.notifyReturn).toHaveBeenCalledTimes(1);
    expect(matched.actor.getSnapshot().context.returned).toBeNull();
    const plain = start();
    await waitFor(plain.actor, (snapshot) => snapshot.matches('ready'));
    expect(plain.actions.notifyReturn).not.toHaveBeenCalled();
  });

  it('confirms only a removal SPEC section 6 allows, and removes the confirmed factor', async () => {
    const { actor, removals, actions } = start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'factor.remove', factorId: 'e' });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'factor.remove', factorId: 'p' });
    expect(actor.getSnapshot().value).toBe('confirming');
    expect(actions.focusRemoval).toHaveBeenCalled();
    actor.send({ type: 'removal.confirm' });
    await waitFor(actor, (snapshot) => snapshot.matches('ready') && actions.notifyRemoved.mock.calls.length === 1);
    expect(removals).toEqual([{ factorId: 'p' }]);
  });

  it('offers the password change only to a manageable account', async () => {
    const { actor, actions } = start({ factors: list({ passwordManageable: false }) });
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'password.change' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actions.openHostedPage).not.toHaveBeenCalled();
  });

  it('opens the hosted page an enrolment redirects to', async () => {
    const { actor, actions } = start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    actor.send({ type: 'factor.add', factorType: 'SecurityKey' });
    await waitFor(actor, (snapshot) => snapshot.matches('leaving'));
    expect(actions.openHostedPage).toHaveBeenCalledWith(expect.anything(), { url: 'http://localhost/hosted?flow=1' });
  });

  it('gives each row its reason when it may not be removed', async () => {
    const { actor } = start();
    await waitFor(actor, (snapshot) => snapshot.matches('ready'));
    expect(selectFactorRows(actor.getSnapshot()).map((row) => row.refusal)).toEqual([FACTOR_TEXTS.notEditable, null]);
    expect(removalRefusalOf(list({ factors: [list().factors[1] as FactorList['factors'][number]] }), 'p')).toBe(
      FACTOR_TEXTS.lastOfRequired(['Email', 'Phone']),
    );
  });

  it("toasts the server's message of a 4xx, else the fallback", () => {
    const conflict = new HttpError(409, JSON.stringify({ statusCode: 409, error: 'Conflict', message: FACTOR_TEXTS.nonceUsed }));
    expect(failureMessage(conflict, 'fallback')).toBe(FACTOR_TEXTS.nonceUsed);
    expect(failureMessage(new HttpError(503, 'down'), 'fallback')).toBe('fallback');
  });
});
