// The pure parts of `npm run bench`: which list views it measures, the SQL it times beside the
// API, and how it sizes the initial JavaScript. (The speed goals themselves run in the bench.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { LOAN_SORT_COLUMNS } from '../../src/contract/loans';
import { lastWeekInstant, listRequest, listStatements, listViews, type LoanBenchData } from '../../scripts/bench-loans';
import { mergeRounds } from '../../scripts/bench-stress';
import { initialJs } from '../../scripts/bench-web';
import type { LoadResult } from '../../scripts/bench-load';

const data: LoanBenchData = {
  participantId: '00000000-0000-4000-8000-000000000001',
  participantName: 'Harborview Mortgage',
  loans: 250_005,
  email: 'admin@registry.test',
  loanIds: ['00000000-0000-4000-8000-0000000000aa'],
  searchTerms: { lastName: 'owals', street: 'ycamo', oneCharacter: 'o', twoCharacters: 'ow', lineBreak: 'Kowalski\n1234 Sycamore Ave' },
};

describe('asset list views', () => {
  const views = listViews(data, '2026-01-08T00:00:00-05:00');

  it('covers the first and last page, every sort column, five searches and the last week', () => {
    expect(views.map((view) => view.name)).toEqual([
      'list: first page',
      'list: last page',
      ...LOAN_SORT_COLUMNS.map((column) => `list: sort ${column}`),
      "list: search 'owals' (last name)",
      "list: search 'ycamo' (street)",
      "list: search 'o' (one character)",
      "list: search 'ow' (two characters)",
      "list: search 'Kowalski\\n1234 Sycamore Ave' (line break)",
      'list: updated in the last 7 days',
    ]);
    // 250,005 loans in pages of 10: the last page starts at 250,000.
    expect(views[1]?.offset).toBe(250_000);
  });

  it('asks the API as the asset screen does, for the organization', () => {
    const sorted = views.find((view) => view.sortBy === 'servicer');
    const request = listRequest('http://127.0.0.1:1', { cookie: 'registry_session=x' }, data, sorted!);
    const url = new URL(request.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '10', offset: '0', sortBy: 'servicer', sortDirection: 'asc' });
    expect(request.headers).toMatchObject({ cookie: 'registry_session=x', 'x-participant-id': data.participantId });
  });

  it('times the one statement the repository sends: count and page together, the last page read from the end', () => {
    const last = listStatements(data, views[1]!, data.loans);
    expect(last).toHaveLength(1);
    // The total is one row per roles mask (loan_list_totals), not a sum over every day.
    expect(last[0]?.text.split('\n')[0]).toMatch(
      /^WITH total AS MATERIALIZED \(SELECT \(SELECT coalesce\(sum\(t\.count\), 0\) FROM loan_list_totals t/,
    );
    // The far half of the list is found from the other end, by a backward scan of the sort index.
    expect(last[0]?.text).toMatch(/backward AS MATERIALIZED \(/);
    const first = listStatements(data, views[0]!, data.loans);
    expect(first[0]?.values).toContain(data.participantId);
    // The page size and a first page's offset are in the text, so the statement keeps a generic plan.
    expect(first[0]?.text).toMatch(/LIMIT 10::int OFFSET \(SELECT skip FROM bounds\)/);
    expect(first[0]?.text).toContain('0::int');
    expect(last[0]?.values).toContain(Math.floor((data.loans - 1) / 10) * 10);
  });

  it('times a search as one statement that carries its count', () => {
    const search = listStatements(
      data,
      views.find((view) => view.query === 'owals')!,
      1234,
    );
    expect(search).toHaveLength(1);
    expect(search[0]?.text).toMatch(/count\(\*\) OVER \(\)/);
    expect(search[0]?.values).toContain('%owals%');
  });

  it('searches one and two characters and a text across a line break as typed', () => {
    const queries = views.filter((view) => view.query !== undefined).map((view) => view.query);
    expect(queries).toEqual(['owals', 'ycamo', 'o', 'ow', 'Kowalski\n1234 Sycamore Ave']);
    const lineBreak = views.find((view) => view.name.endsWith('(line break)'));
    const url = new URL(listRequest('http://127.0.0.1:1', {}, data, lineBreak!).url);
    expect(url.searchParams.get('query')).toBe('Kowalski\n1234 Sycamore Ave');
  });

  it('sends the start of the local day a week ago with its offset', () => {
    expect(lastWeekInstant(new Date(2026, 0, 15, 13, 30))).toMatch(/^2026-01-08T00:00:00[+-]\d{2}:\d{2}$/);
  });
});

describe('initial JavaScript', () => {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-bench-dist-'));
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  it('counts the entry chunk and its static imports, not the lazy screens', () => {
    fs.mkdirSync(path.join(dist, '.vite'));
    fs.mkdirSync(path.join(dist, 'assets'));
    const files = {
      'assets/index-1.js': 'a'.repeat(5000),
      'assets/react-1.js': 'b'.repeat(3000),
      'assets/assets-screen-1.js': 'c'.repeat(9000),
    };
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dist, file), text);
    // A precompressed sibling is what the server sends: its size counts.
    fs.writeFileSync(path.join(dist, 'assets/index-1.js.gz'), Buffer.alloc(40));
    const manifest = {
      'index.html': {
        file: 'assets/index-1.js',
        isEntry: true,
        imports: ['_react-1.js'],
        dynamicImports: ['src/assets-screen.tsx'],
        css: ['assets/index.css'],
      },
      '_react-1.js': { file: 'assets/react-1.js', imports: ['index.html'] },
      'src/assets-screen.tsx': { file: 'assets/assets-screen-1.js', isDynamicEntry: true, imports: ['_react-1.js'] },
    };
    fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));

    const js = initialJs(dist);
    expect(js.files.map((file) => file.file)).toEqual(['assets/index-1.js', 'assets/react-1.js']);
    expect(js.bytes).toBe(8000);
    expect(js.gzipBytes).toBe(40 + gzipSync('b'.repeat(3000), { level: 9 }).length);
  });

  it('refuses a build without a manifest', () => {
    expect(() => initialJs(path.join(dist, 'nowhere'))).toThrow(/manifest\.json is missing/);
  });
});

describe('stress rounds', () => {
  const round = (count: number, elapsedMs: number, p99: number, errors = 0): LoadResult => ({
    name: 'stress: users/me',
    count,
    errors,
    errorSamples: errors ? ['HTTP 500'] : [],
    elapsedMs,
    requestsPerSecond: (count * 1000) / elapsedMs,
    p50: p99 / 4,
    p95: p99 / 2,
    p99,
    max: p99 * 2,
    mean: p99 / 3,
    capped: false,
  });

  it('sums counts, errors and time, takes the throughput over the whole and the worst round of each percentile', () => {
    const merged = mergeRounds([round(6000, 6000, 40), round(12_000, 6000, 90, 2), round(9000, 6000, 60)]);
    expect(merged).toMatchObject({ name: 'stress: users/me', count: 27_000, errors: 2, elapsedMs: 18_000, p99: 90, p95: 45, max: 180 });
    expect(merged.requestsPerSecond).toBe(1500);
    expect(merged.errorSamples).toEqual(['HTTP 500']);
    expect(merged.mean).toBeCloseTo((6000 * 40 + 12_000 * 90 + 9000 * 60) / 3 / 27_000, 9);
  });

  it('refuses to merge nothing', () => {
    expect(() => mergeRounds([])).toThrow('No round to merge');
  });
});
