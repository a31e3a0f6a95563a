// The root of the app: the root actor (machines/app-root.ts) with the app-wide actors of the one
// actor system, and the services bound to its session. Side effects enter the machines only
// through `provide` (ARCHITECTURE.md section 4); nothing here is module state, so each render of
// the root has its own.
import { useActorRef } from '@xstate/react';
import { useMemo, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AppRootRef } from '../../../machines/app-root';
import { AppSystemProvider } from './actor-contexts';
import { appRootInput, createAppServices, provideAppRoot } from './app-actors';
import { ScreenHostProvider } from './screen-actor';
import { AppServicesProvider, type AppPlatform } from './services';

export function AppProviders({ platform, children }: { platform: AppPlatform; children: ReactNode }) {
  const navigate = useNavigate();
  // Built once: the platform and the router's navigate are stable for the app's life.
  const app = useMemo(() => {
    const bound: { root: AppRootRef | null } = { root: null };
    const services = createAppServices(
      platform,
      (path) => void navigate(path),
      () => {
        if (!bound.root) throw new Error('the app root is not created yet');
        return bound.root;
      },
    );
    return { bound, services, logic: provideAppRoot(platform, services), input: appRootInput() };
  }, [platform, navigate]);
  const root = useActorRef(app.logic, { input: app.input });
  // The services reach the app-wide actors through this root (the same one for the app's life).
  app.bound.root = root;
  return (
    <AppSystemProvider system={root.system}>
      <ScreenHostProvider root={root}>
        <AppServicesProvider services={app.services}>{children}</AppServicesProvider>
      </ScreenHostProvider>
    </AppSystemProvider>
  );
}
