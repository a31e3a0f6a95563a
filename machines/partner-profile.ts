// The partner view (SPEC sections 2, 6 and 7): a relationship of the acting organization and its
// partner's profile (GET v1 /relationships/{id} and /partnerProfile), read only: no Update button
// is ever offered. A relationship the organization is not part of answers 404 like an unknown
// one: 'not found', with a way back; another failure can be retried.
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { isNotFound } from '../src/contract/http-error';
import type { PartnerProfile, Relationship } from '../src/contract/profile';

export interface PartnerProfileInput {
  readonly relationshipId: string;
}

export interface LoadedPartner {
  readonly relationship: Relationship;
  readonly partner: PartnerProfile;
}

export interface PartnerProfileContext extends PartnerProfileInput {
  readonly loaded: LoadedPartner | null;
}

export type PartnerProfileEvent = { type: 'partner.retry' };

export const partnerProfileMachine = setup({
  types: {
    input: {} as PartnerProfileInput,
    context: {} as PartnerProfileContext,
    events: {} as PartnerProfileEvent,
  },
  actors: {
    // Provided by the app: the relationship and its partner's profile.
    loadPartner: fromPromise<LoadedPartner, PartnerProfileInput>(async () => {
      throw new Error('loadPartner is provided by the app');
    }),
  },
  actions: {
    keepLoaded: assign(({ event }) => ({ loaded: (event as unknown as { output: LoadedPartner }).output })),
  },
  guards: {
    isNotFound: ({ event }) => 'error' in event && isNotFound(event.error),
  },
}).createMachine({
  id: 'partner-profile',
  context: ({ input }) => ({ relationshipId: input.relationshipId, loaded: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadPartner',
        input: ({ context }) => ({ relationshipId: context.relationshipId }),
        onDone: { target: 'viewing', actions: 'keepLoaded' },
        onError: [{ guard: 'isNotFound', target: 'notFound' }, { target: 'failed' }],
      },
    },
    viewing: { type: 'final' },
    notFound: { type: 'final' },
    failed: { on: { 'partner.retry': { target: 'loading' } } },
  },
});

export type PartnerProfileSnapshot = SnapshotFrom<typeof partnerProfileMachine>;

export const selectPartner = (snapshot: PartnerProfileSnapshot): LoadedPartner | null => snapshot.context.loaded;
export const selectIsLoading = (snapshot: PartnerProfileSnapshot): boolean => snapshot.hasTag('loading');
export const selectIsNotFound = (snapshot: PartnerProfileSnapshot): boolean => snapshot.matches('notFound');
export const selectHasFailed = (snapshot: PartnerProfileSnapshot): boolean => snapshot.matches('failed');
