import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  roleChoices,
  roleTransferMachine,
  selectChoices,
  selectDraft,
  selectFailure,
  selectIsBusy,
  selectIsOpen,
  selectReceiver,
  selectReceiverOptions,
  selectRefusal,
  selectStep,
  selectVisibleErrors,
  transferSubject,
  type RoleTransferSubmission,
  type TransferSubject,
} from '../../machines/role-transfer';
import { HttpError } from '../../src/contract/http-error';
import type { DirectoryEntry, RoleRequest } from '../../src/contract/role-requests';
import { ROLE_REQUEST_ERRORS, ROLE_TRANSFER_TEXTS as T } from '../../src/domain/role-transfer';

const org = (index: number) => `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`;
const [A, B, C, D] = [org(1), org(2), org(3), org(4)];
const loanId = '5f0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f';
const uli = '5493001KJTIIGC8Y1R12ABCDEF1234567890';

const directory: DirectoryEntry[] = [
  { id: A, name: 'Harbor Capital' },
  { id: B, name: 'Bayside Servicing' },
  { id: C, name: 'Copper Trust' },
  { id: D, name: 'Delta Bank' },
];

/** A owns the loan and holds a PENDING controller role; B services it; C is its secured party. */
const subject: TransferSubject = {
  loanId,
  uli,
  participantId: A,
  parties: [
    { role: 'OWNER', participantId: A, state: 'CONFIRMED' },
    { role: 'SERVICER', participantId: B, state: 'CONFIRMED' },
    { role: 'CONTROLLER', participantId: A, state: 'PENDING' },
    { role: 'SECURED_PARTY', participantId: C, state: 'CONFIRMED' },
  ],
};

const sent: RoleRequest = {
  id: '9a0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f',
  loanId,
  role: 'SERVICER',
  state: 'PENDING',
  receiver: { id: C, name: 'Copper Trust' },
  created: '2026-01-02T10:00:00.000Z',
};

const refused = (status: number, message: string) =>
  new HttpError(status, JSON.stringify({ statusCode: status, error: status === 409 ? 'Conflict' : 'Bad Request', message }));

function start(
  options: {
    load?: (signal: AbortSignal) => Promise<readonly DirectoryEntry[]>;
    send?: (submission: RoleTransferSubmission) => Promise<RoleRequest>;
  } = {},
) {
  const loads: AbortSignal[] = [];
  const submissions: RoleTransferSubmission[] = [];
  const focused: (string | undefined)[] = [];
  const notifySent = vi.fn();
  const notifyFailed = vi.fn();
  const reloadAsset = vi.fn();
  const logic = roleTransferMachine.provide({
    actors: {
      loadDirectory: fromPromise(({ signal }) => {
        loads.push(signal);
        return options.load ? options.load(signal) : Promise.resolve(directory);
      }),
      sendRequest: fromPromise(({ input }) => {
        submissions.push(input);
        return options.send ? options.send(input) : Promise.resolve(sent);
      }),
    },
    actions: { focusField: (_, { field }) => void focused.push(field), notifySent, notifyFailed, reloadAsset },
  });
  const actor = createActor(logic).start();
  return { actor, loads, submissions, focused, notifySent, notifyFailed, reloadAsset };
}

type Started = ReturnType<typeof start>;

async function openEditing(started: Started) {
  started.actor.send({ type: 'transfer.open', subject });
  return waitFor(started.actor, (snapshot) => selectStep(snapshot) === 'editing');
}

/** A valid draft: the servicer role to Copper Trust, then the review. */
async function review(started: Started) {
  await openEditing(started);
  started.actor.send({ type: 'form.role', role: 'SERVICER' });
  started.actor.send({ type: 'form.receiver', receiverId: C });
  started.actor.send({ type: 'form.review' });
  expect(selectStep(started.actor.getSnapshot())).toBe('reviewing');
}

const names = (entries: readonly DirectoryEntry[]) => entries.map((entry) => entry.name);

describe('role choices (the server rule, with holder and state)', () => {
  it('offers the roles held, and servicer and sub-servicer to the owner; a PENDING one is marked', () => {
    expect(roleChoices(subject)).toEqual([
      { role: 'OWNER', holderId: A, pending: false },
      { role: 'SERVICER', holderId: B, pending: false },
      { role: 'CONTROLLER', holderId: A, pending: true },
    ]);
    expect(roleChoices({ ...subject, participantId: C })).toEqual([{ role: 'SECURED_PARTY', holderId: C, pending: false }]);
    expect(roleChoices({ ...subject, participantId: B })).toEqual([{ role: 'SERVICER', holderId: B, pending: false }]);
  });

  it('gives a subject only to an organization that may transfer a role of a loan not deactivated', () => {
    const details = (deactivated: boolean) => ({ loan: { loanId, deactivated, loanData: { loan: { uli } } }, parties: subject.parties });
    expect(transferSubject(details(false), A)).toEqual(subject);
    expect(transferSubject(details(false), D)).toBeNull();
    expect(transferSubject(details(true), A)).toBeNull();
    expect(transferSubject(details(false), null)).toBeNull();
    expect(transferSubject(null, A)).toBeNull();
  });
});

describe('role transfer machine', () => {
  it('starts closed; opening loads the directory, once per opening', async () => {
    const started = start();
    expect(selectIsOpen(started.actor.getSnapshot())).toBe(false);
    started.actor.send({ type: 'transfer.open', subject });
    expect(selectStep(started.actor.getSnapshot())).toBe('loading');
    expect(selectIsBusy(started.actor.getSnapshot())).toBe(true);
    const editing = await waitFor(started.actor, (snapshot) => selectStep(snapshot) === 'editing');
    expect(selectChoices(editing).map((choice) => choice.role)).toEqual(['OWNER', 'SERVICER', 'CONTROLLER']);
    expect(selectVisibleErrors(editing)).toEqual({});
    expect(started.loads).toHaveLength(1);
    started.actor.send({ type: 'transfer.close' });
    expect(selectStep(started.actor.getSnapshot())).toBe('closed');
    await openEditing(started);
    expect(started.loads).toHaveLength(2);
  });

  it('leaves the asking organization and the chosen role’s holder out of the receivers', async () => {
    const started = start();
    const editing = await openEditing(started);
    expect(names(selectReceiverOptions(editing))).toEqual(['Bayside Servicing', 'Copper Trust', 'Delta Bank']);
    started.actor.send({ type: 'form.role', role: 'SERVICER' });
    expect(names(selectReceiverOptions(started.actor.getSnapshot()))).toEqual(['Copper Trust', 'Delta Bank']);
    started.actor.send({ type: 'form.role', role: 'OWNER' });
    expect(names(selectReceiverOptions(started.actor.getSnapshot()))).toEqual(['Bayside Servicing', 'Copper Trust', 'Delta Bank']);
  });

  it('refuses a PENDING role, a role not offered, and a receiver that is not a candidate', async () => {
    const started = start();
    await openEditing(started);
    started.actor.send({ type: 'form.role', role: 'CONTROLLER' });
    started.actor.send({ type: 'form.role', role: 'SECURED_PARTY' });
    expect(selectDraft(started.actor.getSnapshot()).role).toBe('');
    started.actor.send({ type: 'form.role', role: 'SERVICER' });
    for (const receiverId of [A, B, org(99)]) started.actor.send({ type: 'form.receiver', receiverId });
    expect(selectDraft(started.actor.getSnapshot())).toEqual({ role: 'SERVICER', receiverId: '' });
  });

  it('lets go of the receiver when the role chosen next is the receiver’s own', async () => {
    const started = start();
    await openEditing(started);
    started.actor.send({ type: 'form.receiver', receiverId: B });
    expect(selectReceiver(started.actor.getSnapshot())).toEqual({ id: B, name: 'Bayside Servicing' });
    started.actor.send({ type: 'form.role', role: 'OWNER' });
    expect(selectDraft(started.actor.getSnapshot())).toEqual({ role: 'OWNER', receiverId: B });
    started.actor.send({ type: 'form.role', role: 'SERVICER' });
    expect(selectDraft(started.actor.getSnapshot())).toEqual({ role: 'SERVICER', receiverId: '' });
  });

  it('searches the receivers by name in any case, finds none for other text, and clears the search on a choice', async () => {
    const started = start();
    await openEditing(started);
    started.actor.send({ type: 'form.search', query: '  dELta ' });
    expect(names(selectReceiverOptions(started.actor.getSnapshot()))).toEqual(['Delta Bank']);
    started.actor.send({ type: 'form.search', query: 'Harbor' });
    expect(selectReceiverOptions(started.actor.getSnapshot())).toEqual([]);
    started.actor.send({ type: 'form.search', query: 'delta' });
    started.actor.send({ type: 'form.receiver', receiverId: D });
    expect(started.actor.getSnapshot().context.query).toBe('');
    expect(selectDraft(started.actor.getSnapshot()).receiverId).toBe(D);
  });

  it('refuses to review an incomplete draft: the texts show, the focus goes to the first, and they follow each change', async () => {
    const started = start();
    await openEditing(started);
    started.actor.send({ type: 'form.review' });
    expect(selectStep(started.actor.getSnapshot())).toBe('editing');
    expect(selectVisibleErrors(started.actor.getSnapshot())).toEqual({ role: T.roleRequired, receiverId: T.receiverRequired });
    expect(started.focused).toEqual(['role']);
    started.actor.send({ type: 'form.role', role: 'OWNER' });
    expect(selectVisibleErrors(started.actor.getSnapshot())).toEqual({ receiverId: T.receiverRequired });
    started.actor.send({ type: 'form.review' });
    expect(started.focused).toEqual(['role', 'receiverId']);
    started.actor.send({ type: 'form.receiver', receiverId: D });
    expect(selectVisibleErrors(started.actor.getSnapshot())).toEqual({});
    started.actor.send({ type: 'form.review' });
    expect(selectStep(started.actor.getSnapshot())).toBe('reviewing');
    expect(started.submissions).toEqual([]);
  });

  it('goes back from the review with the draft kept', async () => {
    const started = start();
    await review(started);
    started.actor.send({ type: 'form.back' });
    expect(selectStep(started.actor.getSnapshot())).toBe('editing');
    expect(selectDraft(started.actor.getSnapshot())).toEqual({ role: 'SERVICER', receiverId: C });
  });

  it('sends the request; on success it toasts, closes and has the asset loaded again', async () => {
    let resolve: (value: RoleRequest) => void = () => undefined;
    const started = start({ send: () => new Promise((done) => (resolve = done)) });
    await review(started);
    started.actor.send({ type: 'form.submit' });
    expect(selectStep(started.actor.getSnapshot())).toBe('submitting');
    expect(selectIsBusy(started.actor.getSnapshot())).toBe(true);
    expect(started.submissions).toEqual([{ loanId, body: { role: 'SERVICER', participantId: C } }]);
    // Neither a second send nor a close while the request is on its way.
    started.actor.send({ type: 'form.submit' });
    started.actor.send({ type: 'transfer.close' });
    expect(selectStep(started.actor.getSnapshot())).toBe('submitting');
    expect(started.submissions).toHaveLength(1);
    resolve(sent);
    await waitFor(started.actor, (snapshot) => selectStep(snapshot) === 'closed');
    expect(started.notifySent).toHaveBeenCalledTimes(1);
    expect(started.reloadAsset).toHaveBeenCalledTimes(1);
    expect(started.notifyFailed).not.toHaveBeenCalled();
    // The next opening starts from an empty draft.
    expect(selectDraft(await openEditing(started))).toEqual({ role: '', receiverId: '' });
  });

  it('shows the server’s refusal over the kept draft without a toast; back to the form, or send again', async () => {
    const answers = [refused(409, ROLE_REQUEST_ERRORS.alreadyPending), refused(400, ROLE_REQUEST_ERRORS.receiverHoldsRole)];
    const started = start({
      send: async () => {
        const answer = answers.shift();
        if (answer) throw answer;
        return sent;
      },
    });
    await review(started);
    started.actor.send({ type: 'form.submit' });
    let failed = await waitFor(started.actor, (snapshot) => selectStep(snapshot) === 'failed');
    expect(selectRefusal(failed)).toBe(ROLE_REQUEST_ERRORS.alreadyPending);
    expect(selectFailure(failed)).toBe(ROLE_REQUEST_ERRORS.alreadyPending);
    expect(selectDraft(failed)).toEqual({ role: 'SERVICER', receiverId: C });
    expect(started.notifyFailed).not.toHaveBeenCalled();
    started.actor.send({ type: 'form.back' });
    expect(selectStep(started.actor.getSnapshot())).toBe('editing');
    expect(selectRefusal(started.actor.getSnapshot())).toBeNull();
    expect(selectFailure(started.actor.getSnapshot())).toBeNull();
    started.actor.send({ type: 'form.review' });
    started.actor.send({ type: 'form.submit' });
    failed = await waitFor(started.actor, (snapshot) => selectStep(snapshot) === 'failed');
    expect(selectRefusal(failed)).toBe(ROLE_REQUEST_ERRORS.receiverHoldsRole);
    started.actor.send({ type: 'form.submit' });
    expect(selectRefusal(started.actor.getSnapshot())).toBeNull();
    await waitFor(started.actor, (snapshot) => selectStep(snapshot) === 'closed');
    expect(started.submissions).toHaveLength(3);
    expect(started.reloadAsset).toHaveBeenCalledTimes(1);
  });

  it('toasts any other failure and keeps the review for another try', async () => {
    for (const error of [
      new HttpError(500, '{"message":"Internal Server Error"}'),
      new HttpError(404, '{"message":"Loan not found"}'),
      new TypeError('offline'),
    ]) {
      const started = start({
        send: async () => {
          throw error;
        },
      });
      await review(started);
      started.actor.send({ type: 'form.submit' });
      const failed = await waitFor(started.actor, (snapshot) => selectStep(snapshot) === 'failed');
      expect(selectRefusal(failed)).toBeNull();
      expect(selectFailure(failed)).toBe(T.failed);
      expect(started.notifyFailed).toHaveBeenCalledTimes(1);
      expect(started.reloadAsset).not.toHaveBeenCalled();
      started.actor.send({ type: 'transfer.close' });
      expect(selectStep(started.actor.getSnapshot())).toBe('closed');
    }
  });

  it('says when the directory cannot be loaded, and loads it again on retry', async () => {
    let attempts = 0;
    const started = start({
      load: async () => {
        attempts += 1;
        if (attempts === 1) throw new HttpError(500, 'Internal Server Error');
        return directory;
      },
    });
    started.actor.send({ type: 'transfer.open', subject });
    await waitFor(started.actor, (snapshot) => selectStep(snapshot) === 'directoryFailed');
    expect(selectIsBusy(started.actor.getSnapshot())).toBe(false);
    started.actor.send({ type: 'directory.retry' });
    expect(selectStep(started.actor.getSnapshot())).toBe('loading');
    const editing = await waitFor(started.actor, (snapshot) => selectStep(snapshot) === 'editing');
    expect(selectReceiverOptions(editing)).toHaveLength(3);
    expect(started.loads).toHaveLength(2);
  });

  it('closes from every step but sending; closing while loading aborts the call', async () => {
    const pending = start({ load: () => new Promise(() => undefined) });
    pending.actor.send({ type: 'transfer.open', subject });
    pending.actor.send({ type: 'transfer.close' });
    expect(selectStep(pending.actor.getSnapshot())).toBe('closed');
    expect(pending.loads[0]?.aborted).toBe(true);

    const failing = start({ load: () => Promise.reject(new Error('offline')) });
    failing.actor.send({ type: 'transfer.open', subject });
    await waitFor(failing.actor, (snapshot) => selectStep(snapshot) === 'directoryFailed');
    failing.actor.send({ type: 'transfer.close' });
    expect(selectStep(failing.actor.getSnapshot())).toBe('closed');

    const started = start();
    await openEditing(started);
    started.actor.send({ type: 'transfer.close' });
    expect(selectStep(started.actor.getSnapshot())).toBe('closed');
    await review(started);
    started.actor.send({ type: 'transfer.close' });
    expect(selectStep(started.actor.getSnapshot())).toBe('closed');
    expect(started.submissions).toEqual([]);
  });
});
