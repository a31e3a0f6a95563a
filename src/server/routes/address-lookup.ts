// The address autocomplete (ARCHITECTURE section 6: /address-lookup/api/v1/addresses): public, as
// the servicer lookup it serves. It searches the address reference table only, never the loans,
// so a suggestion says nothing about which property carries a registered loan.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ADDRESS_LOOKUP_LIMIT,
  ADDRESS_LOOKUP_MIN_CHARACTERS,
  addressLookupQuerySchema,
  addressSearchKey,
  addressSuggestionsSchema,
  type AddressSuggestions,
} from '../../contract/address-lookup';
import { errorBodySchema } from '../../contract/common';
import { SERVICER_LOOKUP_PATHS } from '../../contract/paths';

export async function addressLookupRoutes(app: FastifyInstance): Promise<void> {
  const addresses = app.repositories.addresses;
  app.withTypeProvider<ZodTypeProvider>().get(
    SERVICER_LOOKUP_PATHS.addresses,
    {
      config: { access: 'public' },
      schema: {
        tags: ['servicer lookup'],
        summary: 'Address suggestions for a partial address (the lookup form’s autocomplete)',
        description:
          `From the address reference table (postal addresses, filled by the seed or \`npm run addresses:import\`), ` +
          `never from the loans. Matched from the start of "street, unit, city, state zip" (case, commas and spacing ` +
          `ignored); fewer than ${ADDRESS_LOOKUP_MIN_CHARACTERS} characters suggest nothing; at most ${ADDRESS_LOOKUP_LIMIT}.`,
        querystring: addressLookupQuerySchema,
        response: { 200: addressSuggestionsSchema, 400: errorBodySchema },
      },
    },
    async (request): Promise<AddressSuggestions> => {
      const key = addressSearchKey(request.query.partialAddress);
      if (key.length < ADDRESS_LOOKUP_MIN_CHARACTERS) return { items: [] };
      const rows = await addresses.searchAddresses(key, ADDRESS_LOOKUP_LIMIT);
      return {
        items: rows.map((row) => ({
          fullAddress: `${row.street1}${row.street2 ? ` ${row.street2}` : ''}, ${row.city}, ${row.state} ${row.zip}`,
          street1: row.street2 ? `${row.street1} ${row.street2}` : row.street1,
          city: row.city,
          state: row.state,
          zip: row.zip,
        })),
      };
    },
  );
}
