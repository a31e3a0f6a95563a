import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The API runs in the registry server; `npm run dev` proxies these prefixes to it.
const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8080';
const apiPrefixes = ['/identity-broker', '/service-dart', '/address-lookup', '/banners', '/healthz'];

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Text formats worth compressing (source maps are left out: only developer tools fetch them). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm|webmanifest)$/;
/** Below this, the compressed file saves less than a packet. */
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  // .vite/ holds the build manifest, read by tools, never served.
  const entries = (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.name !== '.vite');
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : Promise.resolve([join(dir, entry.name)]))),
  );
  return nested.flat();
}

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every compressible output
 * file, when smaller, so the server sends them as they are (@fastify/static `preCompressed`)
 * without compressing on each request.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'registry:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          if ((await stat(file)).size < MIN_BYTES) return;
          const raw = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
            gzipAsync(raw, { level: 9 }),
          ]);
          if (br.length < raw.length) await writeFile(`${file}.br`, br);
          if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  base: '/registry/',
  // The address provider keeps the name the server reads too (its origin joins the CSP's connect-src).
  envPrefix: ['VITE_', 'ADDRESS_LOOKUP_URL'],
  plugins: [react(), tailwindcss(), precompress()],
  // The manifest lets `npm run bench` measure the initial JavaScript (the entry and its static imports).
  build: { outDir: 'dist', sourcemap: 'hidden', chunkSizeWarningLimit: 800, manifest: true },
  server: {
    port: 5173,
    proxy: Object.fromEntries(apiPrefixes.map((prefix) => [prefix, { target: apiTarget, changeOrigin: false }])),
  },
});
