// The browser's one way to call the services: credentials always sent, the current
// organization on product calls, every body parsed by its contract schema, failures raised
// as HttpError { status, body } (SPEC section 7). Queries are not retried (SPEC section 9).
import ky, { type KyInstance, type Options } from 'ky';
import type { z } from 'zod';
import { HttpError } from '../contract/http-error';
import { PARTICIPANT_HEADER } from '../domain/constants';

/** How product calls meet the session: its current organization goes out, their failures come back. */
export interface SessionLink {
  /** The organization to send on product calls. */
  readonly participantId: () => string | null;
  /** Told of every failed product call, so the session can react to 401 and 'Invalid participant'. */
  readonly productCallFailed: (error: HttpError) => void;
}

export interface HttpClientConfig {
  /** Origin (or '' for same origin) of each service; build-time configuration. */
  readonly baseUrl: string;
  /** Absent for the session's own calls: they name the organization explicitly and handle their own failures. */
  readonly session?: SessionLink;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  /** Send the current organization (product calls) and report failures to the session. */
  readonly product?: boolean;
  /** An explicit organization for this call, overriding the current one. */
  readonly participantId?: string | null;
  readonly searchParams?: Options['searchParams'];
  readonly json?: unknown;
  /** A multipart body (file uploads): sent as is, fetch sets its content type with the boundary. */
  readonly body?: FormData;
}

export interface HttpClient {
  request<T extends z.ZodType>(method: string, path: string, schema: T, options?: RequestOptions): Promise<z.infer<T>>;
  send(method: string, path: string, options?: RequestOptions): Promise<void>;
  /** A file body (CSV, PDF, zip) as a Blob, for downloads. */
  download(method: string, path: string, accept: string, options?: RequestOptions): Promise<Blob>;
  /** A call that redirects (the identity broker's): the URL the browser's redirects ended on. */
  follow(method: string, path: string, options?: RequestOptions): Promise<string>;
}

export function createHttpClient(config: HttpClientConfig, kyInstance: KyInstance = ky): HttpClient {
  // extend, not create: keep what the given instance brings (a test's fetch, hooks).
  const http = kyInstance.extend({ credentials: 'include', retry: 0, throwHttpErrors: false, timeout: 30_000 });

  async function call(method: string, path: string, options: RequestOptions, accept = 'application/json'): Promise<Response> {
    const headers: Record<string, string> = { accept };
    // An explicit organization wins; otherwise product calls act for the session's current one.
    const current = options.product ? (config.session?.participantId() ?? null) : null;
    const participantId = options.participantId !== undefined ? options.participantId : current;
    if (participantId) headers[PARTICIPANT_HEADER] = participantId;
    const response = await http(`${config.baseUrl}${path}`, {
      method,
      headers,
      signal: options.signal,
      searchParams: options.searchParams,
      json: options.json,
      body: options.body,
    });
    if (!response.ok) {
      const error = new HttpError(response.status, await response.text());
      if (options.product) config.session?.productCallFailed(error);
      throw error;
    }
    return response;
  }

  return {
    async request(method, path, schema, options = {}) {
      const response = await call(method, path, options);
      // 204 is an empty result.
      const body: unknown = response.status === 204 ? undefined : await response.json();
      return schema.parse(body);
    },
    async send(method, path, options = {}) {
      await call(method, path, options);
    },
    async download(method, path, accept, options = {}) {
      const response = await call(method, path, options, accept);
      return response.blob();
    },
    async follow(method, path, options = {}) {
      const response = await call(method, path, options, 'text/html');
      await response.body?.cancel();
      return response.url || `${config.baseUrl}${path}`;
    },
  };
}
