// Property-based fuzzing of every registered route: requests generated from the route's
// zod contract (params, querystring, body), a mix of values the schema accepts, its boundaries and
// hostile values (wrong types, huge and unicode text, SQL-ish text, '%', '../', NUL bytes, deep
// JSON, repeated parameters, wrong content types), sent signed in as a member of organization A
// with A's x-participant-id (and some anonymously). The properties: no answer is 5xx, and no 4xx
// body holds a stack trace, SQL or an internal error code. Seeded: the same seed, the same requests.
// Used by `npm run fuzz` (scripts/fuzz.ts, >= 1,000 cases per route) and tests/server/route-fuzz.test.ts.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { PARTICIPANT_HEADER } from '../../src/domain/constants';
import type { RegisteredRoute } from './route-table';
import { arbitraryOf, hostileString, hostileValue, objectKeysOf, type FieldHints } from './zod-arbitrary';

export interface FuzzTarget {
  readonly app: FastifyInstance;
  /** The session cookie pair of a member of organization A. */
  readonly cookie: string;
  /** Organization A's id (the member's own x-participant-id). */
  readonly participantId: string;
  /** Other organizations' ids (a foreign or inactive header now and then). */
  readonly otherParticipantIds: readonly string[];
  /** Real values by field name, for path parameters, query fields and body fields. */
  readonly hints: { readonly params: FieldHints; readonly query: FieldHints; readonly body: FieldHints };
}

export interface FuzzOptions {
  readonly casesPerRoute: number;
  readonly seed: number;
  /** Called after each route. */
  readonly onRoute?: (row: FuzzRow) => void;
}

export interface FuzzRow {
  readonly route: string;
  readonly cases: number;
  /** Answers by status code. */
  readonly statuses: Readonly<Record<number, number>>;
}

export interface FuzzViolation {
  readonly route: string;
  readonly problem: string;
  /** The request, to replay it. */
  readonly request: string;
  readonly status: number;
  readonly body: string;
}

export interface FuzzReport {
  readonly seed: number;
  readonly rows: readonly FuzzRow[];
  readonly violations: readonly FuzzViolation[];
}

/** Routes whose call ends the session it is given: fuzzed without one, so the member stays signed in. */
const ENDS_SESSION = ['/identity-broker/agent/secure/api/v3/logout', '/identity-broker/agent/sign-in'];

type Body =
  | { readonly kind: 'none' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'form'; readonly value: unknown }
  | { readonly kind: 'multipart'; readonly value: unknown; readonly file: 'pdf' | 'text' | 'none' | 'empty' }
  | { readonly kind: 'raw'; readonly contentType: string | undefined; readonly payload: string };

interface FuzzRequest {
  readonly anonymous: boolean;
  readonly participant: 'own' | 'none' | 'other' | 'malformed' | 'repeated';
  readonly accept: string | undefined;
  readonly params: Readonly<Record<string, string>>;
  /** The query string after '?', already encoded (or deliberately not). */
  readonly query: string;
  readonly body: Body;
}

// ---------------------------------------------------------------------------------------------
// Generators

const deepJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

const RAW_BODIES = fc.constantFrom(
  '',
  '{',
  '{"a":',
  'null',
  '[]',
  '"string"',
  '12345',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '\u0000\u0001\u0002',
  '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
  deepJson(64),
  deepJson(5_000),
  deepObject(5_000),
  deepJson(200_000),
  `{"a":"${'x'.repeat(1_100_000)}"}`,
);

const CONTENT_TYPES = fc.constantFrom<string | undefined>(
  undefined,
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'application/xml',
  'application/octet-stream',
  'application/json, text/plain',
  '%invalid%',
);

const ACCEPTS = fc.constantFrom<string | undefined>(
  undefined,
  'application/json',
  'text/csv',
  'application/pdf',
  '*/*',
  'text/html',
  'text/csv;q=abc, application/json;q=-1',
  'application/pdf;q=1, text/csv;q=1',
  'x'.repeat(2000),
);

/** Percent-encoding of the UTF-8 bytes (a lone surrogate becomes U+FFFD, as a browser sends it). */
const percentEncode = (text: string): string => {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));
  }
};

/** A path segment: encoded as a browser would, or left raw (only what HTTP cannot carry encoded). */
const segment = (value: unknown, raw: boolean): string => {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return raw ? text.replace(/[^\x21-\x7e]+/g, (run) => percentEncode(run)) : percentEncode(text);
};

/** A query value as text: arrays comma-joined (the contract's lists) or repeated. */
function queryPairs(value: Record<string, unknown>, repeatArrays: boolean): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (Array.isArray(item) && repeatArrays) for (const one of item) pairs.push([key, String(one)]);
    else pairs.push([key, typeof item === 'string' ? item : Array.isArray(item) ? item.join(',') : JSON.stringify(item)]);
  }
  return pairs;
}

const encodePairs = (pairs: readonly [string, string][], raw: boolean) =>
  pairs.map(([key, value]) => `${segment(key, raw)}=${segment(value, raw)}`).join('&');

/** The value with one field (at the top) replaced by a hostile one, or a field added, or removed. */
const mutateObject = (valid: fc.Arbitrary<unknown>, keys: readonly string[]) =>
  fc
    .tuple(
      valid,
      fc.constantFrom('replace', 'add', 'remove', 'wrongType'),
      fc.constantFrom(...(keys.length ? keys : ['x'])),
      hostileValue(),
    )
    .map(([value, how, key, hostile]) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return hostile;
      const copy: Record<string, unknown> = { ...value };
      if (how === 'remove') delete copy[key];
      else if (how === 'add') copy[`extra_${String(key)}`] = hostile;
      else if (how === 'wrongType') copy[key] = [copy[key], copy[key]];
      else copy[key] = hostile;
      return copy;
    });

const routeParams = (url: string): string[] =>
  [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] as string).concat(url.endsWith('*') ? ['*'] : []);

function paramsArbitrary(route: RegisteredRoute, hints: FieldHints): fc.Arbitrary<Record<string, string>> {
  const names = routeParams(route.url);
  if (names.length === 0) return fc.constant({});
  const valid = route.schemas.params ? arbitraryOf(route.schemas.params, hints) : fc.constant({});
  const wildcard = fc.array(
    fc.oneof(fc.constantFrom('assets', 'dashboard', 'index.html', '..', '.', 'app.js.map', '%2e%2e'), hostileString()),
    {
      minLength: 0,
      maxLength: 4,
    },
  );
  return fc
    .record({
      valid,
      hostile: fc.dictionary(fc.constantFrom(...names), hostileValue(), { maxKeys: names.length }),
      raw: fc.boolean(),
      wildcard,
    })
    .map(({ valid, hostile, raw, wildcard: parts }) => {
      const values = { ...(valid as Record<string, unknown>), ...hostile };
      return Object.fromEntries(
        names.map((name) => [
          name,
          name === '*' ? parts.map((part) => segment(part, raw)).join('/') : segment(values[name] ?? '', raw && name in hostile),
        ]),
      );
    });
}

function queryArbitrary(route: RegisteredRoute, hints: FieldHints): fc.Arbitrary<string> {
  const schema = route.schemas.querystring;
  const keys = objectKeysOf(schema);
  const valid = schema ? arbitraryOf(schema, hints) : fc.constant({});
  const object = fc.oneof({ weight: 3, arbitrary: valid }, { weight: 3, arbitrary: mutateObject(valid, keys) });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(object, fc.boolean())
        .map(([value, repeat]) => encodePairs(queryPairs(value as Record<string, unknown>, repeat), false)),
    },
    // Repeated parameters: every key twice.
    {
      weight: 1,
      arbitrary: object.map((value) => {
        const pairs = queryPairs(value as Record<string, unknown>, false);
        return encodePairs([...pairs, ...pairs], false);
      }),
    },
    // Raw: '%' and friends as they are, or garbage.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...(keys.length ? keys : ['q'])), hostileString())
        .map(([key, value]) => `${key}=${segment(value, true)}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('%', '%%', '&&&', '=', 'a=%E0%A4%A', '%00=%00', 'a[b]=1&a[c]=2', `${'a='.repeat(2000)}`) },
  );
}

function bodyArbitrary(route: RegisteredRoute, hints: FieldHints): fc.Arbitrary<Body> {
  if (route.method === 'GET' || route.method === 'HEAD') {
    return fc.oneof(
      { weight: 9, arbitrary: fc.constant<Body>({ kind: 'none' }) },
      { weight: 1, arbitrary: RAW_BODIES.map<Body>((payload) => ({ kind: 'raw', contentType: 'application/json', payload })) },
    );
  }
  const schema = route.schemas.body;
  const keys = objectKeysOf(schema);
  const valid = schema ? arbitraryOf(schema, hints) : fc.constant({});
  const value = fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 2, arbitrary: mutateObject(valid, keys) },
    { weight: 1, arbitrary: hostileValue() },
  );
  const consumes = route.consumes[0] ?? 'application/json';
  const own: fc.Arbitrary<Body> =
    consumes === 'multipart/form-data'
      ? fc
          .record({ value, file: fc.constantFrom<'pdf' | 'text' | 'none' | 'empty'>('pdf', 'pdf', 'text', 'none', 'empty') })
          .map(({ value: fields, file }) => ({ kind: 'multipart', value: fields, file }))
      : consumes === 'application/x-www-form-urlencoded'
        ? value.map((fields) => ({ kind: 'form', value: fields }))
        : value.map((json) => ({ kind: 'json', value: json }));
  return fc.oneof(
    { weight: 6, arbitrary: own },
    { weight: 1, arbitrary: value.map<Body>((json) => ({ kind: 'json', value: json })) },
    {
      weight: 2,
      arbitrary: fc.tuple(CONTENT_TYPES, RAW_BODIES).map<Body>(([contentType, payload]) => ({ kind: 'raw', contentType, payload })),
    },
    { weight: 1, arbitrary: fc.constant<Body>({ kind: 'none' }) },
  );
}

export function requestArbitrary(route: RegisteredRoute, target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    // About one request in ten is anonymous.
    anonymous: fc.integer({ min: 0, max: 9 }).map((roll) => roll === 0),
    // Mostly A's own header, as the web client sends it; now and then none, another, a malformed or a repeated one.
    participant: fc.oneof(
      { weight: 16, arbitrary: fc.constant<FuzzRequest['participant']>('own') },
      { weight: 1, arbitrary: fc.constantFrom<FuzzRequest['participant']>('none', 'other', 'malformed', 'repeated') },
    ),
    accept: ACCEPTS,
    params: paramsArbitrary(route, target.hints.params),
    query: queryArbitrary(route, target.hints.query),
    body: bodyArbitrary(route, target.hints.body),
  });
}

// ---------------------------------------------------------------------------------------------
// Sending and judging

const BOUNDARY = '----registry-fuzz-boundary';
const PDF = '%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n';

function multipartPayload(value: unknown, file: 'pdf' | 'text' | 'none' | 'empty'): string {
  const fields = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  const parts = Object.entries(fields)
    .filter(([, item]) => item !== undefined)
    .map(
      ([name, item]) =>
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"\r\n\r\n${typeof item === 'string' ? item : JSON.stringify(item)}\r\n`,
    );
  if (file !== 'none') {
    const content = file === 'pdf' ? PDF : file === 'text' ? 'plain text, not a PDF' : '';
    parts.push(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="securityInstrumentAndAssignment"; filename="../../x.pdf"\r\nContent-Type: application/pdf\r\n\r\n${content}\r\n`,
    );
  }
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

function formPayload(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return encodeURIComponent(JSON.stringify(value) ?? '');
  return encodePairs(queryPairs(value as Record<string, unknown>, true), false);
}

export function injectOptions(route: RegisteredRoute, request: FuzzRequest, target: FuzzTarget): InjectOptions {
  let path = route.url.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => request.params[name] ?? '');
  if (path.endsWith('*')) path = `${path.slice(0, -1)}${request.params['*'] ?? ''}`;
  const headers: Record<string, string | string[]> = {};
  const session = !request.anonymous && !ENDS_SESSION.includes(route.url);
  if (session) headers.cookie = target.cookie;
  const other = target.otherParticipantIds[0] ?? target.participantId;
  if (request.participant === 'own') headers[PARTICIPANT_HEADER] = target.participantId;
  if (request.participant === 'other') headers[PARTICIPANT_HEADER] = other;
  if (request.participant === 'malformed') headers[PARTICIPANT_HEADER] = `${target.participantId}' OR '1'='1`;
  if (request.participant === 'repeated') headers[PARTICIPANT_HEADER] = [target.participantId, other];
  if (request.accept !== undefined) headers.accept = request.accept;
  if (!['GET', 'HEAD'].includes(route.method)) headers.origin = 'http://localhost:80';
  let payload: string | undefined;
  const body = request.body;
  if (body.kind === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.value) ?? 'null';
  } else if (body.kind === 'form') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = formPayload(body.value);
  } else if (body.kind === 'multipart') {
    headers['content-type'] = `multipart/form-data; boundary=${BOUNDARY}`;
    payload = multipartPayload(body.value, body.file);
  } else if (body.kind === 'raw') {
    if (body.contentType !== undefined) headers['content-type'] = body.contentType;
    payload = body.payload;
  }
  return {
    method: route.method as InjectOptions['method'],
    url: request.query ? `${path}?${request.query}` : path,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  };
}

/**
 * Requests every route gets whatever the seed, first: what has broken servers before (a multipart
 * type without its boundary, JSON nested 200,000 deep, a cut-off JSON body, a body over the limit,
 * a lone '%' in the query and in the path, the participant header twice), on top of a generated request.
 */
export function classicCases(route: RegisteredRoute, base: FuzzRequest): FuzzRequest[] {
  const signedIn: FuzzRequest = { ...base, anonymous: false, participant: 'own' };
  const raw = (contentType: string | undefined, payload: string): FuzzRequest => ({
    ...signedIn,
    body: { kind: 'raw', contentType, payload },
  });
  const names = routeParams(route.url);
  const cases: FuzzRequest[] = [
    { ...signedIn, query: 'x=%' },
    { ...signedIn, participant: 'repeated' },
    ...(names.length > 0 ? [{ ...signedIn, params: Object.fromEntries(names.map((name) => [name, '%'])) }] : []),
  ];
  if (route.method !== 'GET' && route.method !== 'HEAD') {
    cases.push(
      raw('multipart/form-data', ''),
      raw('multipart/form-data', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'),
      raw('application/json', deepJson(200_000)),
      raw('application/json', '{"a":'),
      raw('application/json', `{"a":"${'x'.repeat(1_100_000)}"}`),
    );
  }
  return cases;
}

const STACK_TRACE = /\n\s+at | {4}at /;
/** SQL as a database error or a query builder would show it (drizzle writes lowercase). */
const SQL_TEXT =
  /\bselect\b[^.!?\n]{0,300}\bfrom\s|\binsert\s+into\b|\bupdate\s+"?\w+"?\s+set\b|\bdelete\s+from\b|failed query|syntax error|relation "|column "|duplicate key|violates [\w ]*constraint|invalid input syntax|pg_catalog|drizzle/i;
const INTERNAL_CODE = /\bFST_[A-Z0-9_]+|\bERR_[A-Z0-9_]+|\bHPE_[A-Z0-9_]+|\bECONN[A-Z]*|\bETIMEDOUT\b|\bEPIPE\b/;
/** SQLSTATEs a database error would carry (class 22 data, 23 integrity, 42 syntax, 53/54/57 resources, XX internal). */
const SQLSTATE = /\b(?:22P0[1-5]|2200[1-8]|22012|22021|22023|2350[2-5]|42601|42703|42804|42883|42P0[1-2]|53[0-9]00|54001|57014|XX000)\b/;
const SOURCE_PATH = /\/node_modules\/|\/src\/server\/|\.ts:\d+/;

/** Problems of one answer (empty when it is sound). Text the request itself carried is not a leak. */
export function judge(status: number, body: string, requestText: string): string[] {
  const problems: string[] = [];
  if (status >= 500) problems.push(`answered ${status}`);
  if (status < 400) return problems;
  const leaked = (pattern: RegExp, what: string) => {
    const match = body.match(pattern);
    if (match && !requestText.includes(match[0])) problems.push(`${what} in the body: ${JSON.stringify(match[0])}`);
  };
  leaked(STACK_TRACE, 'a stack trace');
  leaked(SQL_TEXT, 'SQL');
  leaked(INTERNAL_CODE, 'an internal error code');
  leaked(SQLSTATE, 'a SQLSTATE');
  leaked(SOURCE_PATH, 'a source path');
  return problems;
}

/** A stable seed per route: adding a route does not change the others' requests. */
const routeSeed = (seed: number, key: string) => (seed ^ createHash('sha256').update(key).digest().readInt32LE(0)) | 0;

const describeRequest = (options: InjectOptions) => {
  const payload = typeof options.payload === 'string' ? options.payload : '';
  return `${options.method} ${String(options.url).slice(0, 400)} headers=${JSON.stringify(options.headers).slice(0, 400)} body=${JSON.stringify(payload.slice(0, 300))}${payload.length > 300 ? `... (${payload.length} chars)` : ''}`;
};

export async function fuzzRoutes(routes: readonly RegisteredRoute[], target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  const rows: FuzzRow[] = [];
  const violations: FuzzViolation[] = [];
  for (const route of routes) {
    const seed = routeSeed(options.seed, route.key);
    const [base] = fc.sample(requestArbitrary(route, target), { numRuns: 1, seed });
    const classics = base ? classicCases(route, base).slice(0, options.casesPerRoute) : [];
    const requests = [
      ...classics,
      ...fc.sample(requestArbitrary(route, target), { numRuns: options.casesPerRoute - classics.length, seed }),
    ];
    const statuses: Record<number, number> = {};
    for (const request of requests) {
      const inject = injectOptions(route, request, target);
      let status: number;
      let body: string;
      try {
        // Raw on purpose: the generated request is the whole request, headers included (no caller's Origin or session added).
        const response = await target.app.inject(inject);
        status = response.statusCode;
        body = response.body;
      } catch (error) {
        // The request could not be made (a harness problem, not the server's): counted as 0.
        status = 0;
        body = String(error);
      }
      statuses[status] = (statuses[status] ?? 0) + 1;
      const problems =
        status === 0
          ? [`the request failed: ${body}`]
          : judge(status, body, `${String(inject.url)} ${JSON.stringify(inject.headers)} ${String(inject.payload ?? '')}`);
      for (const problem of problems) {
        violations.push({ route: route.key, problem, request: describeRequest(inject), status, body: body.slice(0, 500) });
      }
    }
    const row = { route: route.key, cases: requests.length, statuses };
    rows.push(row);
    options.onRoute?.(row);
  }
  return { seed: options.seed, rows, violations };
}

/** The report as a table: one line per route, a column per status. */
export function formatFuzzReport(report: FuzzReport): string {
  const codes = [...new Set(report.rows.flatMap((row) => Object.keys(row.statuses).map(Number)))].sort((a, b) => a - b);
  const width = Math.max(5, ...report.rows.map((row) => row.route.length));
  const header = `${'route'.padEnd(width)}  ${'cases'.padStart(6)}  ${codes.map((code) => String(code).padStart(5)).join(' ')}`;
  const lines = report.rows.map(
    (row) =>
      `${row.route.padEnd(width)}  ${String(row.cases).padStart(6)}  ${codes.map((code) => String(row.statuses[code] ?? '').padStart(5)).join(' ')}`,
  );
  const total = report.rows.reduce((sum, row) => sum + row.cases, 0);
  const totals = codes.map((code) => String(report.rows.reduce((sum, row) => sum + (row.statuses[code] ?? 0), 0)).padStart(5)).join(' ');
  return [
    header,
    '-'.repeat(header.length),
    ...lines,
    '-'.repeat(header.length),
    `${'total'.padEnd(width)}  ${String(total).padStart(6)}  ${totals}`,
  ].join('\n');
}
