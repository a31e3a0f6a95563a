// The outside world as every screen sees it (ARCHITECTURE.md section 8): the API client bound
// to the session (current organization on product calls, 401 and 'Invalid participant' sent
// back to the session), navigation, the hosted login page and file downloads. The root is given
// an AppPlatform (the browser's, or a test's fakes) and binds it to the session actor. Each screen
// builds its actors from this object (its `*-actors.ts`); its machine reaches the app-wide actors
// itself with `system.get`, running as the root's child (screen-actor.ts).
import { createContext, useContext, type ReactNode } from 'react';
import type { RegistryApi } from '../../client/api';
import type { SessionLink } from '../../client/http';

export interface AppServices {
  /** Product calls send the current organization; their 401 and 'Invalid participant' reach the session. */
  readonly api: RegistryApi;
  /** Leaves the app for the identity broker's sign-in page; signing in returns to `returnTo` (an app path), else the dashboard. */
  startHostedLogin(returnTo?: string): void;
  /** Saves a file the user asked for (CSV exports and the like). */
  download(file: Blob, fileName: string): void;
  /** Goes to a screen of the app (an app path). */
  navigate(path: string): void;
}

/** What the root is given: the services before they are bound to a session, the router and the app's actors. */
export interface AppPlatform extends Omit<AppServices, 'api' | 'navigate'> {
  /** An API client whose product calls act for, and report failures to, the given session (none: the session's own calls). */
  createApi(session?: SessionLink): RegistryApi;
}

const AppServicesContext = createContext<AppServices | null>(null);

export function AppServicesProvider({ services, children }: { services: AppServices; children: ReactNode }) {
  return <AppServicesContext value={services}>{children}</AppServicesContext>;
}

/** The app's services, for any component under the root. */
export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext);
  if (!services) throw new Error('useAppServices() is used outside the app root');
  return services;
}
