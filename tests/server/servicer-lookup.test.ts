// The public servicer lookup: SPEC section 5's messages, the matching (a co-borrower's name,
// spellings of one address, ZIP+4), what the answer never holds, and the defences: the time floor,
// the limits shared by two servers, and a proof of work spent once.
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../src/contract/common';
import { SERVICER_LOOKUP_PATHS } from '../../src/contract/paths';
import { ALTCHA_HEADER, lookupChallengeSchema, servicerLookupResultsSchema } from '../../src/contract/servicer-lookup';
import { SERVICER_LOOKUP_TEXTS as T } from '../../src/domain/servicer-lookup';
import { insertLoan } from './support/loan-rows';
import { insertParticipant, TEST_CONFIG } from './support/server-fixtures';
import { type Caller, useRouteTest } from './support/route-test';

const server = useRouteTest();
const P = SERVICER_LOOKUP_PATHS;

/** A solved challenge of this app, as the ALTCHA widget sends it (base64 JSON). */
async function solution(caller: Caller): Promise<string> {
  const response = await caller.get(P.servicerLookupChallenge);
  expect(response.statusCode).toBe(200);
  const challenge = lookupChallengeSchema.parse(response.json());
  const solved = await solveChallenge({ challenge, deriveKey });
  if (!solved) throw new Error('challenge not solved');
  return Buffer.from(JSON.stringify({ challenge, solution: solved })).toString('base64');
}

interface Ask {
  readonly borrowerLastName?: string;
  readonly street1?: string;
  readonly street2?: string;
  readonly city?: string;
  readonly state?: string;
  readonly zip?: string;
}

const HOME: Required<Ask> = {
  borrowerLastName: 'Okafor',
  street1: '123 N Main St #4',
  street2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62704',
};

const queryOf = (ask: Ask): Record<string, string> => {
  const query: Record<string, string> = {};
  const put = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== '') query[name] = value;
  };
  put('borrowerLastName', ask.borrowerLastName);
  put('address.street1', ask.street1);
  put('address.street2', ask.street2);
  put('address.city', ask.city);
  put('address.state', ask.state);
  put('address.zip', ask.zip);
  return query;
};

async function lookup(ask: Ask, caller: Caller = server.anonymous, headers: Record<string, string> = {}) {
  const altcha = await solution(caller);
  return caller.get(P.servicerLookup, { query: queryOf(ask), headers: { [ALTCHA_HEADER]: altcha, ...headers } });
}

const found = async (ask: Ask) => {
  const response = await lookup({ ...HOME, ...ask });
  expect(response.statusCode).toBe(200);
  return servicerLookupResultsSchema.parse(response.json());
};

beforeAll(async () => {
  const servicer = await insertParticipant(server.db, { name: 'Lakeside Servicing' });
  const parties = [{ role: 'SERVICER', participantId: servicer.id }, { role: 'OWNER' }];
  await insertLoan(server.db, {
    loanNumber: 'LN-778899001234',
    borrowerFirstName: 'Ada',
    borrowerLastName: 'Okafor',
    additionalParties: [{ partyType: 'COBORROWER', firstName: 'José', lastName: 'De la Peña' }],
    propertyStreet1: '123 North Main Street',
    propertyStreet2: 'Apt 4',
    propertyCity: 'Springfield',
    propertyState: 'IL',
    propertyZip: '62704',
    parties,
  });
  // The same address, inactive or deactivated: never found.
  await insertLoan(server.db, {
    borrowerLastName: 'Lindqvist',
    propertyStreet1: '9 West Elm Avenue',
    propertyCity: 'Springfield',
    propertyState: 'IL',
    propertyZip: '62704',
    status: 'Inactive',
    parties,
  });
  await insertLoan(server.db, {
    borrowerLastName: 'Lindqvist',
    propertyStreet1: '9 West Elm Avenue',
    propertyCity: 'Springfield',
    propertyState: 'IL',
    propertyZip: '62704',
    deactivated: true,
    parties,
  });
});

describe('GET servicer_lookup: validation (SPEC section 5)', () => {
  it('names every missing or invalid field with SPEC’s message', async () => {
    const response = await lookup({});
    expect(response.statusCode).toBe(400);
    const { message } = errorBodySchema.parse(response.json());
    expect(message).toContain(`borrowerLastName: ${T.required}`);
    expect(message).toContain(`address.street1: ${T.required}`);
    expect(message).toContain(`address.city: ${T.required}`);
    expect(message).toContain(`address.state: ${T.invalidState}`);
    expect(message).toContain(`address.zip: ${T.invalidZip}`);
    expect(message).not.toContain('address.street2');
  });

  it.each([
    ['state', { state: 'XX' }, `address.state: ${T.invalidState}`],
    ['zip of 4 digits', { zip: '6270' }, `address.zip: ${T.invalidZip}`],
    ['zip of 7 digits', { zip: '6270412' }, `address.zip: ${T.invalidZip}`],
    ['zip with letters', { zip: '6270A' }, `address.zip: ${T.invalidZip}`],
    ['blank last name', { borrowerLastName: '   ' }, `borrowerLastName: ${T.required}`],
  ])('refuses a wrong %s', async (_name, ask, expected) => {
    const response = await lookup({ ...HOME, ...ask });
    expect(response.statusCode).toBe(400);
    expect(errorBodySchema.parse(response.json()).message).toBe(`querystring.${expected}`);
  });

  it('takes a 9-digit zip with or without the hyphen, and a lower-case state', async () => {
    expect(await found({ zip: '62704-1234' })).toHaveLength(1);
    expect(await found({ zip: '627041234', state: 'il' })).toHaveLength(1);
  });
});

describe('GET servicer_lookup: matching', () => {
  it('finds the loan by the borrower and answers only the servicer, the loan number masked', async () => {
    const response = await lookup(HOME);
    expect(response.statusCode).toBe(200);
    const results = servicerLookupResultsSchema.parse(response.json());
    expect(results).toEqual([
      {
        uli: expect.any(String),
        loanType: 'FIGURE_HELOC',
        loanNumber: `${'*'.repeat(11)}1234`,
        servicerName: 'Lakeside Servicing',
        servicerProfile: { url: 'https://example.test', address: { city: 'Springfield', state: 'IL' }, phoneNumber: '4155550100' },
      },
    ]);
    // Nothing of the borrowers, nothing else of the loan.
    expect(response.body).not.toMatch(/Okafor|Ada|Peña|Jos|LN-7788990/);
    expect(Object.keys(results[0] ?? {}).sort()).toEqual(['loanNumber', 'loanType', 'servicerName', 'servicerProfile', 'uli']);
  });

  it('finds it by a co-borrower’s last name, case, accents and spacing ignored', async () => {
    expect(await found({ borrowerLastName: 'De la Peña' })).toHaveLength(1);
    expect(await found({ borrowerLastName: 'delapena' })).toHaveLength(1);
    expect(await found({ borrowerLastName: 'OKAFOR ' })).toHaveLength(1);
  });

  it('matches across spellings of the address: suffix, directional, unit designator, punctuation, ZIP+4', async () => {
    expect(await found({ street1: '123 North Main Street Apt 4' })).toHaveLength(1);
    expect(await found({ street1: '123 N. Main St.', street2: 'Unit 4' })).toHaveLength(1);
    expect(await found({ street1: '123 north main street', street2: 'apartment #4', zip: '62704-0001' })).toHaveLength(1);
    expect(await found({ street1: '123  N MAIN ST', street2: 'Ste. 4', city: 'Springfield City' })).toHaveLength(1);
  });

  it('finds nothing for a wrong name, a wrong or missing unit, another zip or state, a near spelling', async () => {
    expect(await found({ borrowerLastName: 'Okafo' })).toEqual([]);
    expect(await found({ borrowerLastName: 'Ada' })).toEqual([]);
    expect(await found({ street1: '123 N Main St #5' })).toEqual([]);
    expect(await found({ street1: '123 N Main St' })).toEqual([]);
    expect(await found({ zip: '62705' })).toEqual([]);
    expect(await found({ state: 'IN' })).toEqual([]);
    expect(await found({ street1: '123 N Mian St #4' })).toEqual([]);
  });

  it('never finds an inactive or deactivated loan', async () => {
    expect(await found({ borrowerLastName: 'Lindqvist', street1: '9 W Elm Ave' })).toEqual([]);
  });

  it('records each lookup with its address and outcome, never the name', async () => {
    await found({ borrowerLastName: 'Recordtest', street1: '77 Record Road' });
    const rows = await server.db.execute<Record<string, unknown>>(sql`SELECT * FROM servicer_lookups WHERE street1 = '77 Record Road'`);
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ street1: '77 Record Road', zip: '62704', found: false, refusal: null });
    expect(JSON.stringify(rows.rows)).not.toContain('Recordtest');
    const hits = await server.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM servicer_lookups WHERE found`);
    expect(hits.rows[0]?.n).toBeGreaterThan(0);
    const limits = await server.db.execute<{ key: string }>(sql`SELECT key FROM lookup_limits`);
    expect(JSON.stringify(limits.rows).toLowerCase()).not.toContain('recordtest');
  });
});

describe('GET servicer_lookup: proof of work', () => {
  it('refuses a lookup without a solution, with a forged one, and a solution used twice', async () => {
    const none = await server.anonymous.get(P.servicerLookup, { query: queryOf(HOME) });
    expect(none.statusCode).toBe(400);
    expect(errorBodySchema.parse(none.json()).message).toBe(T.challengeRequired);

    const forged = await server.anonymous.get(P.servicerLookup, { query: queryOf(HOME), headers: { [ALTCHA_HEADER]: 'bm90IGpzb24=' } });
    expect(errorBodySchema.parse(forged.json()).message).toBe(T.challengeInvalid);

    const altcha = await solution(server.anonymous);
    const tampered = JSON.parse(Buffer.from(altcha, 'base64').toString()) as { solution: { derivedKey: string } };
    tampered.solution.derivedKey = tampered.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const wrong = await server.anonymous.get(P.servicerLookup, {
      query: queryOf(HOME),
      headers: { [ALTCHA_HEADER]: Buffer.from(JSON.stringify(tampered)).toString('base64') },
    });
    expect(errorBodySchema.parse(wrong.json()).message).toBe(T.challengeInvalid);

    // The query parameter works as well as the header, once.
    const first = await server.anonymous.get(P.servicerLookup, { query: { ...queryOf(HOME), altcha } });
    expect(first.statusCode).toBe(200);
    const again = await server.anonymous.get(P.servicerLookup, { query: queryOf(HOME), headers: { [ALTCHA_HEADER]: altcha } });
    expect(again.statusCode).toBe(400);
    expect(errorBodySchema.parse(again.json()).message).toBe(T.challengeUsed);
  });

  it('a challenge is not cached and is public', async () => {
    const response = await server.anonymous.get(P.servicerLookupChallenge);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(lookupChallengeSchema.parse(response.json()).parameters.algorithm).toBe('PBKDF2/SHA-256');
  });
});

describe('GET servicer_lookup: time floor and limits', () => {
  it('every answer takes at least the floor: found, not found, invalid', async () => {
    const slow = await server.otherApp({
      app: { config: { ...TEST_CONFIG, servicerLookup: { ...TEST_CONFIG.servicerLookup, timeFloorMs: 300 } } },
    });
    const time = async (ask: Ask) => {
      const altcha = await solution(slow.anonymous);
      const started = performance.now();
      const response = await slow.anonymous.get(P.servicerLookup, { query: queryOf(ask), headers: { [ALTCHA_HEADER]: altcha } });
      return { status: response.statusCode, ms: performance.now() - started };
    };
    for (const outcome of [await time(HOME), await time({ ...HOME, borrowerLastName: 'Nobody' }), await time({ ...HOME, zip: '1' })]) {
      expect(outcome.ms).toBeGreaterThanOrEqual(295);
    }
    expect((await time(HOME)).status).toBe(200);
    await slow.close();
  });

  const limited = (limits: { clientLimit?: number; nameZipLimit?: number }) =>
    ({ app: { config: { ...TEST_CONFIG, servicerLookup: { ...TEST_CONFIG.servicerLookup, ...limits } } } }) as const;

  it('limits one client address across two servers on one database: 429 with Retry-After', async () => {
    const [a, b] = [await server.otherApp(limited({ clientLimit: 3 })), await server.otherApp(limited({ clientLimit: 3 }))];
    const ask = async (callers: { anonymous: Caller }, name: string) => {
      const altcha = await solution(callers.anonymous);
      return callers.anonymous.inject({
        method: 'GET',
        url: P.servicerLookup,
        query: queryOf({ ...HOME, borrowerLastName: name }),
        headers: { [ALTCHA_HEADER]: altcha },
        remoteAddress: '203.0.113.7',
      });
    };
    expect((await ask(a, 'Alpha')).statusCode).toBe(200);
    expect((await ask(b, 'Bravo')).statusCode).toBe(200);
    expect((await ask(a, 'Charlie')).statusCode).toBe(200);
    const refused = await ask(b, 'Delta');
    expect(refused.statusCode).toBe(429);
    expect(errorBodySchema.parse(refused.json()).message).toBe(T.tooManyLookups);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await Promise.all([a.close(), b.close()]);
  });

  it('limits one (last name, zip) from any address, ZIP+4 counting as its ZIP', async () => {
    const a = await server.otherApp(limited({ nameZipLimit: 2 }));
    const ask = async (address: string, zip: string) =>
      a.anonymous.inject({
        method: 'GET',
        url: P.servicerLookup,
        query: queryOf({ ...HOME, borrowerLastName: 'Zimmerman', zip }),
        headers: { [ALTCHA_HEADER]: await solution(a.anonymous) },
        remoteAddress: address,
      });
    expect((await ask('198.51.100.1', '62701')).statusCode).toBe(200);
    expect((await ask('198.51.100.2', '62701-5555')).statusCode).toBe(200);
    const refused = await ask('198.51.100.3', '62701');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await ask('198.51.100.4', '62702')).statusCode).toBe(200);
    await a.close();
  });
});
