// A round of housekeeping (purges) every so often, from the app's start to its close.
import type { FastifyInstance } from 'fastify';

/**
 * Runs `round` every `intervalMs` once the app is ready: never two rounds at once, the timer never
 * keeps the process alive, and closing the app waits for a round in progress. `round` reports its
 * own failures (it must not reject).
 */
export function runPeriodically(app: FastifyInstance, intervalMs: number, round: () => Promise<void>): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running ??= round().finally(() => {
        running = undefined;
      });
    }, intervalMs).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
