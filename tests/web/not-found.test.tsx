// @vitest-environment jsdom
// SPEC section 2: any other path shows 'Page Not Found'. Signed in, the message sits in the shell
// with its navigation; signed out, it is the public page, never a redirect to the login.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../../src/contract/http-error';
import { TEXTS } from '../../src/domain/texts';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';
import { renderApp } from './support/render-app';

const unknownPath = '/no-such-page';

describe('Page Not Found', () => {
  afterEach(cleanup);

  it('says it is loading until the session knows, then shows the message in the shell for a signed-in user', async () => {
    const app = renderApp({ path: unknownPath, organizations: [sampleOrganization(1, true)] });
    expect(screen.getByText(TEXTS.loading)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: TEXTS.pageNotFound })).toBeNull();
    await app.fake.settle('figureInfo', { value: sampleIdentity });
    await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
    expect(await screen.findByRole('heading', { level: 1, name: TEXTS.pageNotFound }, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getAllByRole('navigation', { name: 'Main' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toBeInTheDocument();
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(app.location().pathname).toBe(unknownPath);
  });

  it('shows the public page, without the shell, to a visitor who is not signed in', async () => {
    const app = renderApp({ path: unknownPath, organizations: [] });
    await app.fake.settle('figureInfo', {
      error: new HttpError(401, '{"statusCode":401,"error":"Unauthorized","message":"Authentication required"}'),
    });
    expect(await screen.findByRole('heading', { level: 1, name: TEXTS.pageNotFound })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(app.location().pathname).toBe(unknownPath);
  });
});
