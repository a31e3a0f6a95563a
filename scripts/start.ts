// `npm start`: builds the web app when its sources changed, then runs the registry server.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/server/config';
import { runServer } from '../src/server/main';
import { replaceDirectory } from './replace-directory';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_SOURCES = [
  'src/web',
  'machines',
  'src/client',
  'src/domain',
  'src/contract',
  'public',
  'index.html',
  'vite.config.ts',
  'package.json',
];

function newestChange(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestChange(path.join(target, entry)));
  return newest;
}

/** Runs `vite build` when dist/index.html is missing or older than any web source. */
export function buildWebAppIfStale(staticDir: string): void {
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    console.warn('No index.html at the repository root yet: skipping the web app build.');
    return;
  }
  const builtIndex = path.join(staticDir, 'index.html');
  const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
  const changedAt = Math.max(...WEB_SOURCES.map((source) => newestChange(path.join(root, source))));
  if (builtAt > changedAt) return;
  console.log(builtAt === 0 ? 'Building the web app...' : 'Web app sources changed: rebuilding...');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  // Built beside the served folder, then swapped in: a server of this checkout that is running, or
  // another start building at the same time, never sees a half-written dist.
  const building = `${path.resolve(staticDir)}.build-${process.pid}`;
  const result = spawnSync(process.execPath, [vite, 'build', '--outDir', building, '--emptyOutDir'], { cwd: root, stdio: 'inherit' });
  if (result.status === 0) {
    replaceDirectory(building, staticDir);
  } else {
    fs.rmSync(building, { recursive: true, force: true });
    // An old build (or the server's "not built" notice) is better than no server at all.
    console.error(
      `vite build failed (exit ${result.status ?? result.signal}); starting with ${builtAt ? 'the previous build' : 'no web app'}.`,
    );
  }
}

const config = parseConfig();
buildWebAppIfStale(config.staticDir);
runServer(config).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
