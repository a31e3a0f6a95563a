// The address autocomplete's call: our route by default, an external provider of the same answer
// when ADDRESS_LOOKUP_URL is set at build time (no cookies sent to it), its answer parsed by
// the contract, a refusal raised as HttpError.
import ky from 'ky';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAddressLookup } from '../../src/client/address-lookup';
import { HttpError } from '../../src/contract/http-error';
import { SERVICER_LOOKUP_PATHS } from '../../src/contract/paths';

const ITEM = { fullAddress: '1542 Maple Ave, Albany, NY 12203', street1: '1542 Maple Ave', city: 'Albany', state: 'NY', zip: '12203' };

function answering(status: number, body: unknown) {
  const requests: Request[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { requests, kyInstance: ky.create({ fetch }) };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('address lookup', () => {
  it('asks the configured URL with partialAddress and returns the items', async () => {
    const { requests, kyInstance } = answering(200, { items: [ITEM] });
    const lookup = createAddressLookup('https://addresses.example/v1/addresses', kyInstance);
    expect(await lookup('1542 Maple')).toEqual([ITEM]);
    const url = new URL(requests[0]?.url ?? '');
    expect(`${url.origin}${url.pathname}`).toBe('https://addresses.example/v1/addresses');
    expect(url.searchParams.get('partialAddress')).toBe('1542 Maple');
    expect(requests[0]?.credentials).toBe('same-origin');
  });

  it('raises a refusal as HttpError and an answer of another shape as an error', async () => {
    await expect(
      createAddressLookup('http://registry.test/a', answering(503, { message: 'down' }).kyInstance)('1542 Maple'),
    ).rejects.toEqual(new HttpError(503, JSON.stringify({ message: 'down' })));
    await expect(createAddressLookup('http://registry.test/a', answering(200, { results: [] }).kyInstance)('1542 Maple')).rejects.toThrow();
  });

  it('uses our address-lookup route unless ADDRESS_LOOKUP_URL names a provider', async () => {
    vi.stubEnv('ADDRESS_LOOKUP_URL', '');
    vi.stubEnv('VITE_SERVICE_BASE_URL', '');
    expect((await import('../../src/web/config')).ADDRESS_LOOKUP_URL).toBe(SERVICER_LOOKUP_PATHS.addresses);
    vi.resetModules();
    vi.stubEnv('ADDRESS_LOOKUP_URL', 'https://addresses.example/v1/addresses');
    expect((await import('../../src/web/config')).ADDRESS_LOOKUP_URL).toBe('https://addresses.example/v1/addresses');
  });
});
