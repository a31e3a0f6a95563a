// npm start swaps a fresh build in by renames: the served folder is always one whole build.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { replaceDirectory } from '../../scripts/replace-directory';

const run = promisify(execFile);
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'replace-directory-'));
afterAll(() => fs.rmSync(workspace, { recursive: true, force: true }));

/** A build: two files that name the same build, as index.html and its chunk do. */
function build(name: string): string {
  const dir = path.join(workspace, `${name}.build`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'index.html'), name);
  fs.writeFileSync(path.join(dir, 'chunk.js'), name);
  return dir;
}

const contents = (dir: string) => fs.readdirSync(dir).map((file) => `${file}:${fs.readFileSync(path.join(dir, file), 'utf8')}`);

describe('replaceDirectory', () => {
  it('moves a build into place where there was none, then replaces it and leaves nothing aside', () => {
    const target = path.join(workspace, 'dist-a');
    replaceDirectory(build('first'), target);
    expect(contents(target).sort()).toEqual(['chunk.js:first', 'index.html:first']);
    replaceDirectory(build('second'), target);
    expect(contents(target).sort()).toEqual(['chunk.js:second', 'index.html:second']);
    expect(fs.readdirSync(workspace).filter((entry) => entry.startsWith('dist-a'))).toEqual(['dist-a']);
  });

  it('keeps one whole build when two processes swap builds into the same folder at once', async () => {
    const target = path.join(workspace, 'dist-b');
    // Each process swaps in 200 builds of its own as fast as it can.
    const swapper = (name: string) =>
      run(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `const fs = require('node:fs'); const path = require('node:path');
          import('${path.resolve('scripts/replace-directory.ts')}').then(({ replaceDirectory }) => {
            for (let i = 0; i < 200; i++) {
              const dir = path.join(${JSON.stringify(workspace)}, '${name}-' + i);
              fs.mkdirSync(dir);
              fs.writeFileSync(path.join(dir, 'index.html'), '${name}-' + i);
              fs.writeFileSync(path.join(dir, 'chunk.js'), '${name}-' + i);
              replaceDirectory(dir, ${JSON.stringify(target)});
            }
          });`,
        ],
        { cwd: process.cwd() },
      );
    await Promise.all([swapper('one'), swapper('two')]);
    const [index, chunk] = ['index.html', 'chunk.js'].map((file) => fs.readFileSync(path.join(target, file), 'utf8'));
    expect(index).toMatch(/^(one|two)-199$/);
    expect(chunk).toBe(index);
    expect(fs.readdirSync(workspace).filter((entry) => entry.startsWith('dist-b') || /^(one|two)-/.test(entry))).toEqual(['dist-b']);
  });
});
