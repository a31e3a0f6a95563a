// `npm run dev`: the registry server (API on PORT, default 8080) plus the Vite dev server on
// 5173, which proxies the API prefixes to it (vite.config.ts).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/server/config';
import { exitOnSignals, printBanner, startServer } from '../src/server/main';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = parseConfig({ NODE_ENV: 'development', ...process.env });

async function main(): Promise<void> {
  const server = await startServer(config);
  printBanner(server);
  const vite = spawn(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), '--port', '5173', '--strictPort'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, API_TARGET: server.url },
  });
  console.log('Web app with hot reload at http://localhost:5173/registry/');
  const stopVite = () =>
    new Promise<void>((resolve) => {
      if (vite.exitCode !== null || vite.signalCode !== null) return resolve();
      vite.once('exit', () => resolve());
      vite.kill('SIGTERM');
    });
  let stopping = false;
  // Without Vite there is no dev app: stop the server too rather than run half a set-up.
  vite.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(`Vite stopped (${code ?? signal}); stopping the server.`);
    void server.close().then(() => process.exit(code ?? 1));
  });
  exitOnSignals(async () => {
    stopping = true;
    await stopVite();
    await server.close();
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
