// The repositories as one decoration, `app.repositories.<name>.<function>(...)`: each repository
// module's functions take the database first; here they are bound to `app.db` once, so routes and
// hooks neither import the database nor thread it through options. Scripts and tests keep calling
// the module functions with a database of their own.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/database';
import * as addresses from '../db/address-repository';
import * as audit from '../db/audit-repository';
import * as deactivation from '../db/deactivation-repository';
import * as documents from '../db/document-repository';
import * as identities from '../db/identity-repository';
import * as jobs from '../db/job-repository';
import * as loanDetails from '../db/loan-details-repository';
import * as loanList from '../db/loan-list-repository';
import * as messages from '../db/message-repository';
import * as organizationUsers from '../db/organization-user-repository';
import * as outbox from '../db/outbox-repository';
import * as organizations from '../db/organization-repository';
import * as pools from '../db/pool-repository';
import * as profiles from '../db/profile-repository';
import * as reconciliations from '../db/reconciliation-repository';
import * as roleRequests from '../db/role-request-repository';
import * as securityEvents from '../db/security-event-repository';
import * as securityFactors from '../db/security-factor-repository';
import * as servicerLookup from '../db/servicer-lookup-repository';
import * as signInThrottle from '../db/sign-in-throttle-repository';
import * as users from '../db/user-repository';
import * as banners from '../db/banner-repository';

/** Every repository module by its decoration name. A new repository is one line here (and its import). */
const REPOSITORY_MODULES = {
  identities,
  users,
  loanDetails,
  loanList,
  pools,
  documents,
  deactivation,
  jobs,
  messages,
  roleRequests,
  securityEvents,
  signInThrottle,
  audit,
  organizationUsers,
  outbox,
  organizations,
  servicerLookup,
  addresses,
  profiles,
  banners,
  reconciliations,
  securityFactors,
};

type DbFunction = (db: Database, ...args: never[]) => unknown;

/** A repository module's functions with the database already given (its other exports left out). */
export type BoundRepository<Module> = {
  readonly [Name in keyof Module as Module[Name] extends DbFunction ? Name : never]: Module[Name] extends (
    db: Database,
    ...args: infer Args
  ) => infer Result
    ? (...args: Args) => Result
    : never;
};

export type Repositories = { readonly [Name in keyof typeof REPOSITORY_MODULES]: BoundRepository<(typeof REPOSITORY_MODULES)[Name]> };

declare module 'fastify' {
  interface FastifyInstance {
    readonly repositories: Repositories;
  }
}

export function bindRepository<Module extends object>(db: Database, module: Module): BoundRepository<Module> {
  const bound: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(module)) {
    if (typeof value === 'function')
      bound[name] = (...args: unknown[]) => (value as (db: Database, ...rest: unknown[]) => unknown)(db, ...args);
  }
  return Object.freeze(bound) as BoundRepository<Module>;
}

export function bindRepositories(db: Database): Repositories {
  const entries = Object.entries(REPOSITORY_MODULES).map(([name, module]) => [name, bindRepository(db, module)]);
  return Object.freeze(Object.fromEntries(entries)) as Repositories;
}

async function repositoriesPlugin(app: FastifyInstance): Promise<void> {
  app.decorate('repositories', bindRepositories(app.db));
}

export default fp(repositoriesPlugin, { name: 'repositories', fastify: '5.x', dependencies: ['database'] });
