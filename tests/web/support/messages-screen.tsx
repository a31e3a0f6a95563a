// Opens /messages in the signed-in app over the fake API, its message calls deferred until the
// test settles them. An aborted call (the screen moved on) leaves the queue, so `settle` always
// answers the call the screen still waits for.
import { act, screen, within } from '@testing-library/react';
import { vi } from 'vitest';
import type { RegistryApi } from '../../../src/client/api';
import { APP_PATHS } from '../../../src/domain/app-paths';
import { MESSAGES_TEXTS as T } from '../../../src/domain/messages';
import { PAGINATION_TEXTS } from '../../../src/domain/texts';
import { sampleIdentity, sampleOrganization, sampleUser } from '../../support/session-fixtures';
import { renderApp } from './render-app';

type MessageCall = 'listMessages' | 'updateMessage' | 'updateMessages';

interface Pending {
  readonly args: readonly unknown[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export function deferMessageCalls(api: RegistryApi) {
  const names: MessageCall[] = ['listMessages', 'updateMessage', 'updateMessages'];
  const pending = new Map<MessageCall, Pending[]>(names.map((name) => [name, []]));
  const calls = new Map<MessageCall, unknown[][]>(names.map((name) => [name, []]));
  for (const name of names) {
    (api as unknown as Record<string, unknown>)[name] = vi.fn(
      (body: unknown, signal?: AbortSignal) =>
        new Promise((resolve, reject) => {
          const entry: Pending = { args: [body, signal], resolve, reject };
          calls.get(name)?.push([body, signal]);
          pending.get(name)?.push(entry);
          signal?.addEventListener('abort', () => {
            pending.set(
              name,
              (pending.get(name) ?? []).filter((each) => each !== entry),
            );
            reject(new DOMException('The operation was aborted.', 'AbortError'));
          });
        }),
    );
  }

  /** Waits for the call to be made, then settles the oldest one still awaited. */
  async function settle(name: MessageCall, outcome: { value?: unknown; error?: unknown }) {
    await vi.waitFor(() => {
      if ((pending.get(name) ?? []).length === 0) throw new Error(`no pending ${name} call`);
    });
    const [call, ...rest] = pending.get(name) ?? [];
    pending.set(name, rest);
    await act(async () => {
      if (outcome.error !== undefined) call?.reject(outcome.error);
      else call?.resolve(outcome.value);
    });
  }

  return {
    settle,
    /** First arguments (query or body) of every call made so far. */
    bodies: (name: MessageCall) => (calls.get(name) ?? []).map(([body]) => body),
    pendingCount: (name: MessageCall) => (pending.get(name) ?? []).length,
    /** The arguments of the calls still awaited. */
    pendingBodies: (name: MessageCall) => (pending.get(name) ?? []).map((call) => call.args[0]),
  };
}

/** Renders the app at `path` (a /messages URL) and completes the sign-in; message calls are deferred. */
export async function openMessagesScreen(path: string = APP_PATHS.messages) {
  const app = renderApp({ path, organizations: [sampleOrganization(1, true)] });
  // Deferred before the session lets the screen mount, so no call slips past.
  const calls = deferMessageCalls(app.fake.api);
  await app.fake.settle('figureInfo', { value: sampleIdentity });
  await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
  await act(async () => undefined);
  return { app, calls };
}

export const messageList = () => screen.getByRole('list', { name: T.tableLabel });
export const messageItems = () => within(messageList()).getAllByRole('listitem');
/** The row of a message, found by its DOM id. */
export const messageItem = (uuid: string) => {
  const item = document.getElementById(`message-row-${uuid}`);
  if (!item) throw new Error(`no row for message ${uuid}`);
  return within(item);
};
export const bulkGroup = () => within(screen.getByRole('group', { name: T.bulkActions }));
export const archivedSwitch = () => screen.getByRole('switch', { name: T.archivedFilter });
export const pageSummaryText = () =>
  within(screen.getByRole('navigation', { name: PAGINATION_TEXTS.label })).getByRole('status').textContent;
/** Texts of the toasts on screen. */
export const toastTexts = () => {
  const region = within(screen.getByRole('region', { name: 'Notifications' }));
  return [...region.queryAllByRole('listitem'), ...region.queryAllByRole('alert')].map((toast) => toast.textContent ?? '');
};
