// Every machine in the registry has a model-based test (ARCHITECTURE.md section 7); the coverage
// and state assertions themselves live in each of those files.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { machines } from '../../machines/index';

const root = path.resolve(import.meta.dirname, '..', '..');
const candidates = (name: string) => [`tests/web/${name}-model.test.tsx`, `tests/machines/${name}-model.test.ts`];

describe('machine registry', () => {
  for (const name of Object.keys(machines)) {
    it(`${name} has a model-based test that checks full transition coverage`, () => {
      const file = candidates(name).find((candidate) => fs.existsSync(path.join(root, candidate)));
      expect(file, `no model-based test for ${name} (${candidates(name).join(' or ')})`).toBeDefined();
      const source = fs.readFileSync(path.join(root, file as string), 'utf8');
      expect(source).toContain('createModelWalker(');
      expect(source).toContain('expectFullCoverage()');
      expect(source).toContain('expectEveryStateAsserted(');
    });
  }
});
