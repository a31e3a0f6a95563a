// Renders the real app (routes, providers, screens) in jsdom over a fake platform.
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import type { SessionLink } from '../../../src/client/http';
import type { HttpError } from '../../../src/contract/http-error';
import type { UserParticipant } from '../../../src/contract/participants';
import { APP_PATHS } from '../../../src/domain/app-paths';
import { createRoutes } from '../../../src/web/app/routes';
import type { AppPlatform } from '../../../src/web/app/services';
import { createFakeRegistryApi } from './fake-registry-api';

export function renderApp(options: { path: string; organizations: readonly UserParticipant[] }) {
  const fake = createFakeRegistryApi(options.organizations);
  const startHostedLogin = vi.fn();
  const download = vi.fn();
  // The session links the app binds its API to; the last one is the current root's.
  const links: SessionLink[] = [];
  const platform: AppPlatform = {
    createApi: (session) => {
      if (session) links.push(session);
      return fake.api;
    },
    startHostedLogin,
    download,
  };
  const router = createMemoryRouter(createRoutes(platform), { initialEntries: [options.path] });
  const view = render(<RouterProvider router={router} />);
  /** A product call made through `useAppServices().api` failed with this error, as the real client reports it. */
  const productCallFailed = (error: HttpError) => {
    const link = links.at(-1);
    if (!link) throw new Error('the app has not bound its API to a session');
    link.productCallFailed(error);
  };
  return { ...view, router, fake, startHostedLogin, download, productCallFailed, location: () => router.state.location };
}

/** Renders the app at /dashboard and completes the sign-in with the given organizations. */
export async function renderSignedIn(organizations: readonly UserParticipant[]) {
  const { sampleIdentity, sampleUser } = await import('../../support/session-fixtures');
  const app = renderApp({ path: APP_PATHS.dashboard, organizations });
  await app.fake.settle('figureInfo', { value: sampleIdentity });
  await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
  await screen.findByRole('heading', { name: `Welcome, ${sampleUser.firstName}` });
  return app;
}
