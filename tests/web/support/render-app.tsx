// Renders the real app (routes, actors, screens) in jsdom over fake services.
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import type { UserParticipant } from '../../../src/contract/participants';
import { createRoutes } from '../../../src/web/app/routes';
import { createFakeRegistryApi } from './fake-registry-api';

export function renderApp(options: { path: string; organizations: readonly UserParticipant[] }) {
  const fake = createFakeRegistryApi(options.organizations);
  const startHostedLogin = vi.fn();
  const router = createMemoryRouter(createRoutes({ api: fake.api, startHostedLogin, download: vi.fn() }), { initialEntries: [options.path] });
  const view = render(<RouterProvider router={router} />);
  return { ...view, router, fake, startHostedLogin, location: () => router.state.location };
}

/** Renders the app at /dashboard and completes the sign-in with the given organizations. */
export async function renderSignedIn(organizations: readonly UserParticipant[]) {
  const { sampleIdentity, sampleUser } = await import('../../support/session-fixtures');
  const app = renderApp({ path: '/dashboard', organizations });
  await app.fake.settle('figureInfo', { value: sampleIdentity });
  await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
  await screen.findByRole('heading', { name: `Welcome, ${sampleUser.firstName}` });
  return app;
}
