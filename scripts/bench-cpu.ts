// The server's own CPU per call, beside the latency goals of `npm run bench`.
// An API / raw SQL p95 ratio followed the machine more than the code (1.15x and 2.0 to 2.2x for the
// same code on one day: two nearly equal p95s of three processes on two shared cores). What the
// server itself spends on a call is its process's user + system time (getrusage, the figure of
// /proc/<pid>/stat in microseconds rather than 10 ms ticks) around a closed-loop run, less what the
// same process spends idle over as long (GC, compiler threads, timers, the other idle server),
// divided by the calls; and compared with a bare Fastify + zod route measured the same way in the
// same run: a yardstick that meets the same machine.
import type { LoadResult } from './bench-load';

/**
 * How much a list call may cost the server: against the bare route with its page cache (3x) and
 * without (5x, the goal), and without it against the bare route plus one PostgreSQL round
 * trip (2.5x; decision 0011: node-postgres's round trip alone costs about 3x the bare route).
 */
export const CPU_RATIO_TARGETS = { cached: 3, uncached: 5, uncachedOverFloor: 2.5 } as const;

/** The bare route measured beside the list views (scripts/bench-stress.ts's server). */
export const BARE_CPU_SCENARIO = 'bare Fastify + zod route (CPU per call)';

/**
 * The bare route with one PostgreSQL round trip answering the first page's JSON text: the floor of
 * an uncached read through node-postgres, for information beside the uncached goal.
 */
export const BARE_PG_CPU_SCENARIO = 'bare route + one PostgreSQL query (CPU per call)';

/** The same query held 100 ms in PostgreSQL: the server's CPU of a call that waits as a search does (for information). */
export const BARE_PG_SLOW_CPU_SCENARIO = 'bare route + one PostgreSQL query waiting 100 ms (CPU per call)';

/** How long the idle CPU is measured before each run. */
export const IDLE_WINDOW_MS = 1_000;

/** The CPU time (user + system, every thread) this process has used, in milliseconds. */
export const ownCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** CPU and wall time over a stretch: a run, or the idle window before it. */
export interface CpuSpan {
  readonly cpuMs: number;
  readonly elapsedMs: number;
}

/** The process's CPU while it serves no call, measured over `windowMs` just before a run. */
export async function idleCpu(windowMs = IDLE_WINDOW_MS, readCpuMs: () => number = ownCpuMs): Promise<CpuSpan> {
  const cpuBefore = readCpuMs();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, windowMs));
  return { cpuMs: readCpuMs() - cpuBefore, elapsedMs: performance.now() - started };
}

/** A scenario's result with the server's CPU per call over the whole run (warm-up included). */
export type CpuMeasured = LoadResult & { readonly serverCpuMicrosPerCall?: number };

/**
 * CPU per call in µs: the CPU of a run less the idle rate over the run's wall time (never below
 * zero), over every call it made. Without the idle share a slow view, making few calls, carried the
 * process's background CPU in its figure (a 6 s run of 400 calls: 150 µs per call for each 1% of a core).
 */
export function cpuMicrosPerCall(run: CpuSpan, calls: number, idle?: CpuSpan): number | undefined {
  if (!(calls > 0) || !(run.elapsedMs >= 0)) return undefined;
  const background = idle && idle.elapsedMs > 0 ? (idle.cpuMs / idle.elapsedMs) * run.elapsedMs : 0;
  return (Math.max(0, run.cpuMs - background) * 1000) / calls;
}

export interface CpuGoal {
  readonly label: string;
  readonly target: number;
  /** The ratio to the bare route, from the run's results by name (undefined: either was not measured). */
  readonly ratio: (find: (name: string) => CpuMeasured | undefined) => number | undefined;
}

/** For each list view: its server CPU per call over the bare route's, with the page cache (<= 3x) and without (<= 5x), and without it over the bare route with one query's (<= 2.5x). */
export function cpuGoals(viewNames: readonly string[], uncachedSuffix: string): CpuGoal[] {
  const ratio =
    (name: string, yardstick = BARE_CPU_SCENARIO) =>
    (find: (name: string) => CpuMeasured | undefined) => {
      const view = find(name)?.serverCpuMicrosPerCall;
      const bare = find(yardstick)?.serverCpuMicrosPerCall;
      return view === undefined || bare === undefined || !(bare > 0) ? undefined : view / bare;
    };
  return viewNames.flatMap((name) => {
    const view = name.replace('list: ', '');
    return [
      { label: `server CPU/call / bare route, ${view}`, target: CPU_RATIO_TARGETS.cached, ratio: ratio(name) },
      {
        label: `server CPU/call / bare route, ${view} (cache off)`,
        target: CPU_RATIO_TARGETS.uncached,
        ratio: ratio(name + uncachedSuffix),
      },
      {
        label: `server CPU/call / bare route + one PostgreSQL query, ${view} (cache off)`,
        target: CPU_RATIO_TARGETS.uncachedOverFloor,
        ratio: ratio(name + uncachedSuffix, BARE_PG_CPU_SCENARIO),
      },
    ];
  });
}
