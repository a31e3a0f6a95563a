// The messages screen's render goal of `npm run bench`: in Chromium, signed in, a fresh load of
// the messages page at 100 a page; the time from the list call's answer (its Resource Timing
// responseEnd) to the frame after the one that holds the 100 rows (laid out and painted), median
// of 5 loads. Network and script loading are left out: what is measured is the screen's work. On
// its own against a running server (`npm start` first, `npm run build` before it):
//
//   npx tsx scripts/bench-messages-render.ts [--url http://127.0.0.1:8080] [--email admin@registry.test]
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { APP_PATHS } from '../src/domain/app-paths';
import { BASE_PATH } from '../src/domain/constants';
import { signInCookie } from './lighthouse';

export const MESSAGES_RENDER_ROWS = 100;
export const MESSAGES_RENDER_RUNS = 5;
export const MESSAGES_RENDER_TARGET_MS = 250;

export interface MessagesRenderResult {
  /** Milliseconds from the list call's answer to 100 rows painted, one per load. */
  readonly samples: readonly number[];
  readonly median: number;
}

/** The goal as scripts/bench.ts lists its goals. */
export const messagesRenderGoal = <R extends { readonly web: { readonly messagesRender?: MessagesRenderResult } }>() => ({
  label: `messages page of ${MESSAGES_RENDER_ROWS} rows rendered (Chromium, median of ${MESSAGES_RENDER_RUNS})`,
  unit: 'ms',
  op: '<=' as const,
  target: MESSAGES_RENDER_TARGET_MS,
  measure: (report: R) => report.web.messagesRender?.median,
});

/**
 * Runs in the page before its scripts (as text: tsx's helpers do not exist there): records when
 * ROWS rows are first in the document, and the frame after that one.
 */
const WATCH_ROWS = `(() => {
  const watch = () => {
    const observer = new MutationObserver(() => {
      if (document.querySelectorAll('li[data-uuid]').length < ROWS) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => { window.__rowsPainted = performance.now(); }));
    });
    observer.observe(document, { childList: true, subtree: true });
  };
  watch();
})()`;

/** When the list call of the load just made was answered (Resource Timing), -1 if it was not seen. */
const LIST_ANSWERED = `performance.getEntriesByType('resource').filter((entry) => /\\/messages\\?/.test(entry.name)).at(-1)?.responseEnd ?? -1`;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export async function runMessagesRenderBench(baseUrl: string, email: string): Promise<MessagesRenderResult> {
  const cookie = await signInCookie(baseUrl, email);
  const [name = '', value = ''] = cookie.split('=');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name, value, url: baseUrl }]);
    await context.addInitScript(WATCH_ROWS.replaceAll('ROWS', String(MESSAGES_RENDER_ROWS)));
    const page = await context.newPage();
    const samples: number[] = [];
    // One load first, so the runs measure a warm cache as a user's second visit has.
    for (let run = -1; run < MESSAGES_RENDER_RUNS; run += 1) {
      await page.goto(`${baseUrl}${BASE_PATH}${APP_PATHS.messages}?page=1&limit=${MESSAGES_RENDER_ROWS}`);
      const deadline = Date.now() + 30_000;
      while ((await page.evaluate('window.__rowsPainted')) === undefined) {
        if (Date.now() > deadline) throw new Error(`${MESSAGES_RENDER_ROWS} messages never showed`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const answered = await page.evaluate<number>(LIST_ANSWERED);
      if (answered < 0) throw new Error('the messages list call was not seen');
      const elapsed = (await page.evaluate<number>('window.__rowsPainted')) - answered;
      if (run >= 0) samples.push(Math.round(elapsed));
    }
    return { samples, median: median(samples) };
  } finally {
    await browser.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (flag: string, fallback: string) => {
    const index = args.indexOf(flag);
    return index >= 0 ? (args[index + 1] ?? fallback) : fallback;
  };
  const result = await runMessagesRenderBench(option('--url', 'http://127.0.0.1:8080'), option('--email', 'admin@registry.test'));
  console.log(
    `messages page of ${MESSAGES_RENDER_ROWS} rows rendered: median ${result.median} ms (runs ${result.samples.join(', ')} ms;` +
      ` goal <= ${MESSAGES_RENDER_TARGET_MS} ms)`,
  );
}
