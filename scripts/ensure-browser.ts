// Resolves the Chromium Playwright drives (ARCHITECTURE.md section 7: Debian Chromium, since
// Playwright's own browser download fails on these machines): CHROMIUM_PATH when set and
// executable, else /usr/bin/chromium, else installs Debian's chromium when running as root.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
const NOT_FOUND = 'Chromium not found: install it (apt-get install chromium) or set CHROMIUM_PATH.';

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function run(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return result.status === 0;
}

export function ensureBrowser(): string | undefined {
  const configured = process.env.CHROMIUM_PATH;
  if (configured && isExecutable(configured)) return configured;
  if (configured) console.warn(`CHROMIUM_PATH=${configured} is not an executable file; trying ${DEFAULT_CHROMIUM}.`);
  if (isExecutable(DEFAULT_CHROMIUM)) return DEFAULT_CHROMIUM;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/etc/debian_version')) {
    console.log('Chromium is missing: installing Debian chromium (apt-get update && apt-get install -y chromium).');
    if (run('apt-get', ['update']) && run('apt-get', ['install', '-y', 'chromium']) && isExecutable(DEFAULT_CHROMIUM)) {
      return DEFAULT_CHROMIUM;
    }
  }
  return undefined;
}

const found = ensureBrowser();
if (found) {
  console.log(found);
} else {
  console.error(NOT_FOUND);
  process.exit(1);
}
