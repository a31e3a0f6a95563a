// Slow requests are cut off: a body that never finishes gets a 408 in the
// app's error shape once the request deadline passes, and a connection that stays silent is
// closed; a JSON or form body has a deadline of its own, shorter than an upload's. Short limits
// here; the defaults (config.ts) are 120 s, 10 s for a body and 30 s.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { PARTICIPANT_HEADER } from '../../src/domain/constants';
import { type Caller, useRouteTest } from './support/route-test';
import { insertParticipant, insertUser, TEST_CONFIG } from './support/server-fixtures';

const server = useRouteTest({
  app: { config: { ...TEST_CONFIG, requestTimeoutMs: 600, connectionTimeoutMs: 1500 } },
  listen: true,
});

/** Opens a socket, writes `head` (and nothing more), and resolves with what came back and when the socket closed. */
function sendAndWait(head: string): Promise<{ response: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write(head));
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

describe('a body that trickles in', () => {
  const BODY_TIMEOUT_MS = 800;
  const REQUEST_TIMEOUT_MS = 4000;
  const slow = useRouteTest({
    app: {
      config: {
        ...TEST_CONFIG,
        bodyTimeoutMs: BODY_TIMEOUT_MS,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        // Longer than the pause between two bytes: only the body's deadline can cut the body off.
        connectionTimeoutMs: 3000,
      },
    },
    listen: true,
  });
  let member: Caller;

  beforeAll(async () => {
    const participant = await insertParticipant(slow.db, { name: 'Trickle' });
    await insertUser(slow.db, { email: 'trickle@example.test', memberships: [{ participantId: participant.id, isDefault: true }] });
    member = await slow.signIn('trickle@example.test', { participantId: participant.id });
  });

  /**
   * Writes the head at once, then the body one byte every `everyMs`; resolves when the server
   * closes the connection (or once the whole body is sent and answered), with what came back and when.
   */
  function trickle(head: string, body: string, everyMs: number): Promise<{ response: string; closedAfterMs: number }> {
    return new Promise((resolve) => {
      const started = performance.now();
      const socket = net.connect(slow.port, '127.0.0.1', () => socket.write(head));
      let sent = 0;
      const timer = setInterval(() => {
        if (sent < body.length && socket.writable) socket.write(body.charAt(sent++));
      }, everyMs);
      let response = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (response += chunk));
      // Bytes written after the server closed its side fail here; what matters is the answer.
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ response, closedAfterMs: performance.now() - started });
      });
    });
  }

  const head = (method: string, url: string, contentType: string, length: number, extra = '') =>
    `${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\nContent-Type: ${contentType}\r\n` +
    `Content-Length: ${length}\r\nConnection: close\r\n${extra}\r\n`;

  it('cuts off a JSON body that has not arrived by its deadline with a 408, long before the request deadline', async () => {
    const body = JSON.stringify({ returnTo: '/registry/dashboard'.repeat(4) });
    const { response, closedAfterMs } = await trickle(head('POST', PATHS.login, 'application/json', body.length), body, 200);
    expect(response).toMatch(/^HTTP\/1\.1 408/);
    expect(response).toContain('The request body took too long to arrive');
    expect(closedAfterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS * 0.9);
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
  });

  it('cuts off a form body the same way', async () => {
    const body = new URLSearchParams({ email: 'trickle@example.test', password: 'x'.repeat(40) }).toString();
    const contentType = 'application/x-www-form-urlencoded';
    const { response, closedAfterMs } = await trickle(head('POST', PATHS.signIn, contentType, body.length), body, 200);
    expect(response).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS * 0.9);
    expect(closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS / 2);
  });

  it('still takes a slow body that arrives within its deadline', async () => {
    const body = JSON.stringify({ a: 1 });
    const { response } = await trickle(head('POST', PATHS.login, 'application/json', body.length), body, 50);
    expect(response).toMatch(/^HTTP\/1\.1 303/);
  });

  it('gives an upload the request deadline instead', async () => {
    const boundary = 'trickle-boundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="reason"\r\n\r\n${'slow '.repeat(20)}\r\n--${boundary}--\r\n`;
    const extra = `Cookie: ${member.cookie}\r\n${PARTICIPANT_HEADER}: ${member.participantId}\r\n`;
    const url = PATHS.loanDeactivate(randomUUID());
    const { response, closedAfterMs } = await trickle(
      head('POST', url, `multipart/form-data; boundary=${boundary}`, body.length, extra),
      body,
      200,
    );
    expect(response).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS * 0.9);
  }, 15_000);
});
