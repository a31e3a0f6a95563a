// The CPU per call measure of `npm run bench`: the server's CPU per call, its idle CPU subtracted, against the bare
// Fastify + zod route's in the same run, and the verdicts drawn from it.
import { describe, expect, it } from 'vitest';
import {
  BARE_CPU_SCENARIO,
  BARE_PG_CPU_SCENARIO,
  CPU_RATIO_TARGETS,
  cpuGoals,
  cpuMicrosPerCall,
  idleCpu,
  ownCpuMs,
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
  it("reads this process's own CPU time, which grows as it works", () => {
    const before = ownCpuMs();
    let spin = 0;
    for (let i = 0; i < 2_000_000; i++) spin += Math.sqrt(i);
    expect(spin).toBeGreaterThan(0);
    expect(ownCpuMs()).toBeGreaterThan(before);
  });

  it('divides the CPU of a run by every call it made', () => {
    expect(cpuMicrosPerCall({ cpuMs: 150, elapsedMs: 6000 }, 1000)).toBeCloseTo(150, 9);
    expect(cpuMicrosPerCall({ cpuMs: 150, elapsedMs: 6000 }, 0)).toBeUndefined();
  });

  it("subtracts the process's idle CPU rate over the run's wall time, pro rata, before dividing", () => {
    // Idle: 20 ms of CPU in 1 s (2% of a core); a 6 s run of 400 calls used 180 ms, 120 of them idle.
    expect(cpuMicrosPerCall({ cpuMs: 180, elapsedMs: 6000 }, 400, { cpuMs: 20, elapsedMs: 1000 })).toBeCloseTo((60 * 1000) / 400, 9);
    // The same idle rate over a window twice as long, and a run half as long.
    expect(cpuMicrosPerCall({ cpuMs: 180, elapsedMs: 3000 }, 400, { cpuMs: 40, elapsedMs: 2000 })).toBeCloseTo((120 * 1000) / 400, 9);
    // A busy run's figure barely moves: 30,000 calls.
    expect(cpuMicrosPerCall({ cpuMs: 2520, elapsedMs: 6000 }, 30_000, { cpuMs: 20, elapsedMs: 1000 })).toBeCloseTo(80, 9);
    // More idle than the run used (a GC in the idle window): zero, never negative.
    expect(cpuMicrosPerCall({ cpuMs: 50, elapsedMs: 6000 }, 400, { cpuMs: 20, elapsedMs: 1000 })).toBe(0);
    // An empty idle window subtracts nothing.
    expect(cpuMicrosPerCall({ cpuMs: 180, elapsedMs: 6000 }, 400, { cpuMs: 0, elapsedMs: 0 })).toBeCloseTo(450, 9);
  });

  it('measures the idle CPU over its window from the reader it is given', async () => {
    const readings = [100, 112];
    const idle = await idleCpu(20, () => readings.shift() ?? Number.NaN);
    expect(idle.cpuMs).toBe(12);
    expect(idle.elapsedMs).toBeGreaterThanOrEqual(19);
  });

  it('passes a list view at 3x the bare route with its page cache and 5x without, and not above', () => {
    const goals = cpuGoals(['list: first page'], ' (page cache off)');
    expect(goals.map((goal) => [goal.label, goal.target])).toEqual([
      ['server CPU/call / bare route, first page', CPU_RATIO_TARGETS.cached],
      ['server CPU/call / bare route, first page (cache off)', CPU_RATIO_TARGETS.uncached],
      ['server CPU/call / bare route + one PostgreSQL query, first page (cache off)', CPU_RATIO_TARGETS.uncachedOverFloor],
    ]);
    expect(CPU_RATIO_TARGETS).toEqual({ cached: 3, uncached: 5, uncachedOverFloor: 2.5 });
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

  it('weighs an uncached view against the bare route with one PostgreSQL query too', () => {
    const floorGoal = cpuGoals(['list: first page'], ' (page cache off)')[2]!;
    const results = [result(BARE_CPU_SCENARIO, 28), result(BARE_PG_CPU_SCENARIO, 100), result('list: first page (page cache off)', 214)];
    const ratio = floorGoal.ratio((name) => results.find((entry) => entry.name === name));
    expect(ratio).toBeCloseTo(2.14, 9);
    expect(ratio! <= CPU_RATIO_TARGETS.uncachedOverFloor).toBe(true);
    const heavier = [result(BARE_PG_CPU_SCENARIO, 100), result('list: first page (page cache off)', 260)];
    expect(floorGoal.ratio((name) => heavier.find((entry) => entry.name === name))).toBeGreaterThan(CPU_RATIO_TARGETS.uncachedOverFloor);
    expect(floorGoal.ratio((name) => (name === BARE_PG_CPU_SCENARIO ? undefined : result(name, 200)))).toBeUndefined();
  });

  it('leaves a goal unmeasured when the view or the bare route has no CPU figure', () => {
    const [cached] = cpuGoals(['list: first page'], ' (page cache off)');
    expect(cached?.ratio((name) => (name === BARE_CPU_SCENARIO ? undefined : result(name, 80)))).toBeUndefined();
    expect(cached?.ratio((name) => result(name))).toBeUndefined();
    expect(cached?.ratio((name) => result(name, name === BARE_CPU_SCENARIO ? 0 : 80))).toBeUndefined();
  });
});
