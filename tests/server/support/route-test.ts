// The one entry of a route test: a fresh database and the app over it, signed-in callers that
// inject with their session, their organization's x-participant-id and a same-origin Origin on
// every method, and the anonymous caller. Route tests use `useRouteTest()` at the top of the file.
//
//   const server = useRouteTest();
//   beforeAll(async () => { member = await server.signIn('member@example.test', { participantId }); });
//   const response = await member.patch(PATHS.messages, { uuid, read: true });
//
// A request sent wrong on purpose (no Origin, an odd content type, a repeated header, another
// remote address) goes through the caller's `inject`, `null` dropping a header the caller adds.
// Probe routes are added in `beforeReady`; an app of another configuration (or a second server on
// the same database) is `otherApp()`; an app the test did not build (startServer, a bare Fastify
// with one plugin) is reached through `callersOf(app)` or `callerOf(app, cookie, participantId)`.
//
// The rows a test needs come from server-fixtures.ts (insertParticipant, insertUser), loan-rows.ts
// and loan-list-world.ts; `demo: true` seeds the demo data, whose accounts sign in with DEMO_PASSWORD.
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { DEMO_PASSWORD, PARTICIPANT_HEADER } from '../../../src/domain/constants';
import type { BuildAppOptions } from '../../../src/server/app';
import type { Database } from '../../../src/server/db/database';
import { DEMO_ACCOUNTS, seedDemoData } from '../../../src/server/seed';
import { createTestDatabase, type TestDatabase } from '../../support/test-database';
import { createTestApp, PASSWORD, sameOrigin, signIn } from './server-fixtures';

export interface RouteTestOptions {
  /** Options of the app (config, limits), over createTestApp's test defaults. */
  readonly app?: Partial<BuildAppOptions>;
  /** Seed the demo data first (its organizations and accounts, and this many loans). */
  readonly demo?: { readonly loans: number };
  /** Also listen on a free port of 127.0.0.1 (tests that speak over real sockets). */
  readonly listen?: boolean;
  /** Runs before the app is ready, e.g. to add routes a test needs (a route that throws). */
  readonly beforeReady?: (app: FastifyInstance) => void | Promise<void>;
}

/** What a request adds or overrides: headers (a `null` value drops one the caller sends), query, payload. */
export interface CallOptions {
  readonly headers?: Readonly<Record<string, string | readonly string[] | null>>;
  readonly query?: InjectOptions['query'];
}

type Method = 'GET' | 'HEAD' | 'DELETE' | 'POST' | 'PUT' | 'PATCH';

/** A request as app.inject takes it, whose headers may drop one the caller sends (`null`). */
export type RawRequest = Omit<InjectOptions, 'headers'> & {
  readonly method: Method;
  readonly url: string;
  readonly headers?: CallOptions['headers'];
};

/** Someone calling the API: a session (or none) and the organization its product calls act for. */
export interface Caller {
  /** The `name=value` session cookie pair; undefined for the anonymous caller. */
  readonly cookie: string | undefined;
  /** Sent as x-participant-id; undefined: not sent (the caller's default organization). */
  readonly participantId: string | undefined;
  get(url: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  head(url: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  delete(url: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  /** An object payload goes as JSON; a string or Buffer as it is (set its content-type in `headers`). */
  post(url: string, payload?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>;
  put(url: string, payload?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>;
  patch(url: string, payload?: unknown, options?: CallOptions): Promise<LightMyRequestResponse>;
  /**
   * The raw request, for a test that sends one on purpose (a malformed body, an unusual content
   * type, a method chosen at run time, a header dropped with `null`): this caller's session,
   * organization and Origin still go under the given headers.
   */
  inject(options: RawRequest): Promise<LightMyRequestResponse>;
  /** The same session acting for another organization (undefined: no header). */
  as(participantId: string | undefined): Caller;
}

export interface OtherAppOptions extends Pick<RouteTestOptions, 'app' | 'beforeReady'> {
  /** The database handle it uses (default: the test's). */
  readonly db?: Database;
}

/** A caller who signed in: its session cookie is there. */
export type SignedInCaller = Caller & { readonly cookie: string };

/** One app and its callers. */
export interface AppCallers {
  readonly app: FastifyInstance;
  /** No session, no organization header. */
  readonly anonymous: Caller;
  /** Signs in through the hosted form (a demo account with DEMO_PASSWORD, others with server-fixtures' PASSWORD). */
  signIn(email: string, options?: { readonly participantId?: string; readonly password?: string }): Promise<SignedInCaller>;
  /** A caller with a session cookie obtained otherwise (a session of another app over the same database works too). */
  caller(cookie: string | undefined, participantId?: string): Caller;
}

export interface RouteTest extends AppCallers {
  readonly database: TestDatabase;
  /** The application role's database (what the server uses). */
  readonly db: Database;
  /** The server's port on 127.0.0.1 (with `listen: true`). */
  readonly port: number;
  /**
   * Another app over the same database, closed with the test: another configuration (no cache, a
   * secure cookie) or a second server process sharing the sessions; `db` gives it a connection
   * pool of its own. `close` ends it early (before that pool, say).
   */
  otherApp(options?: OtherAppOptions): Promise<AppCallers & { close(): Promise<void> }>;
}

const DEMO_EMAILS = new Set(DEMO_ACCOUNTS.map((account) => account.email));

export function callerOf(app: FastifyInstance, cookie: string | undefined, participantId: string | undefined): Caller {
  const inject: Caller['inject'] = (options) => {
    const headers: Record<string, string | string[]> = {
      ...sameOrigin,
      ...(cookie ? { cookie } : {}),
      ...(participantId ? { [PARTICIPANT_HEADER]: participantId } : {}),
    };
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value === null) delete headers[name];
      else headers[name] = typeof value === 'string' ? value : [...value];
    }
    return app.inject({ ...options, headers });
  };
  const read =
    (method: Method) =>
    (url: string, options: CallOptions = {}) =>
      inject({ method, url, query: options.query, headers: options.headers });
  const write =
    (method: Method) =>
    (url: string, payload?: unknown, options: CallOptions = {}) =>
      inject({
        method,
        url,
        query: options.query,
        headers: options.headers,
        ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
      });
  return {
    cookie,
    participantId,
    get: read('GET'),
    head: read('HEAD'),
    delete: read('DELETE'),
    post: write('POST'),
    put: write('PUT'),
    patch: write('PATCH'),
    inject,
    as: (other) => callerOf(app, cookie, other),
  };
}

/** The callers of an app a test support file was given (a world that signs its members in). */
export function callersOf(server: FastifyInstance, demo = false): AppCallers {
  return {
    app: server,
    anonymous: callerOf(server, undefined, undefined),
    caller: (cookie, participantId) => callerOf(server, cookie, participantId),
    signIn: async (email, signInOptions = {}) => {
      const password = signInOptions.password ?? (DEMO_EMAILS.has(email) && demo ? DEMO_PASSWORD : PASSWORD);
      const { response, cookie } = await signIn(server, email, { password });
      if (response.statusCode !== 303 || !cookie) throw new Error(`${email} could not sign in: ${response.statusCode}`);
      return { ...callerOf(server, cookie, signInOptions.participantId), cookie };
    },
  };
}

async function readyApp(db: Database, options: Pick<RouteTestOptions, 'app' | 'beforeReady'>): Promise<FastifyInstance> {
  const app = await createTestApp(db, options.app);
  try {
    await options.beforeReady?.(app);
    await app.ready();
    return app;
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** Starts a route test's database and app now; `close` ends both (useRouteTest does it for a test file). */
export async function startRouteTest(options: RouteTestOptions = {}): Promise<RouteTest & { close(): Promise<void> }> {
  const database = await createTestDatabase();
  const others = new Set<FastifyInstance>();
  let app: FastifyInstance | undefined;
  try {
    if (options.demo) await seedDemoData(database.owner.db, { loans: options.demo.loans });
    app = await readyApp(database.db, options);
    const port = options.listen ? (await app.listen({ port: 0, host: '127.0.0.1' }), (app.server.address() as { port: number }).port) : 0;
    const server = app;
    return {
      ...callersOf(server, Boolean(options.demo)),
      database,
      db: database.db,
      port,
      otherApp: async (otherOptions = {}) => {
        const other = await readyApp(otherOptions.db ?? database.db, otherOptions);
        others.add(other);
        return {
          ...callersOf(other, Boolean(options.demo)),
          close: async () => {
            others.delete(other);
            await other.close();
          },
        };
      },
      close: async () => {
        await Promise.all([...others].map((other) => other.close()));
        await server.close();
        await database.close();
      },
    };
  } catch (error) {
    await app?.close();
    await database.close();
    throw error;
  }
}

/**
 * The route test of this file (or of the describe it is called in): started in beforeAll, closed
 * in afterAll. Read its members inside hooks and tests (they exist once beforeAll has run).
 */
export function useRouteTest(options: RouteTestOptions | (() => RouteTestOptions) = {}): RouteTest {
  let started: (RouteTest & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    // A function is read in beforeAll: options that need something made first (a folder).
    started = await startRouteTest(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    await started?.close();
  });
  const current = (): RouteTest => {
    if (!started) throw new Error('useRouteTest: read the server inside a hook or a test, after beforeAll');
    return started;
  };
  return {
    get app() {
      return current().app;
    },
    get database() {
      return current().database;
    },
    get db() {
      return current().db;
    },
    get port() {
      return current().port;
    },
    get anonymous() {
      return current().anonymous;
    },
    signIn: (email, signInOptions) => current().signIn(email, signInOptions),
    caller: (cookie, participantId) => current().caller(cookie, participantId),
    otherApp: (otherOptions) => current().otherApp(otherOptions),
  };
}
