// The banners: the banner file of SPEC section 7 (public, never cached; the test file off
// production only), from the banners registry staff keep in PostgreSQL, or read from BANNERS_URL
// (a folder in cloud storage holding banners.json and banners.test.json) when it is set; and
// registry staff's list, create and edit (ours), each write one transaction with its audit row.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bannerFileSchema,
  bannerInputSchema,
  bannerListSchema,
  bannerParamsSchema,
  bannerSchema,
  servedBannerFileSchema,
} from '../../contract/banners';
import { errorBodySchema } from '../../contract/common';
import { BANNER_FILE_PATHS, PATHS } from '../../contract/paths';
import type { AuditActor } from '../db/audit-repository';
import { ApiError } from '../http-errors';
import { toBanner } from '../services/banners';

export interface BannerRouteOptions {
  readonly production: boolean;
  /** BANNERS_URL: the folder of the remote banner files; unset, the files come from PostgreSQL. */
  readonly bannersUrl?: string;
  /** How long the remote file may take (ms). */
  readonly remoteTimeoutMs?: number;
}

export const BANNER_REMOTE_TIMEOUT_MS = 3000;
export const REMOTE_BANNER_FILE_FAILED = 'The banner file could not be read from BANNERS_URL.';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const STAFF = 'Registry staff only (ROLE_DART_ADMIN or ROLE_DART_OPS); anyone else 403 with the permission refusal.';

/** SPEC section 7: every read of the file reaches the origin, so an edit shows at the next page load. */
function noCache(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store, no-cache, must-revalidate, max-age=0');
  reply.header('pragma', 'no-cache');
  reply.header('expires', '0');
}

const actorOf = (request: FastifyRequest): AuditActor => ({
  userId: request.registryUser?.id ?? null,
  email: request.identity?.email ?? request.registryUser?.email ?? null,
  clientAddress: request.ip,
});

/** The remote file, passed on as it is: the app checks each banner itself (SPEC section 8). */
async function readRemoteFile(url: URL, timeoutMs: number): Promise<unknown[]> {
  let body: unknown;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), cache: 'no-store', redirect: 'error' });
    if (!response.ok) throw new Error(`status ${response.status}`);
    body = await response.json();
  } catch {
    throw new ApiError(502, REMOTE_BANNER_FILE_FAILED);
  }
  if (!Array.isArray(body)) throw new ApiError(502, REMOTE_BANNER_FILE_FAILED);
  return body;
}

export async function bannerRoutes(app: FastifyInstance, options: BannerRouteOptions): Promise<void> {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const remoteTimeoutMs = options.remoteTimeoutMs ?? BANNER_REMOTE_TIMEOUT_MS;
  const files = options.production ? [BANNER_FILE_PATHS.production] : [BANNER_FILE_PATHS.production, BANNER_FILE_PATHS.test];

  for (const path of files) {
    const fileName = path.slice(path.lastIndexOf('/') + 1);
    const remote = options.bannersUrl
      ? new URL(fileName, options.bannersUrl.endsWith('/') ? options.bannersUrl : `${options.bannersUrl}/`)
      : null;
    routes.get(
      path,
      {
        config: { access: 'public' },
        schema: {
          tags: ['banners'],
          summary: path === BANNER_FILE_PATHS.test ? 'The banner test file (off production only)' : 'The banner file',
          description:
            'Every banner, newest first, never cached (Cache-Control: no-store). The app shows the active ones that name it and ' +
            'leaves out any without uuid, message, non-empty apps or variant. With BANNERS_URL set, the file of that name in that ' +
            `folder, passed on unchanged (502 when it cannot be read within ${BANNER_REMOTE_TIMEOUT_MS} ms or is not a JSON list).`,
          response: { 200: z.union([servedBannerFileSchema, bannerFileSchema]), 502: errorBodySchema },
        },
      },
      async (_request, reply) => {
        noCache(reply);
        if (remote) return readRemoteFile(remote, remoteTimeoutMs);
        return (await app.repositories.banners.listBanners()).map(toBanner);
      },
    );
  }

  routes.get(
    PATHS.banners,
    {
      config: { access: 'registry-staff' },
      schema: {
        tags: ['banners'],
        summary: 'Every banner kept in PostgreSQL, newest first (the authoring screen)',
        description: STAFF,
        response: { 200: bannerListSchema, ...errors },
      },
    },
    async (_request, reply) => {
      noCache(reply);
      return { banners: (await app.repositories.banners.listBanners()).map(toBanner) };
    },
  );

  routes.post(
    PATHS.banners,
    {
      config: { access: 'registry-staff' },
      schema: {
        tags: ['banners'],
        summary: 'Writes a new banner; the server sets its uuid, createdAt and updatedAt',
        description: `${STAFF} Appends an audit row (banner.created).`,
        body: bannerInputSchema,
        response: { 201: bannerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const row = await app.services.banners.createBanner(actorOf(request), request.body);
      return reply.code(201).send(toBanner(row));
    },
  );

  routes.put(
    PATHS.bannerPattern,
    {
      config: { access: 'registry-staff' },
      schema: {
        tags: ['banners'],
        summary: 'Edits a banner; updatedAt moves on, so a browser that dismissed it shows it again',
        description: `${STAFF} 404 for an unknown banner. Appends an audit row (banner.updated).`,
        params: bannerParamsSchema,
        body: bannerInputSchema,
        response: { 200: bannerSchema, ...errors },
      },
    },
    async (request) =>
      toBanner(await app.services.banners.updateBanner(actorOf(request), request.params.bannerId.toLowerCase(), request.body)),
  );
}
