// The server's own CPU per call (issue 24's measure), beside the latency goals of `npm run bench`.
// An API / raw SQL p95 ratio followed the machine more than the code (1.15x and 2.0 to 2.2x for the
// same code on one day: two nearly equal p95s of three processes on two shared cores). What the
// server itself spends on a call is read from /proc/<pid>/stat (user + system time) around a
// closed-loop run and divided by the calls, and compared with a bare Fastify + zod route measured
// the same way in the same run: a yardstick that meets the same machine.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { LoadResult } from './bench-load';

/** How much a list call may cost the server against the bare route: with its page cache, and without. */
export const CPU_RATIO_TARGETS = { cached: 3, uncached: 5 } as const;

/** The bare route measured beside the list views (scripts/bench-stress.ts's server). */
export const BARE_CPU_SCENARIO = 'bare Fastify + zod route (CPU per call)';

/** utime + stime, in clock ticks, of a /proc/<pid>/stat line (fields 14 and 15; the name in parentheses may hold spaces). */
export function statTicks(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3, so utime (14) and stime (15) are at 11 and 12.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`Not a /proc/<pid>/stat line: ${stat.slice(0, 80)}`);
  return utime + stime;
}

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second for /proc times (getconf CLK_TCK; 100 on Linux). */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    const answer = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const value = Number(answer.stdout?.trim());
    ticksPerSecond = Number.isInteger(value) && value > 0 ? value : 100;
  }
  return ticksPerSecond;
}

/** The CPU time (user + system) a process has used, in milliseconds; undefined where /proc is missing. */
export function processCpuMs(pid: number): number | undefined {
  try {
    return (statTicks(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')) * 1000) / clockTicksPerSecond();
  } catch {
    return undefined;
  }
}

/** A scenario's result with the server's CPU per call over the whole run (warm-up included). */
export type CpuMeasured = LoadResult & { readonly serverCpuMicrosPerCall?: number };

/** CPU per call in µs: the CPU used from before to after a run, over every call it made. */
export function cpuMicrosPerCall(beforeMs: number | undefined, afterMs: number | undefined, calls: number): number | undefined {
  if (beforeMs === undefined || afterMs === undefined || !(calls > 0)) return undefined;
  return ((afterMs - beforeMs) * 1000) / calls;
}

export interface CpuGoal {
  readonly label: string;
  readonly target: number;
  /** The ratio to the bare route, from the run's results by name (undefined: either was not measured). */
  readonly ratio: (find: (name: string) => CpuMeasured | undefined) => number | undefined;
}

/** For each list view: its server CPU per call over the bare route's, with the page cache (<= 3x) and without (<= 5x). */
export function cpuGoals(viewNames: readonly string[], uncachedSuffix: string): CpuGoal[] {
  const ratio = (name: string) => (find: (name: string) => CpuMeasured | undefined) => {
    const view = find(name)?.serverCpuMicrosPerCall;
    const bare = find(BARE_CPU_SCENARIO)?.serverCpuMicrosPerCall;
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
    ];
  });
}
