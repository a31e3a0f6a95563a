// The platform over HTTP: the real client for a base URL (and a ky instance, which tests give
// a fake fetch), plus the browser's hosted login and downloads in main.tsx.
import type { KyInstance } from 'ky';
import { createRegistryApi } from '../../client/api';
import { createHttpClient } from '../../client/http';
import type { AppPlatform } from './services';

export interface HttpPlatformOptions extends Omit<AppPlatform, 'createApi'> {
  readonly baseUrl: string;
  readonly ky?: KyInstance;
}

export function createHttpPlatform({ baseUrl, ky, startHostedLogin, download }: HttpPlatformOptions): AppPlatform {
  return {
    createApi: (session) => createRegistryApi(createHttpClient({ baseUrl, session }, ky)),
    startHostedLogin,
    download,
  };
}
