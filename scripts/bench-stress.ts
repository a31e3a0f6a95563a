// The load section of `npm run bench`: 50 connections for 30 s on users/me, the asset list
// and the message list (0 errors, p99 <= 250 ms), and beside them a bare Fastify + zod route in
// the same process and run, the yardstick for the server's own cost per request: users/me and
// the asset list must reach at least a quarter of its throughput.
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PATHS } from '../src/contract/paths';
import { PARTICIPANT_HEADER } from '../src/domain/constants';
import { listRequest, type LoanBenchData } from './bench-loans';
import { httpScenario, type HttpScenarioSpec, type LoadResult } from './bench-load';
import type { MessageBenchData } from './bench-messages';

export const STRESS_SCENARIOS = {
  usersMe: 'stress: users/me',
  loanList: 'stress: asset list first page',
  messageList: 'stress: message list first page',
  bare: 'stress: bare Fastify + zod route',
} as const;

export const STRESS_DEFAULTS = { concurrency: 50, durationS: 30 } as const;

/**
 * The stress scenarios run in turns: each round gives every scenario a slice of its duration.
 * On a shared two-core machine the speed available drifts by a quarter within a minute; run one
 * after the other, the bare route and the registry met different machines and the throughput
 * ratio swung from 19% to 30% between runs. Interleaved, each scenario meets the same drift.
 */
export const STRESS_ROUNDS = 5;

/**
 * One scenario's rounds as one result: counts, errors and time summed, throughput over the whole,
 * the mean weighted by count, and each percentile the worst round's (an upper bound of the
 * whole's, as the rounds' samples are not kept).
 */
export function mergeRounds(rounds: readonly LoadResult[]): LoadResult {
  const [first] = rounds;
  if (!first) throw new Error('No round to merge');
  const count = rounds.reduce((sum, round) => sum + round.count, 0);
  const elapsedMs = rounds.reduce((sum, round) => sum + round.elapsedMs, 0);
  const worst = (key: 'p50' | 'p95' | 'p99' | 'max') => Math.max(...rounds.map((round) => round[key]));
  return {
    name: first.name,
    count,
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    errorSamples: [...new Set(rounds.flatMap((round) => round.errorSamples))].slice(0, 5),
    elapsedMs,
    requestsPerSecond: elapsedMs > 0 ? (count * 1000) / elapsedMs : 0,
    p50: worst('p50'),
    p95: worst('p95'),
    p99: worst('p99'),
    max: worst('max'),
    mean: count > 0 ? rounds.reduce((sum, round) => sum + round.mean * round.count, 0) / count : 0,
    capped: rounds.some((round) => round.capped),
  };
}

/** The bare route's path: a query validated by zod and a small object serialized through zod. */
const BARE_PATH = '/bare';
/** The bare route with one PostgreSQL round trip: the floor of any uncached registry read. */
const BARE_PG_PATH = '/bare-pg';
const BARE_PG_SLOW_PATH = '/bare-pg-slow';

const bareQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).default(0),
});

/**
 * A bare Fastify app with the same zod type provider as the registry: one GET route whose query
 * (limit, offset) and answer go through zod, and nothing else (no cookies, headers, hooks or
 * database). Runs in the benchmark's process, beside the registry server.
 *
 * Given a database and a JSON text, a second route (`/bare-pg`) adds exactly one PostgreSQL round
 * trip through node-postgres as the registry makes it (a pool, a named statement, one text
 * column) and sends that text as the answer, as the asset list sends the page PostgreSQL wrote:
 * what an uncached read costs before any of the registry's own code.
 */
export async function startBareServer(
  host: string,
  database?: { readonly connectionString: string; readonly answer: string },
): Promise<{ url: string; close: () => Promise<void> }> {
  const app: FastifyInstance = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.withTypeProvider<ZodTypeProvider>().get(
    BARE_PATH,
    {
      schema: {
        querystring: bareQuerySchema,
        response: {
          200: z.object({ limit: z.number(), offset: z.number(), items: z.array(z.object({ id: z.number(), name: z.string() })) }),
        },
      },
    },
    async (request) => ({
      limit: request.query.limit,
      offset: request.query.offset,
      items: [{ id: request.query.offset, name: 'bare' }],
    }),
  );
  const pool = database ? new pg.Pool({ connectionString: database.connectionString, max: 16 }) : undefined;
  if (pool && database) {
    app.withTypeProvider<ZodTypeProvider>().get(BARE_PG_PATH, { schema: { querystring: bareQuerySchema } }, async (_request, reply) => {
      const result = await pool.query<{ page: string }>({ name: 'bare_pg', text: 'SELECT $1::text AS page', values: [database.answer] });
      return reply.type('application/json; charset=utf-8').send(result.rows[0]?.page ?? '');
    });
    // The same round trip held 100 ms in PostgreSQL, as a search's is: what waiting costs the server.
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(BARE_PG_SLOW_PATH, { schema: { querystring: bareQuerySchema } }, async (_request, reply) => {
        const result = await pool.query<{ page: string }>({
          name: 'bare_pg_slow',
          text: 'SELECT $1::text AS page FROM pg_sleep(0.1)',
          values: [database.answer],
        });
        return reply.type('application/json; charset=utf-8').send(result.rows[0]?.page ?? '');
      });
  }
  const address = await app.listen({ host, port: 0 });
  return {
    url: address,
    close: async () => {
      await app.close();
      await pool?.end();
    },
  };
}

export function stressScenarios(input: {
  readonly baseUrl: string;
  readonly bareUrl: string;
  readonly usersMe: { readonly cookie: string; readonly participantId: string };
  readonly loans?: { readonly cookie: string; readonly data: LoanBenchData };
  readonly messages?: { readonly cookie: string; readonly data: MessageBenchData };
}): HttpScenarioSpec[] {
  const { baseUrl, usersMe, loans, messages } = input;
  return [
    httpScenario(STRESS_SCENARIOS.usersMe, {
      method: 'GET',
      url: baseUrl + PATHS.usersMe,
      headers: { cookie: usersMe.cookie, [PARTICIPANT_HEADER]: usersMe.participantId },
      expectStatus: 200,
    }),
    ...(loans
      ? [
          httpScenario(
            STRESS_SCENARIOS.loanList,
            listRequest(baseUrl, { cookie: loans.cookie }, loans.data, { name: STRESS_SCENARIOS.loanList, offset: 0 }),
          ),
        ]
      : []),
    ...(messages
      ? [
          httpScenario(STRESS_SCENARIOS.messageList, {
            method: 'GET',
            url: `${baseUrl}${PATHS.messages}?${new URLSearchParams({ limit: '10', offset: '0' })}`,
            headers: { cookie: messages.cookie, [PARTICIPANT_HEADER]: messages.data.participantId },
            expectStatus: 200,
          }),
        ]
      : []),
    bareScenario(STRESS_SCENARIOS.bare, input.bareUrl),
  ];
}

/** The bare route's one request as a scenario (the stress section's, and the CPU yardstick of the list views). */
export const bareScenario = (name: string, bareUrl: string): HttpScenarioSpec =>
  httpScenario(name, { method: 'GET', url: `${bareUrl}${BARE_PATH}?limit=10&offset=0`, headers: {}, expectStatus: 200 });

/** The bare route with its one PostgreSQL round trip (startBareServer given a database). */
export const barePgScenario = (name: string, bareUrl: string): HttpScenarioSpec =>
  httpScenario(name, { method: 'GET', url: `${bareUrl}${BARE_PG_PATH}?limit=10&offset=0`, headers: {}, expectStatus: 200 });

/** The bare route with its one PostgreSQL round trip held 100 ms by the database (a slow search's wait, without its work). */
export const barePgSlowScenario = (name: string, bareUrl: string): HttpScenarioSpec =>
  httpScenario(name, { method: 'GET', url: `${bareUrl}${BARE_PG_SLOW_PATH}?limit=10&offset=0`, headers: {}, expectStatus: 200 });
