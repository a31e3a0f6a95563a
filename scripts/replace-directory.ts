// Puts a freshly built directory in place of the served one by renames, so a server never reads a
// half-written build and two `npm start`s in one checkout cannot write into the same folder.
import fs from 'node:fs';

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

/** How often another process's swap may come between ours before we give up. */
const ATTEMPTS = 5;

/**
 * Moves `fresh` to `target` (same filesystem). The previous `target`, if any, is renamed aside and
 * removed. When another process puts its own build at `target` between our two renames, that one
 * is set aside in turn: the last swap wins, and `target` is always one whole build.
 */
export function replaceDirectory(fresh: string, target: string): void {
  for (let attempt = 1; ; attempt++) {
    const aside = `${target}.old-${process.pid}-${attempt}`;
    try {
      fs.renameSync(target, aside);
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
    }
    try {
      fs.renameSync(fresh, target);
      return;
    } catch (error) {
      if (!['ENOTEMPTY', 'EEXIST'].includes(codeOf(error) ?? '') || attempt >= ATTEMPTS) throw error;
    } finally {
      fs.rmSync(aside, { recursive: true, force: true });
    }
  }
}
