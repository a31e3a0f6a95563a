// Hears the database say that who may call has changed (migration 0005_caller_changes: triggers
// on sessions, identities, users, memberships and participants NOTIFY this channel), so every
// server empties its caller cache within milliseconds of the commit, whichever server wrote.
import pg from 'pg';

export const CALLER_CHANGES_CHANNEL = 'registry_caller_changes';

export interface CallerChangeHandlers {
  /** Something that decides a caller changed. */
  onChange(): void;
  /** true once listening; false when the connection is lost (changes may go unheard until true again). */
  onListening(listening: boolean): void;
}

export interface CallerChangeListener {
  close(): Promise<void>;
}

/** Listens on its own connection (not the pool's), reconnecting every `retryMs` after a loss. */
export function listenForCallerChanges(config: pg.ClientConfig, handlers: CallerChangeHandlers, retryMs = 1000): CallerChangeListener {
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
      if (message.channel === CALLER_CHANGES_CHANNEL) handlers.onChange();
    });
    next.on('error', () => lost(next));
    next.on('end', () => lost(next));
    next
      .connect()
      .then(() => next.query(`LISTEN ${CALLER_CHANGES_CHANNEL}`))
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
