// The services as one decoration, `app.services.<name>.<function>(...)`: multi-step writes
// (src/server/services/<area>.ts), each one transaction over the repositories, bound to `app.db`
// as the repositories are (plugins/repositories.ts). A new service module is one line here.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import * as deactivations from '../services/deactivations';
import * as organizationUsers from '../services/organization-users';
import * as organizations from '../services/organizations';
import * as profiles from '../services/profiles';
import * as reconciliations from '../services/reconciliations';
import * as roleTransfers from '../services/role-transfers';
import * as banners from '../services/banners';
import * as securityFactors from '../services/security-factors';
import { bindRepository, type BoundRepository } from './repositories';

const SERVICE_MODULES = {
  deactivations,
  roleTransfers,
  organizationUsers,
  organizations,
  profiles,
  banners,
  reconciliations,
  securityFactors,
};

export type Services = { readonly [Name in keyof typeof SERVICE_MODULES]: BoundRepository<(typeof SERVICE_MODULES)[Name]> };

declare module 'fastify' {
  interface FastifyInstance {
    readonly services: Services;
  }
}

async function servicesPlugin(app: FastifyInstance): Promise<void> {
  const entries = Object.entries(SERVICE_MODULES).map(([name, module]) => [name, bindRepository(app.db, module)]);
  app.decorate('services', Object.freeze(Object.fromEntries(entries)) as Services);
}

export default fp(servicesPlugin, { name: 'services', fastify: '5.x', dependencies: ['database', 'repositories'] });
