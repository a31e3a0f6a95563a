// The address autocomplete: suggestions from the reference table only (an address only a loan
// holds is never suggested), matched from the start whatever the case, commas and spacing.
import { beforeAll, describe, expect, it } from 'vitest';
import { addressSuggestionsSchema } from '../../src/contract/address-lookup';
import { SERVICER_LOOKUP_PATHS } from '../../src/contract/paths';
import { insertAddresses } from '../../src/server/db/address-repository';
import { insertLoan } from './support/loan-rows';
import { useRouteTest } from './support/route-test';

const server = useRouteTest();
const suggest = async (partialAddress: string) => {
  const response = await server.anonymous.get(SERVICER_LOOKUP_PATHS.addresses, { query: { partialAddress } });
  expect(response.statusCode).toBe(200);
  return addressSuggestionsSchema.parse(response.json()).items;
};

beforeAll(async () => {
  await insertAddresses(server.db, [
    { street1: '4719 Oak Rd', street2: 'Apt 40C', city: 'Portland', state: 'OR', zip: '97206' },
    { street1: '4719 Oak Rd', street2: null, city: 'Portland', state: 'OR', zip: '97206' },
    { street1: '4720 Oakmont Ave', street2: null, city: 'Salem', state: 'OR', zip: '97301' },
    { street1: '100% Pure Way', street2: null, city: 'Austin', state: 'TX', zip: '78701' },
  ]);
  // Only a loan holds this address: the autocomplete must not tell.
  await insertLoan(server.db, {
    propertyStreet1: '4719 Oakhidden Ln',
    propertyCity: 'Portland',
    propertyState: 'OR',
    propertyZip: '97206',
    parties: [],
  });
});

describe('GET address-lookup addresses', () => {
  it('suggests reference addresses by prefix, case, commas and spacing ignored, with the fields the form fills', async () => {
    const items = await suggest('4719  OAK rd,');
    expect(items).toEqual([
      {
        fullAddress: '4719 Oak Rd Apt 40C, Portland, OR 97206',
        street1: '4719 Oak Rd Apt 40C',
        city: 'Portland',
        state: 'OR',
        zip: '97206',
      },
      { fullAddress: '4719 Oak Rd, Portland, OR 97206', street1: '4719 Oak Rd', city: 'Portland', state: 'OR', zip: '97206' },
    ]);
    expect((await suggest('4719 oak rd apt 40c portland')).map((item) => item.zip)).toEqual(['97206']);
  });

  it('never answers from the loans', async () => {
    expect(await suggest('4719 Oakh')).toEqual([]);
    expect((await suggest('4719 Oa')).map((item) => item.street1)).not.toContain('4719 Oakhidden Ln');
  });

  it('suggests a loan’s address once the reference table holds it, as it holds any other', async () => {
    await insertLoan(server.db, {
      propertyStreet1: '4721 Oakshared Ln',
      propertyCity: 'Portland',
      propertyState: 'OR',
      propertyZip: '97206',
      parties: [],
    });
    expect(await suggest('4721 Oaks')).toEqual([]);
    await insertAddresses(server.db, [{ street1: '4721 Oakshared Ln', street2: null, city: 'Portland', state: 'OR', zip: '97206' }]);
    expect(await suggest('4721 Oaks')).toEqual([
      { fullAddress: '4721 Oakshared Ln, Portland, OR 97206', street1: '4721 Oakshared Ln', city: 'Portland', state: 'OR', zip: '97206' },
    ]);
    // The loan's own spelling of the hidden address still gets nothing.
    expect(await suggest('4719 Oakhidden')).toEqual([]);
  });

  it('suggests nothing for fewer than 3 characters, treats % and _ literally, refuses a missing parameter', async () => {
    expect(await suggest('47')).toEqual([]);
    expect(await suggest('4%')).toEqual([]);
    expect((await suggest('100%')).map((item) => item.city)).toEqual(['Austin']);
    expect((await server.anonymous.get(SERVICER_LOOKUP_PATHS.addresses)).statusCode).toBe(400);
  });
});
