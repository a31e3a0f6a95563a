// The unread message count: the badge on Messages in the navigation ('9+' above 9,
// the number in the link's name) and the dashboard's Messages tile show the current
// organization's count as GET v1 /messages/unread-count gives it; a switch shows the other's.
import type { Page } from '@playwright/test';
import { PATHS } from '../src/contract/paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { MESSAGES_TEXTS, unreadBadge } from '../src/domain/messages';
import { NAVIGATION_LABELS } from '../src/domain/texts';
import { expect, test } from './support/fixtures';

/** The organization the app acts for now. */
const currentOrganization = async (page: Page): Promise<string> =>
  (await page.evaluate((key) => window.localStorage.getItem(key), STORAGE_KEYS.participantId)) as string;

/** The unread count the server gives this organization, asked from the page's context (its session cookie). */
async function unreadCountOf(page: Page, participantId: string): Promise<number> {
  const { status, body } = await page.evaluate(
    async ({ path, header, participantId }) => {
      const response = await fetch(path, { headers: { [header]: participantId, accept: 'application/json' }, credentials: 'include' });
      return { status: response.status, body: (await response.json()) as { unreadCount: number } };
    },
    { path: PATHS.messagesUnreadCount, header: PARTICIPANT_HEADER, participantId },
  );
  expect(status).toBe(200);
  return body.unreadCount;
}

/** The user has two organizations: picks the one not current. */
async function switchToOtherOrganization(page: Page) {
  await page.getByRole('button', { name: NAVIGATION_LABELS.switchOrganization }).click();
  const listbox = page.getByRole('listbox');
  await expect(listbox.getByRole('option')).toHaveCount(2);
  await listbox.getByRole('option', { selected: false }).click();
}

const linkName = (count: number) =>
  count > 0 ? `${NAVIGATION_LABELS.messages}, ${MESSAGES_TEXTS.unreadCount(count)}` : NAVIGATION_LABELS.messages;

/** The badge, the Messages link's name and the dashboard tile all say this organization's count. */
async function expectCountShown(page: Page, count: number) {
  const navigation = page.getByRole('navigation', { name: 'Main' });
  const link = navigation.getByRole('link', { name: linkName(count), exact: true });
  await expect(link).toBeVisible();
  const badge = unreadBadge(count);
  if (badge) await expect(link.getByTestId('unread-badge')).toHaveText(badge);
  else await expect(navigation.getByTestId('unread-badge')).toHaveCount(0);
  const tile = page.getByRole('list', { name: 'Dashboard' }).getByRole('link', { name: new RegExp(`^${NAVIGATION_LABELS.messages}`) });
  await expect(tile.getByTestId('unread-count')).toHaveText(MESSAGES_TEXTS.unreadCount(count));
  await expect(tile).toHaveAttribute('href', '/registry/messages');
}

test('the badge and the Messages tile show the organization’s unread count, and follow a switch', async ({
  page,
  signIn,
  expectNoAxeViolations,
}) => {
  await signIn('user@registry.test');
  const first = await currentOrganization(page);
  const firstCount = await unreadCountOf(page, first);
  await expectCountShown(page, firstCount);
  await expectNoAxeViolations();

  // Switch to the user's other organization: its count, as the server gives it.
  await switchToOtherOrganization(page);
  await expect.poll(() => currentOrganization(page)).not.toBe(first);
  await page.waitForURL(/\/registry\/dashboard$/);
  const second = await currentOrganization(page);
  const secondCount = await unreadCountOf(page, second);
  await expectCountShown(page, secondCount);
  // The demo seed gives the two organizations different inboxes, one of them above the cap.
  expect(secondCount).not.toBe(firstCount);
  expect(Math.max(firstCount, secondCount)).toBeGreaterThan(9);

  // And back: the first organization's count again.
  await switchToOtherOrganization(page);
  await expect.poll(() => currentOrganization(page)).toBe(first);
  await expectCountShown(page, firstCount);
});

test('the count is asked once per organization: not again on focus or when the dashboard opens again', async ({ page, signIn }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === PATHS.messagesUnreadCount) asked.push(request.headers()[PARTICIPANT_HEADER] ?? '');
  });
  await signIn('user@registry.test');
  const organization = await currentOrganization(page);
  await expect(page.getByRole('list', { name: 'Dashboard' }).getByTestId('unread-count')).toHaveText(/ unread$/);
  const navigation = page.getByRole('navigation', { name: 'Main' });
  await navigation.getByRole('link', { name: NAVIGATION_LABELS.assets, exact: true }).click();
  await page.waitForURL(/\/registry\/assets\/assets/);
  await navigation.getByRole('link', { name: NAVIGATION_LABELS.dashboard, exact: true }).click();
  await expect(page.getByRole('list', { name: 'Dashboard' }).getByTestId('unread-count')).toHaveText(/ unread$/);
  await page.evaluate(() => {
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new Event('online'));
  });
  await page.waitForTimeout(300);
  expect(asked).toEqual([organization]);
});

test.describe('mobile', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the drawer’s Messages entry carries the badge with the number in its name', async ({ page, signIn }) => {
    await signIn('user@registry.test');
    const count = await unreadCountOf(page, await currentOrganization(page));
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog');
    const link = drawer.getByRole('link', { name: linkName(count), exact: true });
    await expect(link).toBeVisible();
    const badge = unreadBadge(count);
    if (badge) await expect(link.getByTestId('unread-badge')).toHaveText(badge);
  });
});
