// The messages screen against the real server and seeded data: single and bulk read,
// unread, archive and unarchive with their toasts, the empty-selection message, the Archived
// filter, opening a loan from a message (marked read, the badge falls), keyboard use, axe.
// Counts and positions are read from the page or the API at run time, never assumed.
import type { Locator, Page } from '@playwright/test';
import type { MessageList } from '../src/contract/messages';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { MESSAGES_TEXTS as T } from '../src/domain/messages';
import { NAVIGATION_LABELS } from '../src/domain/texts';
import { expect, test } from './support/fixtures';

const USER = 'user@registry.test';

async function openMessages(page: Page, query = '') {
  await page.goto(`.${APP_PATHS.messages}${query}`);
  await expect(page.getByRole('heading', { level: 1, name: T.title })).toBeVisible();
  await expect(messageList(page).getByRole('listitem').first()).toBeVisible();
  await expect(messageList(page)).toHaveAttribute('aria-busy', 'false');
}

const messageList = (page: Page) => page.getByRole('list', { name: T.tableLabel });
const rows = (page: Page) => messageList(page).getByRole('listitem');
const rowById = (page: Page, id: string) => page.locator(`[id="${id}"]`);
const bulk = (page: Page) => page.getByRole('group', { name: T.bulkActions });
const toast = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications' }).getByText(text, { exact: true }).first();
const unreadBadgeIn = (row: Locator) => row.getByText(T.unread, { exact: true });
/** The unread count the screen shows beside its heading ('12 unread'). */
const shownUnreadCount = async (page: Page) => Number((await page.getByText(/^\d+ unread$/).textContent())?.split(' ')[0]);
const messagesLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^${NAVIGATION_LABELS.messages}`) });
const linkName = (count: number) => (count > 0 ? `${NAVIGATION_LABELS.messages}, ${T.unreadCount(count)}` : NAVIGATION_LABELS.messages);

/** GET v1 /messages as the page's session and organization. */
async function listFromApi(page: Page, query: Record<string, string>): Promise<MessageList> {
  return page.evaluate(
    async ({ path, header, key, query }) => {
      const response = await fetch(`${path}?${new URLSearchParams(query)}`, {
        headers: { [header]: window.localStorage.getItem(key) ?? '', accept: 'application/json' },
        credentials: 'include',
      });
      return (await response.json()) as MessageList;
    },
    { path: PATHS.messages, header: PARTICIPANT_HEADER, key: STORAGE_KEYS.participantId, query },
  );
}

test.describe('messages', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn(USER);
  });

  test('single actions: mark read and unread, archive and unarchive, with their toasts; the count and badge follow', async ({ page }) => {
    await openMessages(page, '?page=1&limit=100');
    const first = rows(page)
      .filter({ has: page.getByText(T.unread, { exact: true }) })
      .first();
    const id = (await first.getAttribute('id')) as string;
    const row = rowById(page, id);
    const before = await shownUnreadCount(page);
    await expect(messagesLink(page)).toHaveAccessibleName(linkName(before));

    // By keyboard: the button keeps the focus and says what it does now.
    const markRead = row.getByRole('button', { name: T.markRead, exact: true });
    await markRead.focus();
    await page.keyboard.press('Enter');
    await expect(toast(page, '1 message(s) marked as read')).toBeVisible();
    await expect(unreadBadgeIn(row)).toHaveCount(0);
    await expect(row.getByRole('button', { name: T.markUnread, exact: true })).toBeFocused();
    await expect(page.getByText(T.unreadCount(before - 1), { exact: true })).toBeVisible();
    await expect(messagesLink(page)).toHaveAccessibleName(linkName(before - 1));

    await row.getByRole('button', { name: T.markUnread, exact: true }).click();
    await expect(toast(page, '1 message(s) marked as unread')).toBeVisible();
    await expect(unreadBadgeIn(row)).toBeVisible();
    await expect(messagesLink(page)).toHaveAccessibleName(linkName(before));

    // Archived messages are hidden by default: it leaves the list (and the unread count).
    await row.getByRole('button', { name: T.archive, exact: true }).click();
    await expect(toast(page, '1 message(s) archived')).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(messagesLink(page)).toHaveAccessibleName(linkName(before - 1));
    // The focus went to the row now in its place, not lost.
    await expect(page.locator(':focus')).toHaveAttribute('data-uuid', /.+/);

    await page.getByRole('switch', { name: T.archivedFilter }).check();
    await expect(page).toHaveURL(/archived=true/);
    await expect(row.getByText(T.archivedBadge, { exact: true })).toBeVisible();
    await row.getByRole('button', { name: T.unarchive, exact: true }).click();
    await expect(toast(page, '1 message(s) unarchived')).toBeVisible();
    await expect(row.getByText(T.archivedBadge, { exact: true })).toHaveCount(0);
    await expect(messagesLink(page)).toHaveAccessibleName(linkName(before));
  });

  test("bulk actions on the selection with the server's counts; nothing selected: 'Must select at least one message!'", async ({
    page,
  }) => {
    await openMessages(page, '?page=1&limit=100');
    await bulk(page).getByRole('button', { name: T.archive, exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: T.selectAtLeastOne })).toBeVisible();

    const ids = [(await rows(page).nth(0).getAttribute('id')) as string, (await rows(page).nth(1).getAttribute('id')) as string];
    const chosen = ids.map((id) => rowById(page, id));
    const select = async () => {
      for (const row of chosen) await row.getByRole('checkbox').check();
      await expect(bulk(page).getByText(T.selectedCount(2), { exact: true })).toBeVisible();
    };

    await select();
    await bulk(page).getByRole('button', { name: T.markRead, exact: true }).click();
    await expect(toast(page, '2 message(s) marked as read')).toBeVisible();
    for (const row of chosen) await expect(unreadBadgeIn(row)).toHaveCount(0);
    for (const row of chosen) await expect(row.getByRole('checkbox')).not.toBeChecked();

    await select();
    await bulk(page).getByRole('button', { name: T.markUnread, exact: true }).click();
    await expect(toast(page, '2 message(s) marked as unread')).toBeVisible();
    for (const row of chosen) await expect(unreadBadgeIn(row)).toBeVisible();

    await select();
    await bulk(page).getByRole('button', { name: T.archive, exact: true }).click();
    await expect(toast(page, '2 message(s) archived')).toBeVisible();
    for (const row of chosen) await expect(row).toHaveCount(0);

    await page.getByRole('switch', { name: T.archivedFilter }).check();
    await select();
    await bulk(page).getByRole('button', { name: T.unarchive, exact: true }).click();
    await expect(toast(page, '2 message(s) unarchived')).toBeVisible();
    for (const row of chosen) await expect(row.getByText(T.archivedBadge, { exact: true })).toHaveCount(0);

    // All on the page, and none again.
    const selectAll = page.getByRole('checkbox', { name: T.selectAll });
    await selectAll.check();
    await expect(bulk(page).getByText(T.selectedCount(await rows(page).count()), { exact: true })).toBeVisible();
    await selectAll.uncheck();
    await expect(bulk(page).getByText(/selected$/)).toHaveCount(0);
  });

  test('the Archived filter: off by default (archived hidden), on lists them too, marked Archived; in the URL', async ({ page }) => {
    await openMessages(page);
    const hidden = await listFromApi(page, { limit: '100', offset: '0', archived: 'false' });
    const all = await listFromApi(page, { limit: '100', offset: '0', archived: 'true' });
    expect(all.totalCount).toBeGreaterThan(hidden.totalCount);
    const pages = (total: number) => Math.max(1, Math.ceil(total / 10));

    const archived = page.getByRole('switch', { name: T.archivedFilter });
    await expect(archived).not.toBeChecked();
    const summary = page.getByRole('navigation', { name: 'Pagination' }).getByRole('status');
    await expect(summary).toHaveText(`Page 1 of ${pages(hidden.totalCount)}. Items 1 through ${Math.min(10, hidden.totalCount)}`);
    await expect(messageList(page).getByText(T.archivedBadge, { exact: true })).toHaveCount(0);

    await archived.check();
    await expect(page).toHaveURL(/[?&]archived=true/);
    await expect(summary).toHaveText(`Page 1 of ${pages(all.totalCount)}. Items 1 through ${Math.min(10, all.totalCount)}`);
    await expect(archived).toBeFocused();

    await page.getByRole('combobox', { name: 'Rows per page' }).selectOption('100');
    await expect(page).toHaveURL(/limit=100/);
    await expect(rows(page)).toHaveCount(Math.min(100, all.totalCount));
    const archivedShown = all.messages.filter((message) => message.messageData.archived).length;
    await expect(messageList(page).getByText(T.archivedBadge, { exact: true })).toHaveCount(archivedShown);

    // Newest first.
    const times = await messageList(page)
      .locator('time')
      .evaluateAll((elements) => elements.map((element) => element.getAttribute('datetime') ?? ''));
    expect(times).toEqual([...times].sort().reverse());
    await expect(messageList(page).locator('time').first()).toHaveText(/^\d+ (minute|minutes|hour|hours|day|days) ago$/);

    // Back: archived hidden again.
    await page.goBack();
    await page.goBack();
    await expect(archived).not.toBeChecked();
  });

  test('opening a loan from a message marks it read first, then shows the asset; the badge falls', async ({ page }) => {
    await openMessages(page, '?page=1&limit=100');
    const withAsset = rows(page)
      .filter({ has: page.getByRole('link', { name: T.openAsset }) })
      .first();
    const id = (await withAsset.getAttribute('id')) as string;
    const row = rowById(page, id);
    if ((await unreadBadgeIn(row).count()) === 0) {
      await row.getByRole('button', { name: T.markUnread, exact: true }).click();
      await expect(toast(page, '1 message(s) marked as unread')).toBeVisible();
    }
    await expect(unreadBadgeIn(row)).toBeVisible();
    const before = await shownUnreadCount(page);
    await expect(messagesLink(page)).toHaveAccessibleName(linkName(before));
    const href = (await row.getByRole('link', { name: T.openAsset }).getAttribute('href')) as string;
    expect(href).toMatch(/\/registry\/assets\/asset\/[^/]+\/details$/);

    await row.getByRole('link', { name: T.openAsset }).click();
    await page.waitForURL((url) => url.pathname === href);
    await expect(messagesLink(page)).toHaveAccessibleName(linkName(before - 1));

    await page.goBack();
    await expect(rowById(page, id)).toBeVisible();
    await expect(unreadBadgeIn(rowById(page, id))).toHaveCount(0);
  });

  test('is axe clean, with the filter on and a long message shown whole', async ({ page, expectNoAxeViolations }) => {
    // Two full axe analyses of a 100-row page take about 14 s each on the 2-core CI machine.
    test.slow();
    await openMessages(page, '?page=1&limit=100&archived=true');
    await expectNoAxeViolations();
    const readMore = page.getByRole('button', { name: T.readMore, exact: true });
    if ((await readMore.count()) > 0) {
      await readMore.first().click();
      await expect(page.getByRole('button', { name: T.readLess, exact: true }).first()).toHaveAttribute('aria-expanded', 'true');
      await expectNoAxeViolations();
    }
  });
});

// Focus moves only after the user's own action: a page holding answered messages opens at its
// top, with the focus on nothing in the list, on a desktop and on a phone, also after an answer
// given and the page reloaded.
test.describe('messages: no focus taken on load', () => {
  const answeredLabels = (page: Page) => messageList(page).getByText(new RegExp(`^(${T.answeredConfirmed}|${T.answeredRejected})$`));
  const expectAtTopWithoutFocus = async (page: Page) => {
    // Two frames: any focus the rows would take on mounting has been taken (and scrolled to).
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
    expect(await page.evaluate('window.scrollY')).toBe(0);
    expect(await page.evaluate("document.activeElement?.closest('li[data-uuid]') ?? null")).toBeNull();
  };

  test('a page with answered messages opens at its top', async ({ page, signIn }) => {
    await signIn('admin@registry.test');
    await openMessages(page, '?page=1&limit=50');
    await expect(answeredLabels(page).first()).toBeAttached();
    await expectAtTopWithoutFocus(page);
  });

  test('on a phone: confirming moves the focus to the answer; after a reload the page opens at its top', async ({ page, signIn }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn('admin@registry.test');
    await openMessages(page, '?page=1&limit=50');
    await expectAtTopWithoutFocus(page);
    const actionable = rows(page)
      .filter({ has: page.getByRole('button', { name: T.confirm }) })
      .first();
    const id = (await actionable.getAttribute('id')) as string;
    await rowById(page, id).getByRole('button', { name: T.confirm }).click();
    const answer = rowById(page, id).getByText(T.answeredConfirmed, { exact: true });
    await expect(answer).toBeFocused();
    await page.reload();
    await expect(messageList(page)).toHaveAttribute('aria-busy', 'false');
    await expect(rowById(page, id).getByText(T.answeredConfirmed, { exact: true })).toBeAttached();
    await expectAtTopWithoutFocus(page);
  });
});
