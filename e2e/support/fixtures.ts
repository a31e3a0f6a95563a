// Shared Playwright fixtures: `import { test, expect } from './support/fixtures'`.
//   test('dashboard', async ({ page, signIn, expectNoAxeViolations }) => {
//     await signIn('admin@registry.test');
//     await expectNoAxeViolations();
//   });
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../../src/domain/constants';

/** Fails listing each axe violation (rule id, impact, and the CSS targets of its nodes). */
export async function expectNoAxeViolations(page: Page, options: { exclude?: string[] } = {}): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const report = violations.map(
    (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n${v.nodes.map((node) => `    ${node.target.map(String).join(' ')}`).join('\n')}`,
  );
  expect(report, `axe violations on ${page.url()}`).toEqual([]);
}

/** From the login screen through the hosted sign-in page, up to pressing 'Sign in'. */
export async function submitSignIn(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  await page.goto('/registry/login');
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the login screen and the hosted sign-in page; ends on the dashboard. */
export async function signIn(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  await submitSignIn(page, email, password);
  await page.waitForURL(/\/registry\/dashboard/);
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome, / })).toBeVisible();
}

export const test = base.extend<{
  expectNoAxeViolations: (options?: { exclude?: string[] }) => Promise<void>;
  signIn: (email: string, password?: string) => Promise<void>;
}>({
  expectNoAxeViolations: async ({ page }, use) => {
    await use((options) => expectNoAxeViolations(page, options));
  },
  signIn: async ({ page }, use) => {
    await use((email, password) => signIn(page, email, password));
  },
});

export { expect };
