// Renders the real app (routes, actors, screens) in jsdom over fake services.
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import type { UserParticipant } from '../../../src/contract/participants';
import { createRoutes } from '../../../src/web/app/routes';
import { createFakeRegistryApi } from './fake-registry-api';

export function renderApp(options: { path: string; organizations: readonly UserParticipant[] }) {
  const fake = createFakeRegistryApi(options.organizations);
  const startHostedLogin = vi.fn();
  const router = createMemoryRouter(createRoutes({ api: fake.api, startHostedLogin }), { initialEntries: [options.path] });
  const view = render(<RouterProvider router={router} />);
  return { ...view, router, fake, startHostedLogin, location: () => router.state.location };
}
