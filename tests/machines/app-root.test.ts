import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, sendTo, setup } from 'xstate';
import { appActor, appRootMachine, selectScreen, type AppSystemId } from '../../machines/app-root';
import { batchDownloadMachine } from '../../machines/batch-download';
import { messageCountMachine } from '../../machines/message-count';
import { sessionMachine, type Account, type OrganizationChanged } from '../../machines/session';
import { selectVisibleToasts, toastShow } from '../../machines/toasts';
import { HttpError } from '../../src/contract/http-error';
import type { Job } from '../../src/contract/jobs';
import { JOB_POLL_INTERVAL_MS } from '../../src/domain/constants';
import { BATCH_DOWNLOAD_TEXTS, TEXTS } from '../../src/domain/texts';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';

const organizations = [sampleOrganization(1, true), sampleOrganization(2)];
const [first, second] = organizations.map((entry) => entry.participant.id) as [string, string];
const account: Account = { user: sampleUser, organizations };
const invalidParticipant = new HttpError(403, '{"statusCode":403,"error":"Forbidden","message":"Invalid participant"}');
const APP_ACTORS: readonly AppSystemId[] = ['toasts', 'session', 'navigation', 'batchDownload', 'messageCount'];

const doneJob: Job = {
  jobId: '4f6f2a8e-51a2-4e53-9a57-6a3f1d1c2b10',
  type: 'BATCH_DOWNLOAD_AOMS',
  status: 'DONE',
  progress: 3,
  total: 3,
  error: null,
  delivered: false,
  createdAt: '2026-01-15T10:00:00.000Z',
  updatedAt: '2026-01-15T10:00:00.000Z',
};

/** The root with fake calls behind every app-wide actor; the session signs in with `account`. */
function startRoot(options: { jobs?: () => Promise<Job[]> } = {}) {
  const countCalls = vi.fn(async () => 4);
  const jobCalls = vi.fn(options.jobs ?? (async (): Promise<Job[]> => []));
  const accountCalls = vi.fn(async (_participantId: string | null) => account);
  const logic = appRootMachine.provide({
    actors: {
      session: sessionMachine.provide({
        actors: {
          fetchIdentity: fromPromise(async () => sampleIdentity),
          fetchAccount: fromPromise(({ input }) => accountCalls(input.participantId)),
          logout: fromPromise(async (): Promise<void> => undefined),
        },
      }),
      messageCount: messageCountMachine.provide({ actors: { fetchUnreadCount: fromPromise(() => countCalls()) } }),
      batchDownload: batchDownloadMachine.provide({
        actors: {
          fetchJobs: fromPromise(() => jobCalls()),
          startJob: fromPromise(async (): Promise<Job> => ({ ...doneJob, status: 'PENDING', progress: 0 })),
          downloadZip: fromPromise(async () => ({ file: new Blob(['zip']), fileName: 'a.zip' })),
        },
      }),
    },
  });
  const root = createActor(logic, { input: { session: { storedParticipantId: null }, navigation: { collapsed: true } } }).start();
  const get = <K extends AppSystemId>(systemId: K) => appActor(root.system, systemId);
  const toastMessages = () => selectVisibleToasts(get('toasts').getSnapshot()).map((toast) => toast.message);
  return { root, get, toastMessages, countCalls, jobCalls, accountCalls };
}

/** A screen's machine that toasts its input's message on start, as a screen reaches the toasts. */
const toastingScreen = setup({ types: { input: {} as { message: string }, context: {} as { message: string } } }).createMachine({
  context: ({ input }) => input,
  entry: sendTo(
    ({ system }) => system.get('toasts'),
    ({ context }) => toastShow('info', context.message),
  ),
});

/** Lets the fake calls settle under fake timers. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('app root machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs every app-wide actor under its systemId, with the input meant for it', () => {
    const { root, get } = startRoot();
    expect(root.getSnapshot().matches('running')).toBe(true);
    for (const systemId of APP_ACTORS) expect(get(systemId).getSnapshot().status).toBe('active');
    expect(get('navigation').getSnapshot().matches({ sidebar: 'collapsed' })).toBe(true);
    expect(get('session').getSnapshot().context.participantId).toBeNull();
  });

  it('the unread count and the batch download load once the session names an organization, not before', async () => {
    const { get, countCalls, jobCalls } = startRoot();
    expect(get('messageCount').getSnapshot().matches('idle')).toBe(true);
    expect(get('batchDownload').getSnapshot().matches('idle')).toBe(true);
    await settle();
    expect(get('session').getSnapshot().matches('signedIn')).toBe(true);
    expect(countCalls).toHaveBeenCalledTimes(1);
    expect(jobCalls).toHaveBeenCalledTimes(1);
    expect(get('messageCount').getSnapshot().context.unreadCount).toBe(4);
    expect(get('batchDownload').getSnapshot().matches({ active: 'ready' })).toBe(true);
  });

  it('an organization switch reloads both for the new organization; sign-out forgets them', async () => {
    const { get, countCalls, jobCalls } = startRoot();
    await settle();
    get('session').send({ type: 'organization.switch', participantId: second });
    // The old organization's count is gone at once, before the new one arrives.
    expect(get('messageCount').getSnapshot().context.unreadCount).toBeNull();
    await settle();
    expect(countCalls).toHaveBeenCalledTimes(2);
    expect(jobCalls).toHaveBeenCalledTimes(2);
    get('session').send({ type: 'session.signOut' });
    await settle();
    expect(get('session').getSnapshot().matches('signedOut')).toBe(true);
    expect(get('messageCount').getSnapshot().matches('idle')).toBe(true);
    expect(get('batchDownload').getSnapshot().matches('idle')).toBe(true);
  });

  it("the session's 'Invalid participant' toast reaches the toasts actor, and the account loads again", async () => {
    const { get, toastMessages, accountCalls, countCalls } = startRoot();
    await settle();
    get('session').send({ type: 'session.callFailed', error: invalidParticipant });
    expect(toastMessages()).toEqual([TEXTS.invalidParticipantToast]);
    // Signed in again (the account reloaded): the followers load again too.
    await settle();
    expect(accountCalls).toHaveBeenLastCalledWith(null);
    expect(countCalls).toHaveBeenCalledTimes(2);
  });

  it("the batch download's 'Download complete!' reaches the toasts actor", async () => {
    let jobs: Job[] = [];
    const { get, toastMessages } = startRoot({ jobs: async () => jobs });
    await settle();
    get('batchDownload').send({ type: 'batch.start', request: { type: 'BATCH_DOWNLOAD_AOMS', loanIds: [] } });
    await settle();
    expect(get('batchDownload').getSnapshot().matches({ active: 'polling' })).toBe(true);
    jobs = [doneJob];
    await vi.advanceTimersByTimeAsync(JOB_POLL_INTERVAL_MS);
    expect(get('batchDownload').getSnapshot().matches({ active: 'ready' })).toBe(true);
    expect(toastMessages()).toEqual([BATCH_DOWNLOAD_TEXTS.downloadComplete]);
  });

  it('stopping the root stops every app-wide actor', async () => {
    const { root, get } = startRoot();
    await settle();
    const actors = APP_ACTORS.map((systemId) => get(systemId));
    root.stop();
    for (const actor of actors) expect(actor.getSnapshot().status).toBe('stopped');
  });
});

describe('session organization events', () => {
  it('names the organization on sign-in and on a switch, and none while the account loads again', async () => {
    vi.useFakeTimers();
    const { get } = startRoot();
    const seen: Array<string | null> = [];
    get('session').on('session.organizationChanged', (event: OrganizationChanged) => seen.push(event.participantId));
    await settle();
    get('session').send({ type: 'organization.switch', participantId: second });
    get('session').send({ type: 'session.callFailed', error: invalidParticipant });
    await settle();
    expect(seen).toEqual([first, second, null, first]);
    vi.useRealTimers();
  });
});

describe('app root machine, screens', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens a screen as its child at once, and once for an id, and stops it on close', () => {
    const { root } = startRoot();
    root.send({ type: 'screen.open', id: 'screen.a', logic: toastingScreen, input: { message: 'first' } });
    const screen = selectScreen(root.getSnapshot(), 'screen.a');
    expect(screen?.getSnapshot().status).toBe('active');
    expect(screen?.getSnapshot().context).toEqual({ message: 'first' });
    root.send({ type: 'screen.open', id: 'screen.a', logic: toastingScreen, input: { message: 'second' } });
    expect(selectScreen(root.getSnapshot(), 'screen.a')).toBe(screen);
    expect(root.getSnapshot().context.screens).toEqual(['screen.a']);

    root.send({ type: 'screen.close', id: 'screen.a' });
    expect(screen?.getSnapshot().status).toBe('stopped');
    expect(selectScreen(root.getSnapshot(), 'screen.a')).toBeUndefined();
    expect(root.getSnapshot().context.screens).toEqual([]);
    // A second close (a remount's) changes nothing.
    root.send({ type: 'screen.close', id: 'screen.a' });
    expect(root.getSnapshot().status).toBe('active');
  });

  it("a screen's machine reaches the toasts with system.get('toasts')", () => {
    const { root, toastMessages } = startRoot();
    root.send({ type: 'screen.open', id: 'screen.a', logic: toastingScreen, input: { message: 'Saved.' } });
    expect(toastMessages()).toEqual(['Saved.']);
  });

  it('a screen whose machine fails leaves the root and the app-wide actors running', () => {
    const { root, get } = startRoot();
    const failing = createMachine({
      entry: () => {
        throw new Error('broken screen');
      },
    });
    root.send({ type: 'screen.open', id: 'screen.broken', logic: failing });
    expect(selectScreen(root.getSnapshot(), 'screen.broken')?.getSnapshot().status).toBe('error');
    expect(root.getSnapshot().status).toBe('active');
    for (const systemId of APP_ACTORS) expect(get(systemId).getSnapshot().status).toBe('active');
  });
});
