// The actors of the profile's security factors over the app's services: the calls through the
// API (each redirecting call answers where it ended), the nonce this browser keeps for the round
// trip through the hosted pages, and the way to them.
import { fromPromise } from 'xstate';
import { securityFactorsMachine, type Redirected } from '../../../../machines/security-factors';
import { APP_PATHS } from '../../../domain/app-paths';
import { BASE_PATH } from '../../../domain/constants';
import type { AppServices } from '../../app/services';

export const FACTORS_HEADING_ID = 'security-factors-heading';
export const REMOVAL_QUESTION_ID = 'security-factors-removal';
const NONCE_KEY = 'registry.externalStateNonce';

/** Leaves the app for a hosted identity page (replaced in tests). */
export const hostedNavigation = {
  open(url: string): void {
    window.location.assign(url);
  },
};

/** 24 random bytes, base64url: the state of one round trip, kept in this tab until it returns. */
function freshNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const nonce = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  try {
    sessionStorage.setItem(NONCE_KEY, nonce);
  } catch {
    // Storage refused (a private window): the return is not checked, nothing else changes.
  }
  return nonce;
}

/** Whether the page was reached back from a hosted page, with the nonce this tab sent; the nonce is spent either way. */
export function returnedFrom(search: string): 'matched' | 'mismatched' | null {
  const returned = new URLSearchParams(search).get('externalStateNonce');
  if (returned === null) return null;
  let expected: string | null;
  try {
    expected = sessionStorage.getItem(NONCE_KEY);
    sessionStorage.removeItem(NONCE_KEY);
  } catch {
    expected = null;
  }
  return expected !== null && expected === returned ? 'matched' : 'mismatched';
}

/** A redirect that ended on the profile finished here; anywhere else is a hosted page to open. */
export function redirected(url: string): Redirected {
  const ended = new URL(url, window.location.href);
  return { hostedUrl: ended.pathname === `${BASE_PATH}${APP_PATHS.profile}` ? null : ended.toString() };
}

const focusLater = (id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0);

export function securityFactorsActors({ api }: Pick<AppServices, 'api'>) {
  return securityFactorsMachine.provide({
    actors: {
      loadFactors: fromPromise(({ signal }) => api.authenticationFactors(signal)),
      startEnrolment: fromPromise(async ({ input, signal }) =>
        redirected(await api.addAuthenticationFactor(input.factorType, freshNonce(), signal)),
      ),
      removeFactor: fromPromise(async ({ input, signal }) =>
        redirected(await api.removeAuthenticationFactor(input.factorId, freshNonce(), signal)),
      ),
      startPasswordChange: fromPromise(async ({ signal }) => redirected(await api.startPasswordChange(signal))),
    },
    actions: {
      openHostedPage: (_, { url }) => hostedNavigation.open(url),
      focusList: () => focusLater(FACTORS_HEADING_ID),
      focusRemoval: () => focusLater(REMOVAL_QUESTION_ID),
    },
  });
}
