// Slow requests are cut off (issue 8, defect 5): a body that never finishes gets a 408 in the
// app's error shape once the request deadline passes, and a connection that stays silent is
// closed. Short limits here; the defaults (config.ts) are 120 s and 30 s.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { createTestApp } from './support/server-fixtures';

let database: TestDatabase;
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await createTestApp(database.db, {
    config: {
      nodeEnv: 'test',
      cookieSecure: false,
      trustProxy: false,
      logLevel: 'silent',
      staticDir: '/nonexistent-registry-dist',
      requestTimeoutMs: 600,
      connectionTimeoutMs: 1500,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** Opens a socket, writes `head` (and nothing more), and resolves with what came back and when the socket closed. */
function sendAndWait(head: string): Promise<{ response: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    let response = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (response += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ response, closedAfterMs: performance.now() - started }));
  });
}

describe('slow requests', () => {
  it('closes the connection of a body that stops arriving, leaking nothing', async () => {
    // The sign-in form reads its body before anything else answers (a same-origin write: a
    // write without Origin is refused at once, csrf-origin.test.ts).
    const head =
      `POST ${PATHS.signIn} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n` +
      'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nemail=slow';
    const { response, closedAfterMs } = await sendAndWait(head);
    expect(response).not.toMatch(/ERR_|FST_|HPE_/);
    expect(response).not.toMatch(/^HTTP\/1\.1 (2|3|5)/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(500);
    expect(closedAfterMs).toBeLessThan(5000);
  });

  it('answers 408 and closes a connection whose request never arrives', async () => {
    const { response, closedAfterMs } = await sendAndWait('');
    expect(response).toMatch(/^HTTP\/1\.1 408/);
    expect(response).not.toMatch(/ERR_|FST_|HPE_/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(500);
    expect(closedAfterMs).toBeLessThan(5000);
  });

  it('still serves a request that arrives in time', async () => {
    const { response } = await sendAndWait(`GET ${PATHS.health} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(response).toMatch(/^HTTP\/1\.1 200/);
  });
});
