// Closed-loop HTTP load for `npm run bench`: `concurrency` workers each send one request, read
// the whole answer, and send the next, until the duration ends or the request cap is reached.
// Runs in its own process (scripts/bench-client.ts) so the load does not share the server's
// event loop; this module only holds the runner and the messages both sides exchange.

export interface ScenarioSpec {
  readonly name: string;
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
}

export type ParentMessage = { readonly type: 'run'; readonly spec: ScenarioSpec; readonly options: LoadOptions };
export type ChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'result'; readonly result: LoadResult }
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

async function sendOne(spec: ScenarioSpec, timeoutMs: number): Promise<string | undefined> {
  const response = await fetch(spec.url, {
    method: spec.method,
    headers: spec.headers,
    body: spec.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  // Read the whole body: the latency includes it, and the connection returns to the pool.
  await response.arrayBuffer();
  if (response.status !== spec.expectStatus) return `status ${response.status} (expected ${spec.expectStatus})`;
  if (spec.expectHeader && !response.headers.has(spec.expectHeader)) return `no ${spec.expectHeader} header`;
  return undefined;
}

async function runPhase(spec: ScenarioSpec, options: LoadOptions, durationMs: number, record: boolean): Promise<{ phase: Phase; elapsedMs: number; capped: boolean }> {
  const cap = options.maxRequests;
  const phase: Phase = { ok: 0, errors: 0, latencies: new Float64Array(record ? cap : 0), errorSamples: new Set() };
  let issued = 0;
  const started = performance.now();
  const deadline = started + durationMs;

  const worker = async () => {
    while (performance.now() < deadline && issued < cap) {
      issued++;
      const t0 = performance.now();
      let problem: string | undefined;
      try {
        problem = await sendOne(spec, options.timeoutMs);
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
  // Warm-up: connections opened, JIT and caches warm; not measured.
  if (options.warmupMs > 0) await runPhase(spec, options, options.warmupMs, false);
  const { phase, elapsedMs, capped } = await runPhase(spec, options, options.durationMs, true);
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
  };
}
