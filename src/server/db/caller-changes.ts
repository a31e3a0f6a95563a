// Hears the database say that something a server caches has changed, so every server empties that
// cache within milliseconds of the commit, whichever server wrote: who may call (migration
// 0005_caller_changes: triggers on sessions, identities, users, memberships and participants) and
// the asset list's pages (0019_loan_list_changes: the list index's tables and pool membership).
import pg from 'pg';

export const CALLER_CHANGES_CHANNEL = 'registry_caller_changes';
export const LOAN_LIST_CHANGES_CHANNEL = 'registry_loan_list_changes';

export interface ChangeHandlers {
  /** A change on the channel. */
  onChange(): void;
  /** true once listening; false when the connection is lost (changes may go unheard until true again). */
  onListening(listening: boolean): void;
}

export interface ChangeListener {
  close(): Promise<void>;
}

/** Listens for caller changes on its own connection (not the pool's), reconnecting every `retryMs` after a loss. */
export function listenForCallerChanges(config: pg.ClientConfig, handlers: ChangeHandlers, retryMs = 1000): ChangeListener {
  return listenForChanges(config, CALLER_CHANGES_CHANNEL, handlers, retryMs);
}

/** Listens on `channel` on its own connection (not the pool's), reconnecting every `retryMs` after a loss. */
export function listenForChanges(
  config: pg.ClientConfig,
  channel: typeof CALLER_CHANGES_CHANNEL | typeof LOAN_LIST_CHANGES_CHANNEL,
  handlers: ChangeHandlers,
  retryMs = 1000,
): ChangeListener {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (lostClient: pg.Client) => {
    if (client !== lostClient) return;
    client = undefined;
    handlers.onListening(false);
    lostClient.end().catch(() => undefined);
    if (!closed) retry = setTimeout(connect, retryMs);
  };

  function connect(): void {
    retry = undefined;
    const next = new pg.Client(config);
    client = next;
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.onChange();
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next
      .connect()
      .then(() => next.query(`LISTEN ${channel}`))
      .then(() => {
        if (client === next && !closed) handlers.onListening(true);
      })
      .catch(() => lost(next));
  }

  connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = undefined;
      handlers.onListening(false);
      await current?.end().catch(() => undefined);
    },
  };
}
