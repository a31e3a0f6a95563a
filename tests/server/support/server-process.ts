// Real registry servers as child processes (what `npm run server` starts), and an HTTP client that
// talks to them as the web app does: the session cookie, the participant header, and the Origin a
// browser sends on state-changing requests. For the tests that kill, restart or multiply servers.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { PATHS } from '../../../src/contract/paths';
import { DEMO_PASSWORD, PARTICIPANT_HEADER } from '../../../src/domain/constants';
import { SESSION_COOKIE } from '../../../src/server/identity/sessions';

const root = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The base URL, e.g. http://127.0.0.1:40123 */
  readonly url: string;
  /** Resolves when the process has exited (by any cause). */
  readonly exited: Promise<void>;
  /** Everything the process printed so far (for failure messages). */
  output(): string;
}

/**
 * Starts `src/server/main.ts` in one Node process (`node --import tsx`, not the tsx CLI, which would
 * put a second process between us and the server), with `env` over the test's environment.
 * Resolves once it prints its URL; rejects when it exits first or takes longer than `timeoutMs`.
 */
export function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (data: Buffer) => {
      output += data.toString();
      if (output.length > 200_000) output = output.slice(-100_000);
      const match = /Loan registry running at (http:\/\/[^/\s]+)/.exec(output);
      if (match?.[1] && child.pid) {
        clearTimeout(timer);
        resolve({ child, pid: child.pid, url: match[1], exited, output: () => output });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it started:\n${output}`));
    });
  });
}

/** Sends `signal` to the server process alone (an embedded PostgreSQL it started lives on) and waits for its exit. */
export async function signalServer(server: ServerProcess, signal: NodeJS.Signals): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    try {
      process.kill(server.pid, signal);
    } catch {
      // Already gone.
    }
  }
  await server.exited;
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  json(): unknown;
}

export interface HttpCall {
  readonly method?: string;
  /** The session cookie pair (`registry_session=...`). */
  readonly cookie?: string;
  readonly participantId?: string;
  /** A JSON body, or raw bytes with `contentType`. */
  readonly json?: unknown;
  readonly body?: Buffer | string;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
  readonly timeoutMs?: number;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * One request on its own connection (no keep-alive: a killed server must not leave the client a
 * dead pooled socket). State-changing requests carry the server's own Origin, as a browser's do.
 * Rejects on a network error (refused, reset, or the server killed before it answered).
 */
export function httpCall(baseUrl: string, pathAndQuery: string, call: HttpCall = {}): Promise<HttpAnswer> {
  const method = call.method ?? 'GET';
  const payload = call.json !== undefined ? Buffer.from(JSON.stringify(call.json)) : call.body;
  const headers: Record<string, string> = {
    ...(STATE_CHANGING.has(method) ? { origin: baseUrl } : {}),
    ...(call.cookie ? { cookie: call.cookie } : {}),
    ...(call.participantId ? { [PARTICIPANT_HEADER]: call.participantId } : {}),
    ...(payload !== undefined
      ? { 'content-type': call.json !== undefined ? 'application/json' : (call.contentType ?? 'application/octet-stream') }
      : {}),
    ...(payload !== undefined ? { 'content-length': String(Buffer.byteLength(payload)) } : {}),
    ...call.headers,
  };
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${pathAndQuery}`, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body, json: () => JSON.parse(body) as unknown });
      });
    });
    request.setTimeout(call.timeoutMs ?? 30_000, () => request.destroy(new Error(`${method} ${pathAndQuery}: timed out`)));
    request.on('error', reject);
    request.end(payload);
  });
}

/** The session cookie pair a response sets, if any. */
export function sessionCookieOfAnswer(answer: HttpAnswer): string | undefined {
  const setCookie = answer.headers['set-cookie'] ?? [];
  // The production cookie may carry the __Host- prefix: match the name at the end.
  const pair = setCookie.map((header) => header.split(';')[0] ?? '').find((candidate) => candidate.split('=')[0]?.endsWith(SESSION_COOKIE));
  return pair && pair.split('=')[1] ? pair : undefined;
}

/** Posts the hosted sign-in form (what the browser does), from the server's own origin. */
export function postSignIn(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<HttpAnswer> {
  return httpCall(baseUrl, PATHS.signIn, {
    method: 'POST',
    body: new URLSearchParams({ email, password }).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });
}

/** Signs in as a demo account; returns the session cookie pair, or throws with the answer. */
export async function signInOverHttp(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<string> {
  const answer = await postSignIn(baseUrl, email, password);
  const cookie = sessionCookieOfAnswer(answer);
  if (answer.status !== 303 || !cookie) throw new Error(`sign-in of ${email} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  return cookie;
}

/** Polls `check` every 100 ms until it holds; throws after `timeoutMs`. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
