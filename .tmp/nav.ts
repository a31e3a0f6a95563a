import { chromium } from '@playwright/test';
import { signInCookie } from '../scripts/lighthouse';
const base = 'http://127.0.0.1:8281';
const cookie = await signInCookie(base, 'admin@registry.test');
const [name = '', value = ''] = cookie.split('=');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
await context.addCookies([{ name, value, url: base }]);
const page = await context.newPage();
for (let i = 0; i < 4; i++) {
  await page.goto(`${base}/registry/messages?page=1&limit=100`);
  await page.locator('li[data-uuid]').nth(99).waitFor();
  const t = await page.evaluate('performance.now()');
  const res = await page.evaluate(`JSON.stringify(performance.getEntriesByType('resource').filter(e => e.name.includes('messages')).map(e => [e.name.slice(-40), Math.round(e.startTime), Math.round(e.responseEnd)]))`);
  console.log('rows at', Math.round(t as number), res, await page.evaluate('window.scrollY'));
}
await browser.close();
