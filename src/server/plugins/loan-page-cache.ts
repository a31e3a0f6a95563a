// The asset list's page cache as a decoration, `app.loanPages` (db/loan-page-cache.ts), kept
// exact: emptied when one of this process's write transactions commits, and on every server when
// the database announces a change to what a page reads (LOAN_LIST_CHANGES_CHANNEL).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { LOAN_LIST_CHANGES_CHANNEL, listenForChanges } from '../db/caller-changes';
import { LoanPageCache } from '../db/loan-page-cache';
import { poolOf } from '../db/pg-pool';
import { onWriteCommitted } from '../db/write-transaction';

declare module 'fastify' {
  interface FastifyInstance {
    /** Recent asset list pages (JSON text) by filter and page. */
    readonly loanPages: LoanPageCache;
  }
}

export interface LoanPageCachePluginOptions {
  /** Megabytes of pages kept (LOAN_PAGE_CACHE_MB); 0: every page asks the database. */
  readonly maxMegabytes: number;
}

/** A page is reused for a minute at most, even if a change notice were ever lost. */
export const LOAN_PAGE_TTL_MS = 60_000;
const FIRST_LISTEN_WAIT_MS = 5_000;

async function loanPageCachePlugin(app: FastifyInstance, options: LoanPageCachePluginOptions): Promise<void> {
  const cache = new LoanPageCache({ maxBytes: options.maxMegabytes * 1024 * 1024, ttlMs: LOAN_PAGE_TTL_MS });
  app.decorate('loanPages', cache);
  if (options.maxMegabytes === 0) return;
  let settled: () => void = () => undefined;
  const firstAnswer = new Promise<void>((resolve) => (settled = resolve));
  const listener = listenForChanges(poolOf(app.db).options, LOAN_LIST_CHANGES_CHANNEL, {
    onChange: () => cache.clear(),
    onListening: (listening) => {
      cache.setEnabled(listening);
      settled();
    },
  });
  // This process's own writes (a request's transfer, a job's deactivation) are seen by the next
  // request at once, before the database's notification arrives.
  const stopClearing = onWriteCommitted(app.db, () => cache.clear());
  app.addHook('onClose', async () => {
    stopClearing();
    await listener.close();
  });
  // The server starts with its cache on (or known to be off): the first LISTEN's answer is
  // awaited, for a few seconds at most (until it comes, pages are read from the database).
  let waited: NodeJS.Timeout | undefined;
  await Promise.race([firstAnswer, new Promise<void>((resolve) => (waited = setTimeout(resolve, FIRST_LISTEN_WAIT_MS)))]);
  clearTimeout(waited);
}

export default fp(loanPageCachePlugin, { name: 'loan-page-cache', fastify: '5.x', dependencies: ['database'] });
