// The partner view's actors over the app's services: the relationship and its partner's profile.
import { fromPromise } from 'xstate';
import { partnerProfileMachine } from '../../../../machines/partner-profile';
import type { AppServices } from '../../app/services';

export const partnerProfileActors = ({ api }: Pick<AppServices, 'api'>) =>
  partnerProfileMachine.provide({
    actors: {
      loadPartner: fromPromise(async ({ input, signal }) => {
        const [relationship, partner] = await Promise.all([
          api.relationship(input.relationshipId, signal),
          api.partnerProfile(input.relationshipId, signal),
        ]);
        return { relationship, partner };
      }),
    },
  });
