// @vitest-environment jsdom
// SPEC sections 2 and 6: /administration is a menu with Profile, plus Organizations for holders
// of ROLE_DART_ADMIN or ROLE_DART_OPS in the service-dart group; the dashboard's tile leads there.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { BANNER_SCREEN_TEXTS as BANNER_TEXTS } from '../../src/domain/banner-screen-texts';
import { APP_PATHS } from '../../src/domain/app-paths';
import { AUDIT_TEXTS } from '../../src/domain/audit-texts';
import { ADMINISTRATION_MENU, NAVIGATION_LABELS } from '../../src/domain/texts';
import { sampleIdentity, sampleOrganization, sampleUser } from '../support/session-fixtures';
import { renderApp } from './support/render-app';

const organizations = [sampleOrganization(1, true)];

async function openAdministration(roles: Record<string, string[]>, path: string = APP_PATHS.administration) {
  const app = renderApp({ path, organizations });
  await app.fake.settle('figureInfo', { value: { ...sampleIdentity, roles } });
  await app.fake.settle('usersMe', { value: { user: sampleUser, participant: null } });
  return app;
}

const menu = async () => screen.findByRole('navigation', { name: NAVIGATION_LABELS.administration });

describe('administration menu', () => {
  afterEach(cleanup);

  for (const role of ['ROLE_DART_ADMIN', 'ROLE_DART_OPS']) {
    it(`offers Profile, Organizations, Banners and the audit log to ${role}`, async () => {
      await openAdministration({ 'service-dart': [role] });
      expect(await screen.findByRole('heading', { level: 1, name: NAVIGATION_LABELS.administration })).toBeInTheDocument();
      const links = within(await menu()).getAllByRole('link');
      expect(links.map((link) => [link.getAttribute('href'), within(link).getByRole('heading').textContent])).toEqual([
        [APP_PATHS.organizationProfile, ADMINISTRATION_MENU.profile],
        [APP_PATHS.organizations, ADMINISTRATION_MENU.organizations],
        [APP_PATHS.banners, BANNER_TEXTS.screenTitle],
        [APP_PATHS.auditLog, AUDIT_TEXTS.logLink],
      ]);
    });
  }

  it('offers only Profile to other users, also when the admin role is of another service', async () => {
    await openAdministration({ 'service-dart': ['ROLE_DART_USER'], csp: ['ROLE_DART_ADMIN'] });
    const links = within(await menu()).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([APP_PATHS.organizationProfile]);
    expect(screen.queryByRole('link', { name: new RegExp(ADMINISTRATION_MENU.organizations) })).toBeNull();
  });

  it('is reached from the dashboard tile, and its entries lead to their screens', async () => {
    const user = userEvent.setup();
    const app = await openAdministration({ 'service-dart': ['ROLE_DART_ADMIN'] }, APP_PATHS.dashboard);
    const tiles = await screen.findByRole('list', { name: 'Dashboard' });
    await user.click(within(tiles).getByRole('link', { name: new RegExp(NAVIGATION_LABELS.administration) }));
    await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.administration));
    await user.click(within(await menu()).getByRole('link', { name: new RegExp(ADMINISTRATION_MENU.organizations) }));
    // The organizations screen loads on demand: the router moves once its module is in.
    await waitFor(() => expect(app.location().pathname).toBe(APP_PATHS.organizations), { timeout: 8000 });
  });
});
