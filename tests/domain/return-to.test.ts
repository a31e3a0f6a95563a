// The screen a 401 interrupted rides to the login screen and through the sign-in: only the app's own paths.
import { describe, expect, it } from 'vitest';
import { APP_PATHS, appReturnTo, loginRedirectWithReturn } from '../../src/domain/app-paths';

describe('appReturnTo', () => {
  it("keeps the app's own screens, with their query", () => {
    expect(appReturnTo('/assets/assets?page=2&limit=20')).toBe('/assets/assets?page=2&limit=20');
    // Dots inside a segment or in the query are not dot segments.
    expect(appReturnTo('/assets/assets?query=../x')).toBe('/assets/assets?query=../x');
    expect(appReturnTo('/messages/...')).toBe('/messages/...');
    expect(appReturnTo(APP_PATHS.asset('5f0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f', 'history'))).toBe(
      '/assets/asset/5f0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f/details/history',
    );
  });

  it('refuses other origins, control characters, the login screen and what is too long', () => {
    for (const value of [
      null,
      undefined,
      '',
      'assets/assets',
      '//evil.test/registry/dashboard',
      '/\\evil.test',
      'https://evil.test/',
      '/assets\r\nSet-Cookie: x=1',
      '/login',
      '/login?unauthorized=true',
      `/assets/assets?query=${'a'.repeat(1100)}`,
      '/assets/../login',
      '/../healthz',
      '/assets/./assets',
      '/assets/%2e%2E/%2e%2e/healthz',
      '/assets/.%2e',
      '/assets/..',
    ]) {
      expect(appReturnTo(value), String(value)).toBeNull();
    }
  });
});

describe('loginRedirectWithReturn', () => {
  it('after a 401, adds the interrupted screen to the unauthorized login', () => {
    expect(loginRedirectWithReturn(APP_PATHS.loginUnauthorized, '/assets/pools?page=3')).toBe(
      '/login?unauthorized=true&returnTo=%2Fassets%2Fpools%3Fpage%3D3',
    );
  });

  it('leaves it out for the dashboard, a sign-out or unregistered account, and a path it may not keep', () => {
    expect(loginRedirectWithReturn(APP_PATHS.loginUnauthorized, APP_PATHS.dashboard)).toBe(APP_PATHS.loginUnauthorized);
    expect(loginRedirectWithReturn(APP_PATHS.login, '/messages')).toBe(APP_PATHS.login);
    expect(loginRedirectWithReturn(APP_PATHS.loginUnauthorized, '//evil.test')).toBe(APP_PATHS.loginUnauthorized);
  });
});
