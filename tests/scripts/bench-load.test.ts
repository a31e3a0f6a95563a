// The bench's closed-loop HTTP runner against a local server: answers counted, wrong statuses and
// overdue requests counted as errors (its one watchdog ends them), latencies recorded.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpScenario, runLoad, type LoadOptions } from '../../scripts/bench-load';

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    if (request.url === '/slow') return void setTimeout(() => response.end('late'), 1500);
    response.statusCode = request.url === '/missing' ? 404 : 200;
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const options: LoadOptions = { concurrency: 2, warmupMs: 0, durationMs: 300, maxRequests: 10_000, timeoutMs: 200 };
const get = (path: string, expectStatus = 200) => ({ method: 'GET' as const, url: base + path, headers: {}, expectStatus });

describe('runLoad (HTTP)', () => {
  it('counts answered requests and their latencies', async () => {
    const result = await runLoad(httpScenario('ok', get('/ok?x=1')), options);
    expect(result.errors).toBe(0);
    expect(result.count).toBeGreaterThan(10);
    expect(result.p50).toBeGreaterThan(0);
    expect(result.p95).toBeLessThan(options.timeoutMs);
  });

  it('counts an unexpected status as an error, saying which', async () => {
    const result = await runLoad(httpScenario('missing', get('/missing')), options);
    expect(result.errors).toBe(result.count);
    expect(result.errorSamples).toEqual(['status 404 (expected 200)']);
  });

  it('ends a request that outlives the timeout and counts it as an error', async () => {
    const result = await runLoad(httpScenario('slow', get('/slow')), { ...options, durationMs: 100, timeoutMs: 300 });
    expect(result.count).toBe(2);
    expect(result.errors).toBe(2);
    expect(result.errorSamples[0]).toContain('no answer within 300 ms');
  });
});
