// @vitest-environment jsdom
// Model-based test of the navigation machine through the signed-in shell.
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../src/domain/constants';
import { BATCH_DOWNLOAD_TEXTS, NAVIGATION_LABELS } from '../../src/domain/texts';
import { navigationMachine } from '../../machines/navigation';
import { createModelWalker } from '../machines/support/model-coverage';
import { walk } from '../machines/walks/navigation';
import { sampleOrganization } from '../support/session-fixtures';
import { renderSignedIn } from './support/render-app';

const walker = createModelWalker(navigationMachine, walk);

const user = userEvent.setup();
// While the drawer is open the page behind it is inert, so the side navigation is queried
// with `hidden: true` (it is the first 'Main' navigation either way).
const sideNavigation = () => screen.getAllByRole('navigation', { name: 'Main', hidden: true })[0] as HTMLElement;
const sidebarToggle = (name: string) => screen.getByRole('button', { name, hidden: true });
/** Links every user has under Applications. */
const APPLICATION = 'Portfolio Manager';

// The routes load their screens lazily: loaded once here, so no path waits on the first import.
beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/messages/messages-screen')]);
});

describe('navigation machine, driven through the shell', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      await renderSignedIn([sampleOrganization(1, true)]);
      await path.test({
        states: {
          sidebar: () => expect(sideNavigation()).toBeInTheDocument(),
          drawer: () => expect(screen.getByRole('button', { name: 'Open navigation', hidden: true })).toBeInTheDocument(),
          'sidebar.expanded': () => {
            expect(sidebarToggle('Collapse navigation')).toHaveAttribute('aria-expanded', 'true');
            expect(within(sideNavigation()).getByText(NAVIGATION_LABELS.assets)).not.toHaveClass('sr-only');
          },
          'sidebar.collapsed': () => {
            expect(sidebarToggle('Expand navigation')).toHaveAttribute('aria-expanded', 'false');
            expect(within(sideNavigation()).getByText(NAVIGATION_LABELS.assets)).toHaveClass('sr-only');
            expect(window.localStorage.getItem(STORAGE_KEYS.navigationCollapsed)).toBe('true');
            // The rail holds icons only: the Downloads and Applications panels are not in it
            // (nothing clipped to take focus or be read); their entries are named icon buttons.
            const rail = within(sideNavigation());
            expect(rail.getByRole('button', { name: NAVIGATION_LABELS.downloads, hidden: true })).toHaveAttribute('aria-expanded', 'false');
            expect(rail.getByRole('button', { name: NAVIGATION_LABELS.applications, hidden: true })).toHaveAttribute(
              'aria-expanded',
              'false',
            );
            expect(rail.queryByText(BATCH_DOWNLOAD_TEXTS.noDownloads)).toBeNull();
            expect(rail.queryByRole('link', { name: APPLICATION, hidden: true })).toBeNull();
            // The organization switcher (SPEC section 2) is an entry of its own, its flyout closed.
            expect(rail.getByRole('button', { name: NAVIGATION_LABELS.organizations, hidden: true })).toHaveAttribute(
              'aria-expanded',
              'false',
            );
          },
          'drawer.closed': async () => {
            await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
            expect(await screen.findByRole('button', { name: 'Open navigation' })).toBeInTheDocument();
          },
          'drawer.open': async () => {
            const drawer = await screen.findByRole('dialog');
            expect(within(drawer).getByRole('button', { name: 'Close navigation' })).toBeInTheDocument();
            expect(within(drawer).getByRole('link', { name: NAVIGATION_LABELS.assets })).toBeInTheDocument();
          },
        },
        events: {
          'navigation.toggle': async () => {
            const toggle =
              screen.queryByRole('button', { name: 'Collapse navigation' }) ?? screen.getByRole('button', { name: 'Expand navigation' });
            await user.click(toggle);
          },
          'drawer.open': () => user.click(screen.getByRole('button', { name: 'Open navigation' })),
          'drawer.close': async () => {
            await user.click(screen.getByRole('button', { name: 'Close navigation' }));
            // Closed without navigating: focus goes back to the button that opened the drawer.
            await waitFor(() => expect(screen.getByRole('button', { name: 'Open navigation' })).toHaveFocus());
          },
          'route.changed': async () => {
            await user.click(within(screen.getByRole('dialog')).getByRole('link', { name: NAVIGATION_LABELS.messages }));
            // As on desktop, the new page's heading takes focus (not the drawer's opener).
            const heading = await screen.findByRole('heading', { level: 1, name: 'Messages' });
            await waitFor(() => expect(heading).toHaveFocus());
            await new Promise((resolve) => setTimeout(resolve, 50));
            expect(heading).toHaveFocus();
          },
        },
      });
    });
  }

  it('the collapsed rail opens Downloads and Applications beside it, and closes them with Escape', async () => {
    window.localStorage.setItem(STORAGE_KEYS.navigationCollapsed, 'true');
    await renderSignedIn([sampleOrganization(1, true)]);
    const rail = within(sideNavigation());
    const downloads = rail.getByRole('button', { name: NAVIGATION_LABELS.downloads });
    expect(downloads).toHaveAttribute('title', NAVIGATION_LABELS.downloads);
    await user.click(downloads);
    expect(downloads).toHaveAttribute('aria-expanded', 'true');
    expect(rail.getByText(BATCH_DOWNLOAD_TEXTS.noDownloads)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(rail.queryByText(BATCH_DOWNLOAD_TEXTS.noDownloads)).toBeNull();
    expect(downloads).toHaveFocus();

    const applications = rail.getByRole('button', { name: NAVIGATION_LABELS.applications });
    await user.click(applications);
    expect(applications).toHaveAttribute('aria-expanded', 'true');
    // Tab moves from the entry into its open flyout.
    await user.tab();
    expect(rail.getAllByRole('link').find((link) => link.textContent === 'Lead Portal' || link.textContent === APPLICATION)).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(rail.queryByRole('link', { name: APPLICATION })).toBeNull();
    expect(applications).toHaveFocus();
  });

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    // `restoring` is transient (eventless): it is left before any snapshot can show it; the
    // navigation unit test covers both of its branches.
    walker.expectEveryStateAsserted({ ignore: ['sidebar.restoring'] });
  });

  it('closes the drawer when the organization is switched in it, also on the dashboard it already shows', async () => {
    await renderSignedIn([sampleOrganization(1, true), sampleOrganization(2)]);
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const drawer = await screen.findByRole('dialog');
    await user.click(within(drawer).getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }));
    await user.click(within(await within(drawer).findByRole('listbox')).getByRole('option', { name: 'Organization 2' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByTestId('current-organization')).toHaveTextContent('Organization 2');
  });

  it('switches organization from the collapsed rail, in the flyout of its Organizations entry', async () => {
    window.localStorage.setItem(STORAGE_KEYS.navigationCollapsed, 'true');
    await renderSignedIn([sampleOrganization(1, true), sampleOrganization(2)]);
    const rail = within(sideNavigation());
    await user.click(rail.getByRole('button', { name: NAVIGATION_LABELS.organizations }));
    await user.click(rail.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }));
    await user.click(within(await rail.findByRole('listbox')).getByRole('option', { name: 'Organization 2' }));
    expect(await screen.findByTestId('current-organization')).toHaveTextContent('Organization 2');
    // The flyout closes with the switch, as the drawer does.
    await waitFor(() =>
      expect(rail.getByRole('button', { name: NAVIGATION_LABELS.organizations })).toHaveAttribute('aria-expanded', 'false'),
    );
  });
});
