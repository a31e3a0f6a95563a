// Product calls of the fake RegistryApi that stay pending until the test settles them, for the
// screens' model-based tests: installed over the fake the app was rendered with.
import { vi } from 'vitest';
import type { RegistryApi } from '../../../src/client/api';

type CallName = keyof RegistryApi;

interface PendingCall {
  readonly args: readonly unknown[];
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export function deferProductCalls(api: RegistryApi, names: readonly CallName[]) {
  const pending = new Map<CallName, PendingCall[]>();
  const calls = new Map<CallName, unknown[][]>();
  for (const name of names) {
    pending.set(name, []);
    calls.set(name, []);
    (api as unknown as Record<string, unknown>)[name] = vi.fn(
      (...args: unknown[]) =>
        new Promise((resolve, reject) => {
          calls.get(name)?.push(args);
          pending.get(name)?.push({ args, resolve, reject });
        }),
    );
  }

  /** Waits for the call to be made, then settles the oldest pending one. */
  async function settle(name: CallName, outcome: { value?: unknown; error?: unknown }) {
    await vi.waitFor(() => {
      if ((pending.get(name) ?? []).length === 0) throw new Error(`no pending ${name} call`);
    });
    const call = pending.get(name)?.shift();
    if (outcome.error !== undefined) call?.reject(outcome.error);
    else call?.resolve(outcome.value);
  }

  return {
    settle,
    /** Arguments of every call made so far. */
    calls: (name: CallName) => calls.get(name) ?? [],
    pendingCount: (name: CallName) => (pending.get(name) ?? []).length,
  };
}
