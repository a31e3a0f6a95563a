// The load generator process of `npm run bench` (forked by scripts/bench.ts with an IPC
// channel): runs one scenario (HTTP or SQL) or one download per message and answers with its
// result. Exits when the parent goes away, so it never outlives the benchmark.
import { download, runLoad, type ChildMessage, type ParentMessage } from './bench-load';

function send(message: ChildMessage): void {
  process.send?.(message);
}

if (!process.send) {
  console.error('scripts/bench-client.ts is started by scripts/bench.ts (npm run bench), not on its own.');
  process.exit(2);
}

process.on('disconnect', () => process.exit(0));
const fail = (error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
process.on('message', (message: ParentMessage) => {
  if (message.type === 'run') runLoad(message.spec, message.options).then((result) => send({ type: 'result', result }), fail);
  if (message.type === 'download') download(message.spec).then((result) => send({ type: 'downloaded', result }), fail);
});
send({ type: 'ready' });
