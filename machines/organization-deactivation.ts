// /administration/organizations/:organizationUuid/delete (SPEC sections 2 and 4): the organization
// is read, what deactivating it means is said, and only a confirmation sets isActive false. Then a
// toast and the list; a failure says so and the confirmation can be given again. An organization
// already inactive says so (its edit page offers reactivation).
import { assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { isNotFound } from '../src/contract/http-error';
import type { Participant } from '../src/contract/participants';
import { ORGANIZATION_TEXTS as T } from '../src/domain/administration-texts';
import { toastShow } from './toasts';

export interface OrganizationDeactivationInput {
  readonly organizationId: string;
}

export interface OrganizationDeactivationContext {
  readonly organizationId: string;
  readonly organization: Participant | null;
}

export type OrganizationDeactivationEvent = { type: 'deactivation.confirm' } | { type: 'load.retry' };

export const organizationDeactivationMachine = setup({
  types: {
    input: {} as OrganizationDeactivationInput,
    context: {} as OrganizationDeactivationContext,
    events: {} as OrganizationDeactivationEvent,
  },
  actors: {
    // Provided by the app: GET v2 /participants/{participantId}.
    loadOrganization: fromPromise<Participant, { id: string }>(async () => {
      throw new Error('loadOrganization is provided by the app');
    }),
    // Provided by the app: PATCH v2 /participants/{participantId} { isActive: false }.
    deactivateOrganization: fromPromise<Participant, { id: string }>(async () => {
      throw new Error('deactivateOrganization is provided by the app');
    }),
  },
  actions: {
    keepOrganization: assign({ organization: ({ event }) => (event as unknown as { output: Participant }).output }),
    notifyDeactivated: sendTo(({ system }) => system.get('toasts'), toastShow('success', T.deactivated)),
    notifyFailed: sendTo(({ system }) => system.get('toasts'), toastShow('error', T.deactivateFailed)),
    /** Provided by the screen: to the organization list. */
    goToList: () => undefined,
  },
  guards: {
    isNotFound: ({ event }) => 'error' in event && isNotFound(event.error),
    isInactive: ({ event }) => 'output' in event && (event.output as Participant).isActive === false,
  },
}).createMachine({
  id: 'organizationDeactivation',
  context: ({ input }) => ({ organizationId: input.organizationId, organization: null }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadOrganization',
        input: ({ context }) => ({ id: context.organizationId }),
        onDone: [
          { guard: 'isInactive', target: 'alreadyInactive', actions: 'keepOrganization' },
          { target: 'confirming', actions: 'keepOrganization' },
        ],
        onError: [{ guard: 'isNotFound', target: 'notFound' }, { target: 'loadFailed' }],
      },
    },
    notFound: { type: 'final' },
    loadFailed: { on: { 'load.retry': 'loading' } },
    alreadyInactive: { type: 'final' },
    /** What it means is said; nothing happens until it is confirmed. */
    confirming: { on: { 'deactivation.confirm': 'deactivating' } },
    deactivating: {
      tags: ['busy'],
      invoke: {
        src: 'deactivateOrganization',
        input: ({ context }) => ({ id: context.organizationId }),
        onDone: { target: 'deactivated', actions: ['notifyDeactivated', 'goToList'] },
        onError: { target: 'failed', actions: 'notifyFailed' },
      },
    },
    failed: { on: { 'deactivation.confirm': 'deactivating' } },
    deactivated: { type: 'final' },
  },
});

export type OrganizationDeactivationSnapshot = SnapshotFrom<typeof organizationDeactivationMachine>;

export const selectDeactivationOrganization = (snapshot: OrganizationDeactivationSnapshot): Participant | null =>
  snapshot.context.organization;
export const selectIsDeactivating = (snapshot: OrganizationDeactivationSnapshot): boolean => snapshot.hasTag('busy');
