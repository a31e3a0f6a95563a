// The OpenAPI document passes the linter API teams use (Redocly CLI, recommended rules) and
// generates a typed client (openapi-typescript) whose calls type-check (decision 0008).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '../../src/contract/paths';
import { API_DOCS_PATH } from '../../src/server/plugins/openapi';
import { useRouteTest } from './support/route-test';

const run = promisify(execFile);
const bin = (name: string) => path.resolve('node_modules/.bin', name);

const server = useRouteTest();
let workDir: string;
/** The served document, as JSON (openapi-typescript's OpenAPI3 type for the generator). */
let document: OpenAPI3 & { paths: Record<string, Partial<Record<'get' | 'post' | 'patch', Record<string, unknown>>>> };

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'registry-openapi-'));
  const response = await server.anonymous.get(`${API_DOCS_PATH}/json`);
  expect(response.statusCode).toBe(200);
  document = response.json();
});

afterAll(async () => {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

interface RedoclyReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly {
    readonly ruleId: string;
    readonly message: string;
    readonly location: readonly { readonly pointer: string }[];
  }[];
}

async function redoclyLint(file: string): Promise<RedoclyReport> {
  // Run where no redocly.yaml is found, so the recommended rules apply as they ship; no telemetry.
  const options = {
    cwd: workDir,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    maxBuffer: 16 * 1024 * 1024,
  };
  const args = ['lint', file, '--extends=recommended', '--format=json'];
  // The CLI exits 1 on errors; its report is on stdout either way.
  const { stdout } = await run(bin('redocly'), args, options).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return JSON.parse(stdout) as RedoclyReport;
}

describe('the OpenAPI document', () => {
  it("has no problem under Redocly's recommended rules", async () => {
    const file = path.join(workDir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const report = await redoclyLint(file);
    const problems = report.problems.map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('is linted for real: a document without security, servers or operationIds fails', async () => {
    const stripped = structuredClone(document) as unknown as Record<string, unknown> & { paths: Record<string, Record<string, object>> };
    delete stripped.servers;
    for (const operations of Object.values(stripped.paths)) {
      for (const operation of Object.values(operations)) {
        delete (operation as { operationId?: string }).operationId;
        delete (operation as { security?: unknown }).security;
      }
    }
    const file = path.join(workDir, 'stripped.json');
    fs.writeFileSync(file, JSON.stringify(stripped));
    const rules = (await redoclyLint(file)).problems.map((problem) => problem.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['no-empty-servers', 'operation-operationId', 'security-defined']));
  }, 60_000);

  it('names every call after its path in the path registry, and states its security', () => {
    const operation = (routePath: string, method: 'get' | 'post' | 'patch') => document.paths?.[routePath]?.[method];
    expect(operation(PATHS.usersMe, 'get')).toMatchObject({
      operationId: 'getUsersMe',
      security: [{ session: [], participant: [] }, { session: [] }],
    });
    expect(operation(PATHS.signIn, 'post')).toMatchObject({ operationId: 'postSignIn', security: [] });
    expect(operation(PATHS.logout, 'post')).toMatchObject({ operationId: 'postLogout', security: [{ session: [] }, {}] });
    expect(operation(PATHS.health, 'get')).toMatchObject({ operationId: 'getHealth', security: [] });
    expect(Object.keys(operation(PATHS.usersMe, 'get')?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '401', '403']));
    expect(document.components?.securitySchemes).toMatchObject({
      session: { type: 'apiKey', in: 'cookie' },
      participant: { type: 'apiKey', in: 'header', name: 'x-participant-id' },
    });
  });

  it('generates a typed client whose calls type-check, and whose wrong calls do not', async () => {
    fs.writeFileSync(path.join(workDir, 'registry-api.d.ts'), astToString(await openapiTS(document)));
    // A minimal fetch over the generated `paths`; each @ts-expect-error fails tsc if the types let it through.
    fs.writeFileSync(
      path.join(workDir, 'calls.ts'),
      `import type { paths } from './registry-api';
type Method = 'get' | 'post' | 'patch';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Success<O> = O extends { responses: infer R } ? Json<R[keyof R & (200 | 201 | 202)]> : never;
type Input<O> = (O extends { parameters: { query?: infer Q } } ? ([Q] extends [undefined] ? {} : { query?: Q }) : {}) &
  (O extends { parameters: { path: infer P } } ? ([P] extends [undefined] ? {} : { path: P }) : {}) &
  (O extends { requestBody: { content: { 'application/json': infer B } } } ? { body: B } : {});
declare function call<P extends keyof paths, M extends Method>(method: M, path: P, input: Input<Operation<P, M>>): Promise<Success<Operation<P, M>>>;

export async function calls(): Promise<string[]> {
  const me = await call('get', '${PATHS.usersMe}', {});
  const fullName: string = me.user.fullName;
  // @ts-expect-error users/me has no 'name' on its user
  me.user.name;

  const page = await call('get', '${PATHS.loans}', { query: { sortBy: 'uli', sortDirection: 'desc' } });
  const ulis: string[] = page.loans.map((loan) => loan.uli);
  // @ts-expect-error not a sort column
  await call('get', '${PATHS.loans}', { query: { sortBy: 'borrower' } });

  const job = await call('post', '${PATHS.jobs}', { body: { type: 'BATCH_DOWNLOAD_AOMS', loanIds: ['0c6a3c2e-3f49-4a59-9a8a-5d7b0f0e2b11'] } });
  const jobId: string = job.jobId;
  // @ts-expect-error not a job type
  await call('post', '${PATHS.jobs}', { body: { type: 'EXPORT_EVERYTHING', loanIds: [] } });

  const message = await call('patch', '${PATHS.messages}', { body: { uuid: '0c6a3c2e-3f49-4a59-9a8a-5d7b0f0e2b11', read: true } });
  // @ts-expect-error the body names its message
  await call('patch', '${PATHS.messages}', { body: { read: true } });
  return [fullName, ...ulis, jobId, message.uuid];
}
`,
    );
    const compilerOptions = { noEmit: true, strict: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler', types: [] };
    fs.writeFileSync(path.join(workDir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['calls.ts'] }));
    const tsc = path.resolve('node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '--project', workDir], { cwd: workDir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(result).toBe('');
  }, 60_000);
});
