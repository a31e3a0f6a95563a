// The web goals of `npm run bench`: the initial JavaScript of the build (the entry chunk and
// what it imports statically, as Vite's manifest lists them) and Lighthouse (scripts/lighthouse.ts).
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

interface ManifestChunk {
  readonly file: string;
  readonly isEntry?: boolean;
  readonly imports?: readonly string[];
}

export interface InitialJsFile {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly brotliBytes: number;
}

export interface InitialJs {
  readonly files: readonly InitialJsFile[];
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly brotliBytes: number;
}

/** Size of what the server sends: the precompressed sibling when the build wrote one, else compressed now. */
function compressedSize(file: string, extension: '.gz' | '.br', raw: Buffer): number {
  if (fs.existsSync(file + extension)) return fs.statSync(file + extension).size;
  return extension === '.gz'
    ? gzipSync(raw, { level: 9 }).length
    : brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length;
}

/**
 * The JavaScript a first visit must load before the app runs: the entry chunk and, transitively,
 * its static imports (lazy screens are dynamic imports and not counted). Reads dist/.vite/manifest.json.
 */
export function initialJs(distDir: string): InitialJs {
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(manifestFile))
    throw new Error(`${manifestFile} is missing: build with \`npm run build\` (vite.config.ts writes the manifest)`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  if (entries.length === 0) throw new Error(`${manifestFile} names no entry chunk`);
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  entries.forEach(visit);
  const files = [...seen]
    .map((key) => manifest[key]?.file)
    .filter((file): file is string => typeof file === 'string' && file.endsWith('.js'))
    .map((file): InitialJsFile => {
      const absolute = path.join(distDir, file);
      const raw = fs.readFileSync(absolute);
      return {
        file,
        bytes: raw.length,
        gzipBytes: compressedSize(absolute, '.gz', raw),
        brotliBytes: compressedSize(absolute, '.br', raw),
      };
    });
  const sum = (pick: (file: InitialJsFile) => number) => files.reduce((total, file) => total + pick(file), 0);
  return { files, bytes: sum((f) => f.bytes), gzipBytes: sum((f) => f.gzipBytes), brotliBytes: sum((f) => f.brotliBytes) };
}
