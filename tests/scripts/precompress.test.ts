// The build's precompression (vite.config.ts): .br and .gz beside each compressible file.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { precompress } from '../../vite.config';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-precompress-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function runPlugin(files: Record<string, string | Buffer>): Promise<string[]> {
  const outDir = path.join(root, 'dist');
  fs.rmSync(outDir, { recursive: true, force: true });
  for (const [name, contents] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(outDir, name)), { recursive: true });
    fs.writeFileSync(path.join(outDir, name), contents);
  }
  const plugin = precompress() as unknown as {
    configResolved(config: { root: string; build: { outDir: string } }): void;
    closeBundle(): Promise<void>;
  };
  plugin.configResolved({ root, build: { outDir: 'dist' } });
  await plugin.closeBundle();
  const list = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? list(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return list(outDir)
    .map((file) => path.relative(outDir, file))
    .sort();
}

describe('precompress (Vite build plugin)', () => {
  const js = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: 'loan' })))};\n`;
  const css = `.table{display:grid}\n`.repeat(100);

  it('writes brotli and gzip siblings of compressible files that decompress to the original', async () => {
    const files = await runPlugin({
      'assets/index-abc123.js': js,
      'assets/index-def456.css': css,
      'index.html': `<!doctype html>${' '.repeat(2000)}`,
    });
    expect(files).toEqual([
      'assets/index-abc123.js',
      'assets/index-abc123.js.br',
      'assets/index-abc123.js.gz',
      'assets/index-def456.css',
      'assets/index-def456.css.br',
      'assets/index-def456.css.gz',
      'index.html',
      'index.html.br',
      'index.html.gz',
    ]);
    const dist = path.join(root, 'dist');
    expect(brotliDecompressSync(fs.readFileSync(path.join(dist, 'assets/index-abc123.js.br'))).toString()).toBe(js);
    expect(gunzipSync(fs.readFileSync(path.join(dist, 'assets/index-abc123.js.gz'))).toString()).toBe(js);
  });

  it('leaves out small files, source maps, binary formats, the build manifest and what would not shrink', async () => {
    // Random bytes do not compress: neither sibling would be smaller.
    const random = randomBytes(4096);
    const files = await runPlugin({
      'assets/tiny-1.js': 'export {};\n',
      'assets/index-abc123.js.map': js,
      'assets/logo-1.png': js,
      '.vite/manifest.json': JSON.stringify({ 'index.html': { file: js } }),
      'assets/noise-1.js': random,
    });
    expect(files).toEqual(
      ['.vite/manifest.json', 'assets/index-abc123.js.map', 'assets/logo-1.png', 'assets/tiny-1.js', 'assets/noise-1.js'].sort(),
    );
  });
});
