import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { partnerProfileMachine, selectHasFailed, selectIsNotFound, selectPartner } from '../../machines/partner-profile';
import { HttpError } from '../../src/contract/http-error';
import { samplePartner, sampleRelationship } from '../support/profile-fixtures';

const start = (load: () => Promise<unknown>) =>
  createActor(partnerProfileMachine.provide({ actors: { loadPartner: fromPromise(load as never) } }), {
    input: { relationshipId: sampleRelationship.id },
  }).start();

describe('partner profile machine', () => {
  it("shows the relationship and the partner's profile", async () => {
    const actor = start(async () => ({ relationship: sampleRelationship, partner: samplePartner }));
    await waitFor(actor, (snapshot) => snapshot.matches('viewing'));
    expect(selectPartner(actor.getSnapshot())?.partner.name).toBe('Bayside Servicing');
  });

  it('tells a relationship of other organizations (404) from a failure that may be retried', async () => {
    const missing = start(async () => Promise.reject(new HttpError(404, '{"message":"Relationship not found."}')));
    await waitFor(missing, selectIsNotFound);
    let attempts = 0;
    const flaky = start(async () => {
      attempts += 1;
      if (attempts === 1) throw new HttpError(500, '{}');
      return { relationship: sampleRelationship, partner: samplePartner };
    });
    await waitFor(flaky, selectHasFailed);
    flaky.send({ type: 'partner.retry' });
    await waitFor(flaky, (snapshot) => snapshot.matches('viewing'));
  });
});
