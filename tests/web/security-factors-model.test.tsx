// @vitest-environment jsdom
// Model-based test of the security-factors machine through the signed-in app: every transition
// of its statechart is walked on /profile, over a fake API whose calls the test settles; the
// hosted pages the calls redirect to are recorded instead of opened.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { securityFactorsMachine } from '../../machines/security-factors';
import { APP_PATHS } from '../../src/domain/app-paths';
import { FACTOR_TEXTS } from '../../src/domain/security-factors';
import { PROFILE_TEXTS } from '../../src/web/screens/profile/profile-screen';
import { hostedNavigation } from '../../src/web/screens/profile/security-factors-actors';
import { createModelWalker } from '../machines/support/model-coverage';
import { HOSTED, list, PASSWORD_PAGE, PHONE_ID, refused, unavailable, walk } from '../machines/walks/security-factors';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { toastTexts } from './support/messages-screen';
import { renderSignedIn } from './support/render-app';

const BACK_HERE = 'http://localhost/registry/profile?externalStateNonce=abc';

const walker = createModelWalker(securityFactorsMachine, walk);

const user = userEvent.setup();
let opened: string[] = [];
const originalOpen = hostedNavigation.open;

beforeAll(async () => {
  await Promise.all([import('../../src/web/app/authenticated-shell'), import('../../src/web/screens/profile/profile-screen')]);
});

beforeEach(() => {
  opened = [];
  hostedNavigation.open = (url: string) => void opened.push(url);
});

describe('security-factors machine, driven through the profile screen', () => {
  afterEach(() => {
    cleanup();
    hostedNavigation.open = originalOpen;
  });

  for (const path of walker.paths) {
    it(path.description, async () => {
      const app = await renderSignedIn([sampleOrganization(1, true)]);
      const calls = deferProductCalls(app.fake.api, [
        'authenticationFactors',
        'addAuthenticationFactor',
        'removeAuthenticationFactor',
        'startPasswordChange',
      ]);
      await act(() => app.router.navigate(APP_PATHS.profile));
      await screen.findByRole('heading', { level: 1, name: FACTOR_TEXTS.title });
      await path.test({
        states: {
          loading: async ({ context }) => {
            if (context.list === null) expect(await screen.findByText(PROFILE_TEXTS.loading)).toBeInTheDocument();
            else expect(screen.getByRole('heading', { name: PROFILE_TEXTS.factorsHeading })).toBeInTheDocument();
          },
          loadFailed: async () => {
            const retry = await screen.findByRole('button', { name: 'Try again' });
            expect(retry.closest('[role="alert"]')).toHaveTextContent(FACTOR_TEXTS.loadFailed);
            await waitFor(() => expect(toastTexts()).toContain(FACTOR_TEXTS.loadFailed));
          },
          ready: async () => {
            // The list: type, masked value, the required marker; the reason where removal is refused.
            const region = await screen.findByRole('region', { name: PROFILE_TEXTS.factorsHeading });
            const items = within(region).getAllByRole('listitem');
            expect(items).toHaveLength(2);
            expect(within(items[0] as HTMLElement).getByText(PROFILE_TEXTS.required)).toBeInTheDocument();
            expect(within(items[0] as HTMLElement).getByText(FACTOR_TEXTS.notEditable)).toBeInTheDocument();
            expect(within(items[0] as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
            expect(within(items[1] as HTMLElement).getByText('(***) ***-0123')).toBeInTheDocument();
            expect(within(items[1] as HTMLElement).getByRole('button', { name: /^Remove Phone/ })).toBeInTheDocument();
            expect(screen.getByRole('button', { name: PROFILE_TEXTS.changePassword })).toBeInTheDocument();
            expect(screen.queryByText(PROFILE_TEXTS.removeQuestion('Phone', '(***) ***-0123'))).not.toBeInTheDocument();
          },
          confirming: async () => {
            const question = await screen.findByText(PROFILE_TEXTS.removeQuestion('Phone', '(***) ***-0123'));
            expect(question).toBeInTheDocument();
            expect(calls.pendingCount('removeAuthenticationFactor')).toBe(0);
            await waitFor(() => expect(document.activeElement?.id).toBe('security-factors-removal'));
          },
          removing: async () => {
            expect(await screen.findByRole('button', { name: PROFILE_TEXTS.removingNow })).toHaveAttribute('aria-disabled', 'true');
          },
          adding: async () => {
            await waitFor(() => expect(calls.pendingCount('addAuthenticationFactor')).toBe(1));
            expect(screen.getByRole('button', { name: PROFILE_TEXTS.add('Email') })).toHaveAttribute('aria-disabled', 'true');
          },
          changingPassword: async () => {
            await waitFor(() => expect(calls.pendingCount('startPasswordChange')).toBe(1));
          },
          leaving: async () => {
            await waitFor(() => expect(opened).toHaveLength(1));
            expect([HOSTED, PASSWORD_PAGE]).toContain(opened[0]);
          },
        },
        events: {
          'done: loadFactors': () => calls.settle('authenticationFactors', { value: list }),
          'error: loadFactors': () => calls.settle('authenticationFactors', { error: unavailable }),
          'factors.reload': () => user.click(screen.getByRole('button', { name: 'Try again' })),
          'factor.add': () => user.click(screen.getByRole('button', { name: PROFILE_TEXTS.add('Email') })),
          'factor.remove': () => user.click(screen.getByRole('button', { name: /^Remove Phone/ })),
          'removal.confirm': () => user.click(screen.getByRole('button', { name: PROFILE_TEXTS.confirmRemove })),
          'removal.cancel': () => user.click(screen.getByRole('button', { name: PROFILE_TEXTS.cancel })),
          'password.change': () => user.click(screen.getByRole('button', { name: PROFILE_TEXTS.changePassword })),
          'done: startEnrolment': async () => {
            const [type, nonce] = calls.calls('addAuthenticationFactor').at(-1) ?? [];
            expect(type).toBe('Email');
            expect(nonce).toMatch(/^[A-Za-z0-9_-]{32}$/);
            await calls.settle('addAuthenticationFactor', { value: HOSTED });
          },
          'error: startEnrolment': async () => {
            await calls.settle('addAuthenticationFactor', { error: refused });
            await waitFor(() => expect(toastTexts()).toContain(FACTOR_TEXTS.nonceUsed));
          },
          'done: removeFactor': async ({ event }) => {
            expect(calls.calls('removeAuthenticationFactor').at(-1)?.[0]).toBe(PHONE_ID);
            const hosted = (event as unknown as { output: { hostedUrl: string | null } }).output.hostedUrl;
            await calls.settle('removeAuthenticationFactor', { value: hosted ?? BACK_HERE });
            if (hosted === null) await waitFor(() => expect(toastTexts()).toContain(FACTOR_TEXTS.removed));
          },
          'error: removeFactor': async () => {
            await calls.settle('removeAuthenticationFactor', { error: refused });
            await waitFor(() => expect(toastTexts()).toContain(FACTOR_TEXTS.nonceUsed));
          },
          'done: startPasswordChange': () => calls.settle('startPasswordChange', { value: PASSWORD_PAGE }),
          'error: startPasswordChange': async () => {
            await calls.settle('startPasswordChange', { error: unavailable });
            await waitFor(() => expect(toastTexts()).toContain('Unable to open the password change'));
          },
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
