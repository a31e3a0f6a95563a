// The organization's contact profile and the partner view against the real server and seeded data:
// as user@registry.test (ORG_ADMIN of its default organization) the profile is edited with the
// phone field, every Contact edit message of SPEC section 5 is triggered in the contact editor,
// the save toasts 'Profile Updated' and the page shows what was stored; the partner view is
// opened from the relationships list and from a RELATIONSHIP message, read only (no Update
// button, SPEC section 6); a plain member sees the profile read only; axe clean throughout.
import type { Page } from '@playwright/test';
import type { MessageList } from '../src/contract/messages';
import { PATHS } from '../src/contract/paths';
import { APP_PATHS } from '../src/domain/app-paths';
import { PARTICIPANT_HEADER, STORAGE_KEYS } from '../src/domain/constants';
import { MESSAGES_TEXTS } from '../src/domain/messages';
import { PROFILE_TEXTS as T } from '../src/domain/administration-texts';
import { expect, test } from './support/fixtures';

const USER = 'user@registry.test';

async function openProfile(page: Page) {
  await page.goto(`.${APP_PATHS.organizationProfile}`);
  await expect(page.getByRole('heading', { level: 1, name: T.title })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: T.additionalContacts })).toBeVisible();
}

const toast = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications' }).getByText(text, { exact: true }).first();
const updateButton = (page: Page) => page.getByRole('button', { name: T.update, exact: true });
const editor = (page: Page) => page.getByRole('group', { name: /^(Add contact|Edit contact)/ });

async function messagesFromApi(page: Page): Promise<MessageList> {
  return page.evaluate(
    async ({ path, header, key }) => {
      const response = await fetch(`${path}?limit=100&offset=0&archived=true`, {
        headers: { [header]: window.localStorage.getItem(key) ?? '', accept: 'application/json' },
        credentials: 'include',
      });
      return (await response.json()) as MessageList;
    },
    { path: PATHS.messages, header: PARTICIPANT_HEADER, key: STORAGE_KEYS.participantId },
  );
}

async function expectPartnerViewReadOnly(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: T.partnerTitle })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: T.additionalContacts })).toBeVisible();
  await expect(page.getByText(T.organizationName)).toBeVisible();
  await expect(page.getByRole('button', { name: /Update/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Edit contact|Remove contact|Add contact/ })).toHaveCount(0);
}

test.describe('organization profile', () => {
  test.beforeEach(async ({ signIn }) => {
    await signIn(USER);
  });

  test('the ORG_ADMIN edits the profile with the phone field, meets every contact message, and saves', async ({
    page,
    expectNoAxeViolations,
  }) => {
    await openProfile(page);
    await expectNoAxeViolations();
    await updateButton(page).click();
    const form = page.getByRole('form', { name: T.updateProfile });
    await expect(form).toBeVisible();

    // The organization's phone: the country picker defaults to the US, digits only, (###) ###-####.
    const phone = form.getByRole('textbox', { name: T.phone, exact: true }).first();
    await phone.fill('');
    await phone.pressSequentially('41a5555-01992');
    await expect(phone).toHaveValue('(415) 555-0199');
    await expect(form.getByRole('combobox', { name: `${T.phone} country` }).first()).toHaveValue('US');
    await form.getByRole('textbox', { name: T.url }).fill('https://profile.example.test');

    // A new contact: each rule of SPEC section 5 in turn.
    await page.getByRole('button', { name: T.addContact }).click();
    const contact = editor(page);
    await expect(contact.getByRole('combobox', { name: T.contactType })).toBeFocused();
    await expectNoAxeViolations();
    await contact.getByRole('button', { name: T.saveContact }).click();
    const name = contact.getByRole('textbox', { name: T.contactName });
    const contactPhone = contact.getByRole('textbox', { name: T.phone, exact: true });
    const email = contact.getByRole('textbox', { name: T.email });
    await expect(name).toHaveAccessibleDescription(T.contactNameRequired);
    await expect(contactPhone).toHaveAccessibleDescription(T.invalidPhone);
    await expect(email).toHaveAccessibleDescription(T.emailRequired);
    await expect(name).toBeFocused();
    await expectNoAxeViolations();
    await name.fill('Dana Legal');
    await contactPhone.pressSequentially('415555');
    await email.fill('dana@');
    await contact.getByRole('button', { name: T.saveContact }).click();
    await expect(name).not.toHaveAttribute('aria-invalid');
    await expect(contactPhone).toHaveAccessibleDescription(T.invalidPhone);
    await expect(email).toHaveAccessibleDescription(T.invalidEmail);
    await contactPhone.pressSequentially('0142');
    await expect(contactPhone).toHaveValue('(415) 555-0142');
    await email.fill('dana.legal@example.test');
    await contact.getByRole('combobox', { name: T.contactType }).selectOption('LEGAL');
    await contact.getByRole('button', { name: T.saveContact }).click();
    await expect(editor(page)).toHaveCount(0);
    await expect(form.getByRole('cell', { name: 'Dana Legal', exact: true })).toBeVisible();

    await form.getByRole('button', { name: T.save }).click();
    await expect(toast(page, T.updated)).toBeVisible();
    await expect(updateButton(page)).toBeVisible();
    await expect(page.getByText('(415) 555-0199')).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Dana Legal', exact: true })).toBeVisible();
    await expect(page.getByText('https://profile.example.test')).toBeVisible();

    // Stored: a reload shows it.
    await openProfile(page);
    await expect(page.getByRole('cell', { name: 'dana.legal@example.test', exact: true })).toBeVisible();
  });

  test('opens the partner view from the relationships list: read only', async ({ page, expectNoAxeViolations }) => {
    await openProfile(page);
    const relationships = page.getByRole('table', { name: T.relationships });
    const partner = relationships.getByRole('link').first();
    await expect(partner).toBeVisible();
    const partnerName = (await partner.textContent()) ?? '';
    await partner.click();
    await expectPartnerViewReadOnly(page);
    await expect(page.getByRole('definition').filter({ hasText: partnerName }).first()).toBeVisible();
    await expectNoAxeViolations();
  });

  test('opens the partner view from a RELATIONSHIP message', async ({ page }) => {
    await page.goto(`.${APP_PATHS.messages}?page=1&limit=100&archived=true`);
    await expect(page.getByRole('heading', { level: 1, name: MESSAGES_TEXTS.title })).toBeVisible();
    const { messages } = await messagesFromApi(page);
    const relationship = messages.find((message) => message.targetType === 'RELATIONSHIP');
    expect(relationship, 'the seed gives the organization a RELATIONSHIP message').toBeDefined();
    const row = page.locator(`[data-uuid="${relationship!.uuid}"]`);
    await row.getByRole('link', { name: MESSAGES_TEXTS.openPartner }).click();
    await expect(page).toHaveURL(new RegExp(`${APP_PATHS.partnerProfile(relationship!.targetId)}$`));
    await expectPartnerViewReadOnly(page);
  });

  test('a relationship of other organizations is not found', async ({ page }) => {
    await page.goto(`.${APP_PATHS.partnerProfile('7d0b7a53-0c3e-4b4e-9d7a-2f9a3a0c1e11')}`);
    await expect(page.getByText(T.relationshipNotFound)).toBeVisible();
    await expect(page.getByRole('button', { name: /Update/ })).toHaveCount(0);
  });
});
