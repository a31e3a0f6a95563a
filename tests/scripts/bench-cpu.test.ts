// Issue 24's measure in `npm run bench`: the server's CPU per call from /proc against the bare
// Fastify + zod route's in the same run, and the verdicts drawn from it.
import { describe, expect, it } from 'vitest';
import {
  BARE_CPU_SCENARIO,
  CPU_RATIO_TARGETS,
  cpuGoals,
  cpuMicrosPerCall,
  processCpuMs,
  statTicks,
  type CpuMeasured,
} from '../../scripts/bench-cpu';

const result = (name: string, serverCpuMicrosPerCall?: number): CpuMeasured => ({
  name,
  count: 1000,
  errors: 0,
  errorSamples: [],
  elapsedMs: 1000,
  requestsPerSecond: 1000,
  p50: 1,
  p95: 2,
  p99: 3,
  max: 4,
  mean: 1,
  capped: false,
  ...(serverCpuMicrosPerCall === undefined ? {} : { serverCpuMicrosPerCall }),
});

describe('server CPU per call', () => {
  it('reads user and system ticks of /proc/<pid>/stat, a name with spaces and parentheses included', () => {
    const stat = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194560 9000 0 0 0 1234 567 0 0 20 0 11 0 100 0 0';
    expect(statTicks(stat)).toBe(1234 + 567);
    expect(() => statTicks('garbage')).toThrow(/Not a \/proc/);
  });

  it("reads this process's CPU time where /proc exists, and nothing for a process that does not exist", () => {
    if (process.platform === 'linux') expect(processCpuMs(process.pid)).toBeGreaterThan(0);
    expect(processCpuMs(2 ** 30)).toBeUndefined();
  });

  it('divides the CPU of a run by every call it made', () => {
    expect(cpuMicrosPerCall(1000, 1150, 1000)).toBeCloseTo(150, 9);
    expect(cpuMicrosPerCall(undefined, 1150, 1000)).toBeUndefined();
    expect(cpuMicrosPerCall(1000, 1150, 0)).toBeUndefined();
  });

  it('passes a list view at 3x the bare route with its page cache and 5x without, and not above', () => {
    const goals = cpuGoals(['list: first page'], ' (page cache off)');
    expect(goals.map((goal) => [goal.label, goal.target])).toEqual([
      ['server CPU/call / bare route, first page', CPU_RATIO_TARGETS.cached],
      ['server CPU/call / bare route, first page (cache off)', CPU_RATIO_TARGETS.uncached],
    ]);
    expect(CPU_RATIO_TARGETS).toEqual({ cached: 3, uncached: 5 });
    const results = [result(BARE_CPU_SCENARIO, 31), result('list: first page', 86), result('list: first page (page cache off)', 151)];
    const find = (name: string) => results.find((entry) => entry.name === name);
    const [cached, uncached] = goals.map((goal) => goal.ratio(find));
    expect(cached).toBeCloseTo(86 / 31, 9);
    expect(uncached).toBeCloseTo(151 / 31, 9);
    expect(cached! <= CPU_RATIO_TARGETS.cached && uncached! <= CPU_RATIO_TARGETS.uncached).toBe(true);
    const slower = [result(BARE_CPU_SCENARIO, 31), result('list: first page (page cache off)', 160)];
    const slowerRatio = goals[1]?.ratio((name) => slower.find((entry) => entry.name === name));
    expect(slowerRatio).toBeGreaterThan(CPU_RATIO_TARGETS.uncached);
  });

  it('leaves a goal unmeasured when the view or the bare route has no CPU figure', () => {
    const [cached] = cpuGoals(['list: first page'], ' (page cache off)');
    expect(cached?.ratio((name) => (name === BARE_CPU_SCENARIO ? undefined : result(name, 80)))).toBeUndefined();
    expect(cached?.ratio((name) => result(name))).toBeUndefined();
    expect(cached?.ratio((name) => result(name, name === BARE_CPU_SCENARIO ? 0 : 80))).toBeUndefined();
  });
});
