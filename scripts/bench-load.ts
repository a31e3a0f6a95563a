// Closed-loop HTTP load for `npm run bench`: `concurrency` workers each send one request, read
// the whole answer, and send the next, until the duration ends or the request cap is reached.
// Runs in its own process (scripts/bench-client.ts) so the load does not share the server's
// event loop; this module only holds the runner and the messages both sides exchange.
import http from 'node:http';

/** One HTTP request of a scenario. */
export interface HttpRequestSpec {
  readonly method: 'GET' | 'POST';
  /** Absolute URL on the loopback server. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** A request counts as an error unless it answers with this status. */
  readonly expectStatus: number;
  /** ...and, when set, carries this response header (e.g. set-cookie after sign-in). */
  readonly expectHeader?: string;
}

/**
 * An HTTP scenario: each iteration sends one group of requests at once (a screen's parallel
 * calls, e.g. a loan's details and events) and its latency is the time until all are read.
 * Iterations take the groups in turn, so a scenario can spread over several loans.
 */
export interface HttpScenarioSpec {
  readonly kind: 'http';
  readonly name: string;
  readonly groups: readonly (readonly HttpRequestSpec[])[];
}

/** A parameterized SQL statement (text with $1..$n, values), prepared by name when it has one (as the server does). */
export interface SqlStatement {
  readonly text: string;
  readonly values: readonly unknown[];
  readonly name?: string;
}

/**
 * The same work straight on PostgreSQL: each iteration runs the statements in order on one
 * pooled connection (the server's pool size, so both sides queue alike).
 */
export interface SqlScenarioSpec {
  readonly kind: 'sql';
  readonly name: string;
  readonly connectionString: string;
  readonly poolSize: number;
  readonly statements: readonly SqlStatement[];
}

export type ScenarioSpec = HttpScenarioSpec | SqlScenarioSpec;

/** A single HTTP request spec as a scenario of its own. */
export const httpScenario = (name: string, request: HttpRequestSpec): HttpScenarioSpec => ({ kind: 'http', name, groups: [[request]] });

/** One download, streamed and counted (the CSV export). */
export interface DownloadSpec {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

export interface DownloadResult {
  readonly status: number;
  readonly bytes: number;
  /** Line feeds in the body (a CSV's rows + header, more when cells hold line breaks). */
  readonly lineFeeds: number;
  readonly elapsedMs: number;
  readonly headers: Readonly<Record<string, string>>;
}

export interface LoadOptions {
  readonly concurrency: number;
  readonly warmupMs: number;
  readonly durationMs: number;
  /** Hard cap on measured requests (and, separately, on warm-up requests). */
  readonly maxRequests: number;
  /** Per-request timeout; a request that takes longer is aborted and counted as an error. */
  readonly timeoutMs: number;
}

export interface LoadResult {
  readonly name: string;
  readonly count: number;
  readonly errors: number;
  /** Up to five distinct error descriptions. */
  readonly errorSamples: readonly string[];
  readonly elapsedMs: number;
  readonly requestsPerSecond: number;
  /** Latencies of successful requests, in milliseconds. */
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
  /** True when the request cap, not the duration, ended the run. */
  readonly capped: boolean;
  /** Calls made in the warm-up (not in count): with count, every call the run made. */
  readonly warmupCount?: number;
}

export type ParentMessage =
  | { readonly type: 'run'; readonly spec: ScenarioSpec; readonly options: LoadOptions }
  | { readonly type: 'download'; readonly spec: DownloadSpec };
export type ChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly result: LoadResult }
  | { readonly type: 'downloaded'; readonly result: DownloadResult }
  | { readonly type: 'error'; readonly message: string };

/** Nearest-rank percentile of ascending values (NaN when there are none). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

interface Phase {
  ok: number;
  errors: number;
  latencies: Float64Array;
  errorSamples: Set<string>;
}

/**
 * Keep-alive connections, as a browser keeps them. node:http rather than fetch: fetch costs this
 * process several times the CPU per request, and on a 2-core machine that CPU is taken from the
 * server under test (the load generator should weigh as little as wrk would). For the same reason
 * each request's options are parsed once, and one watchdog ends overdue requests instead of a
 * timer per request: together they halved the client's CPU per request (about 180 to 90 µs).
 */
const keepAliveAgent = new http.Agent({ keepAlive: true });

/** A request's node:http options, built once per spec. */
interface PreparedRequest {
  readonly spec: HttpRequestSpec;
  readonly options: http.RequestOptions;
}

function prepare(spec: HttpRequestSpec): PreparedRequest {
  const url = new URL(spec.url);
  return {
    spec,
    options: {
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method: spec.method,
      headers: spec.headers,
      agent: keepAliveAgent,
    },
  };
}

/** Requests under way and when they are overdue; checked by one timer (see watchRequests). */
const underWay = new Map<http.ClientRequest, number>();

/** Ends each request still under way `timeoutMs` after it started; answers the function that stops watching. */
function watchRequests(timeoutMs: number): () => void {
  const timer = setInterval(
    () => {
      const now = performance.now();
      for (const [request, deadline] of underWay) if (deadline <= now) request.destroy(new Error(`no answer within ${timeoutMs} ms`));
    },
    Math.min(1000, timeoutMs),
  );
  return () => clearInterval(timer);
}

function sendRequest({ spec, options }: PreparedRequest, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(options, (response) => {
      // Read the whole body: the latency includes it, and the connection returns to the pool.
      response.on('data', () => undefined);
      response.on('error', reject);
      response.on('end', () => {
        underWay.delete(outgoing);
        if (response.statusCode !== spec.expectStatus) resolve(`status ${response.statusCode} (expected ${spec.expectStatus})`);
        else if (spec.expectHeader && response.headers[spec.expectHeader.toLowerCase()] === undefined)
          resolve(`no ${spec.expectHeader} header`);
        else resolve(undefined);
      });
    });
    underWay.set(outgoing, performance.now() + timeoutMs);
    outgoing.on('error', (error) => {
      underWay.delete(outgoing);
      reject(error);
    });
    outgoing.end(spec.body);
  });
}

/** Sends one iteration of a scenario; answers a problem description, or undefined when it went well. */
type Iteration = (index: number) => Promise<string | undefined>;

function httpIteration(spec: HttpScenarioSpec, timeoutMs: number): Iteration {
  const groups = spec.groups.map((group) => group.map(prepare));
  return async (index) => {
    const group = groups[index % groups.length] ?? [];
    const problems = await Promise.all(group.map((request) => sendRequest(request, timeoutMs)));
    return problems.find((problem) => problem !== undefined);
  };
}

async function sqlIteration(spec: SqlScenarioSpec): Promise<{ iteration: Iteration; close: () => Promise<void> }> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: spec.connectionString, max: spec.poolSize });
  return {
    iteration: async () => {
      const client = await pool.connect();
      let failed: Error | undefined;
      try {
        for (const statement of spec.statements) await client.query({ ...statement, values: [...statement.values] });
        return undefined;
      } catch (error) {
        failed = error instanceof Error ? error : new Error(String(error));
        // Leave no transaction open on a connection that goes back to the pool.
        return failed.message;
      } finally {
        client.release(failed);
      }
    },
    close: () => pool.end(),
  };
}

async function runPhase(
  iteration: Iteration,
  options: LoadOptions,
  durationMs: number,
  record: boolean,
): Promise<{ phase: Phase; elapsedMs: number; capped: boolean }> {
  const cap = options.maxRequests;
  const phase: Phase = { ok: 0, errors: 0, latencies: new Float64Array(record ? cap : 0), errorSamples: new Set() };
  let issued = 0;
  const started = performance.now();
  const deadline = started + durationMs;

  const worker = async () => {
    while (performance.now() < deadline && issued < cap) {
      const index = issued++;
      const t0 = performance.now();
      let problem: string | undefined;
      try {
        problem = await iteration(index);
      } catch (error) {
        problem = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      const latency = performance.now() - t0;
      if (problem === undefined) {
        if (record) phase.latencies[phase.ok] = latency;
        phase.ok++;
      } else {
        phase.errors++;
        if (phase.errorSamples.size < 5) phase.errorSamples.add(problem);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { phase, elapsedMs: performance.now() - started, capped: issued >= cap };
}

export async function runLoad(spec: ScenarioSpec, options: LoadOptions): Promise<LoadResult> {
  const sql = spec.kind === 'sql' ? await sqlIteration(spec) : undefined;
  const iteration = sql?.iteration ?? httpIteration(spec as HttpScenarioSpec, options.timeoutMs);
  let measured: Awaited<ReturnType<typeof runPhase>>;
  let warmupCount = 0;
  const stopWatching = watchRequests(options.timeoutMs);
  try {
    // Warm-up: connections opened, JIT and caches warm; not measured.
    if (options.warmupMs > 0) {
      const { phase } = await runPhase(iteration, options, options.warmupMs, false);
      warmupCount = phase.ok + phase.errors;
    }
    measured = await runPhase(iteration, options, options.durationMs, true);
  } finally {
    stopWatching();
    await sql?.close();
  }
  const { phase, elapsedMs, capped } = measured;
  const sorted = phase.latencies.subarray(0, phase.ok).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  const count = phase.ok + phase.errors;
  return {
    name: spec.name,
    count,
    errors: phase.errors,
    errorSamples: [...phase.errorSamples],
    elapsedMs,
    requestsPerSecond: elapsedMs > 0 ? (count / elapsedMs) * 1000 : 0,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length > 0 ? (sorted[sorted.length - 1] as number) : Number.NaN,
    mean: sorted.length > 0 ? sum / sorted.length : Number.NaN,
    capped,
    warmupCount,
  };
}

/** Downloads a body as a browser would, counting bytes and line feeds without keeping it. */
export async function download(spec: DownloadSpec): Promise<DownloadResult> {
  const started = performance.now();
  const response = await fetch(spec.url, { headers: spec.headers, signal: AbortSignal.timeout(spec.timeoutMs) });
  let bytes = 0;
  let lineFeeds = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      const data = chunk as Uint8Array;
      bytes += data.length;
      for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) lineFeeds++;
    }
  }
  return {
    status: response.status,
    bytes,
    lineFeeds,
    elapsedMs: performance.now() - started,
    headers: Object.fromEntries(response.headers),
  };
}

/** What one call of a closed loop found wrong, or undefined when it succeeded. */
export type LoopCall = () => Promise<string | undefined>;

/**
 * A closed loop of `concurrency` workers, each making the next call as soon as its last one ends:
 * a warm-up (not recorded), then the measured run, both stopped early when `nextCall` has none
 * left. For the write scenarios that run in a child process of their own (bench-deactivation.ts,
 * bench-messages.ts).
 */
export async function runClosedLoop(
  name: string,
  options: { readonly concurrency: number; readonly warmupMs: number; readonly durationMs: number },
  nextCall: () => LoopCall | undefined,
): Promise<LoadResult> {
  let exhausted = false;
  const phase = async (durationMs: number, record: boolean) => {
    const latencies: number[] = [];
    const samples = new Set<string>();
    let errors = 0;
    const started = performance.now();
    const deadline = started + durationMs;
    const worker = async () => {
      while (performance.now() < deadline) {
        const call = nextCall();
        if (!call) {
          exhausted = true;
          return;
        }
        const t0 = performance.now();
        let problem: string | undefined;
        try {
          problem = await call();
        } catch (error) {
          problem = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        }
        if (problem === undefined) {
          if (record) latencies.push(performance.now() - t0);
        } else {
          errors++;
          if (samples.size < 5) samples.add(problem);
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    return { latencies, errors, samples, elapsedMs: performance.now() - started };
  };

  if (options.warmupMs > 0) await phase(options.warmupMs, false);
  const measured = await phase(options.durationMs, true);
  const sorted = Float64Array.from(measured.latencies).sort();
  const count = sorted.length + measured.errors;
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    name,
    count,
    errors: measured.errors,
    errorSamples: [...measured.samples],
    elapsedMs: measured.elapsedMs,
    requestsPerSecond: measured.elapsedMs > 0 ? (count / measured.elapsedMs) * 1000 : 0,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.length > 0 ? (sorted[sorted.length - 1] as number) : Number.NaN,
    mean: sorted.length > 0 ? sum / sorted.length : Number.NaN,
    capped: exhausted,
  };
}
