// The public servicer lookup (SPEC sections 3, 5 and 7; ARCHITECTURE section 6): anyone may ask
// who services a loan, but only with a last name and the property address, and a scraper may not
// walk the registry. So: the answer names only the servicer (never a borrower, the loan number
// masked), every answer takes at least a fixed time, limits per client address and per (last
// name, zip) are counted in PostgreSQL (every server shares them), each lookup spends a
// self-hosted ALTCHA proof of work once, and every lookup is recorded without the name.
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../contract/common';
import { SERVICER_LOOKUP_PATHS } from '../../contract/paths';
import {
  ALTCHA_HEADER,
  ALTCHA_QUERY,
  lookupChallengeSchema,
  servicerLookupQuerySchema,
  servicerLookupResultsSchema,
  type ServicerLookupResult,
} from '../../contract/servicer-lookup';
import { lastNameKey, maskLoanNumber, SERVICER_LOOKUP_TEXTS as T, zip5 } from '../../domain/servicer-lookup';
import { ApiError, badRequest } from '../http-errors';
import type { ServicerLookupSettings } from '../servicer-lookup-settings';

const SECRET_NAME = 'altcha-hmac';
const errors = { 400: errorBodySchema, 429: errorBodySchema };

const PRIVACY =
  'Our privacy decision: the answer tells nothing the caller did not already name. It holds no borrower or ' +
  'co-borrower name and nothing else of the loan than its ULI, its type and its loan number masked but for its ' +
  'last 4 characters; the servicer is shown with its public profile (url, city and state, phone).';

const MATCHING =
  'A loan matches when it is active, the last name is its borrower’s or a co-borrower’s (case, accents and spacing ' +
  'ignored), and its property address has the same normalised key: USPS street suffixes and directionals ' +
  'abbreviated (Street = St, North = N), unit designators made one (Apt 4 = Unit 4 = #4, in either address line), ' +
  'case and punctuation ignored, ZIP+4 cut to the ZIP. Exact on that key, never fuzzy. The city is not compared ' +
  '(one ZIP has several accepted city names).';

const ABUSE =
  `Every answer takes at least a fixed time (timing tells nothing). Lookups are limited per client address and per ` +
  `(last name, zip), across every server: 429 with Retry-After. Each lookup needs an unused ALTCHA solution to a ` +
  `challenge from GET ${SERVICER_LOOKUP_PATHS.servicerLookupChallenge}, sent base64 as the ALTCHA widget makes it, in ` +
  `the \`${ALTCHA_HEADER}\` header or the \`${ALTCHA_QUERY}\` query parameter; a solution is spent by its first lookup.`;

interface ClientPayload {
  readonly challenge: Challenge;
  readonly solution: Solution;
}

function parsePayload(encoded: string): ClientPayload | null {
  try {
    const payload = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as Partial<ClientPayload>;
    if (!payload || typeof payload !== 'object' || !payload.challenge?.parameters || !payload.solution) return null;
    return payload as ClientPayload;
  } catch {
    return null;
  }
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

const payloadOf = (request: FastifyRequest, query: { altcha?: string | undefined }): string | undefined => {
  const header = request.headers[ALTCHA_HEADER];
  return (typeof header === 'string' && header) || query.altcha || undefined;
};

export async function servicerLookupRoutes(app: FastifyInstance, settings: ServicerLookupSettings): Promise<void> {
  const lookups = app.repositories.servicerLookup;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  let secret: Promise<string> | undefined;
  // Read on first use (the table exists once the server migrated); one secret for every server.
  const secrets = () => {
    secret ??= lookups.sharedSecret(SECRET_NAME).catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret.then((value) => ({ hmacSignatureSecret: value, hmacKeySignatureSecret: sha256(`${value}:key`) }));
  };

  routes.get(
    SERVICER_LOOKUP_PATHS.servicerLookupChallenge,
    {
      config: { access: 'public' },
      schema: {
        tags: ['servicer lookup'],
        summary: 'A proof-of-work challenge for one servicer lookup (ALTCHA, self-hosted)',
        description: `The ALTCHA widget's challenge URL. Stateless until spent: ${ABUSE}`,
        response: { 200: lookupChallengeSchema },
      },
    },
    async (_request, reply) => {
      const keys = await secrets();
      const challenge = await createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: settings.challengeCost,
        counter: randomInt(settings.challengeMaxCounter, Math.floor(settings.challengeMaxCounter / 2)),
        deriveKey,
        expiresAt: new Date(Date.now() + settings.challengeTtlMs),
        ...keys,
      });
      void reply.header('cache-control', 'no-store');
      return challenge;
    },
  );

  routes.get(
    SERVICER_LOOKUP_PATHS.servicerLookup,
    {
      config: { access: 'public' },
      schema: {
        tags: ['servicer lookup'],
        summary: 'Who services the loan of this borrower at this address (public)',
        description: `${MATCHING}\n\n${PRIVACY}\n\n${ABUSE}\n\nMissing or invalid fields answer 400 naming each with SPEC's message.`,
        querystring: servicerLookupQuerySchema,
        response: { 200: servicerLookupResultsSchema, ...errors },
      },
      // The floor covers every answer of this route, the 400s and 429s included.
      onSend: async (_request, reply, payload) => {
        const wait = settings.timeFloorMs - reply.elapsedTime;
        if (wait > 0) await sleep(wait);
        return payload;
      },
    },
    async (request, reply): Promise<ServicerLookupResult[]> => {
      const query = request.query;
      const address = {
        street1: query['address.street1'],
        street2: query['address.street2'] ?? null,
        city: query['address.city'],
        state: query['address.state'],
        zip: query['address.zip'],
      };
      const record = (found: boolean, refusal: 'limited' | 'challenge' | null) =>
        lookups.recordLookup({ clientAddress: request.ip, ...address, found, refusal });

      const refusal = await checkChallenge(payloadOf(request, query));
      if (refusal) {
        await record(false, 'challenge');
        throw badRequest(refusal);
      }

      const nameKey = lastNameKey(query.borrowerLastName);
      const [byClient, byNameZip] = await Promise.all([
        lookups.countLookup([`client:${request.ip}`], settings.clientWindowMs),
        lookups.countLookup([`name-zip:${sha256(`${nameKey}|${zip5(address.zip)}`)}`], settings.nameZipWindowMs),
      ]);
      const over = [
        ...byClient.filter((count) => count.count > settings.clientLimit),
        ...byNameZip.filter((count) => count.count > settings.nameZipLimit),
      ];
      if (over.length > 0) {
        await record(false, 'limited');
        void reply.header('retry-after', String(Math.max(...over.map((count) => count.retryAfterSeconds))));
        throw new ApiError(429, T.tooManyLookups);
      }

      const candidates = await lookups.findActiveLoansAtAddress(address);
      const matches = candidates.filter(
        (loan) => loan.servicerName !== null && loan.lastNames.some((name) => lastNameKey(name) === nameKey),
      );
      await record(matches.length > 0, null);
      return matches.map((loan) => ({
        uli: loan.uli,
        loanType: loan.loanType,
        loanNumber: maskLoanNumber(loan.loanNumber),
        servicerName: loan.servicerName ?? '',
        servicerProfile: {
          url: loan.servicerUrl,
          address: { city: loan.servicerCity, state: loan.servicerState },
          phoneNumber: loan.servicerPhone,
        },
      }));
    },
  );

  /** Null when the payload solves an unexpired challenge of ours that no lookup spent yet; else what is wrong. */
  async function checkChallenge(encoded: string | undefined): Promise<string | null> {
    if (!encoded) return T.challengeRequired;
    const payload = parsePayload(encoded);
    if (!payload) return T.challengeInvalid;
    const keys = await secrets();
    const verified = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, ...keys }).then(
      (result) => result.verified,
      () => false,
    );
    if (!verified) return T.challengeInvalid;
    const expiresAt = payload.challenge.parameters.expiresAt;
    const until = new Date(typeof expiresAt === 'number' ? expiresAt * 1000 : Date.now() + settings.challengeTtlMs);
    const fresh = await lookups.spendChallenge(`${payload.challenge.parameters.nonce}`, until);
    return fresh ? null : T.challengeUsed;
  }
}
