// @vitest-environment jsdom
// Model-based test of the partner-profile machine through the signed-in app: the partner view
// (APP_PATHS.partnerProfile) loads a relationship and its partner's profile, read only (SPEC
// section 6: no Update button), says 'not found' for a relationship the organization is not part
// of, and retries another failure; over a fake API whose calls the test settles.
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { partnerProfileMachine } from '../../machines/partner-profile';
import type { HttpError } from '../../src/contract/http-error';
import { APP_PATHS } from '../../src/domain/app-paths';
import { PROFILE_TEXTS as T } from '../../src/domain/administration-texts';
import { createModelWalker } from '../machines/support/model-coverage';
import { notFound, walk } from '../machines/walks/partner-profile';
import { samplePartner, sampleRelationship } from '../support/profile-fixtures';
import { sampleOrganization } from '../support/session-fixtures';
import { deferProductCalls } from './support/deferred-api';
import { renderSignedIn } from './support/render-app';

const organization = sampleOrganization(1, true);

const walker = createModelWalker(partnerProfileMachine, walk);

const user = userEvent.setup();

async function openPartner() {
  const app = await renderSignedIn([organization]);
  const calls = deferProductCalls(app.fake.api, ['relationship', 'partnerProfile']);
  await act(() => app.router.navigate(APP_PATHS.partnerProfile(sampleRelationship.id)));
  await screen.findByRole('heading', { level: 1, name: T.partnerTitle });
  return { app, calls };
}

beforeAll(async () => {
  await Promise.all([
    import('../../src/web/app/authenticated-shell'),
    import('../../src/web/screens/organization-profile/partner-profile-screen'),
  ]);
});

describe('partner-profile machine, driven through the partner view', () => {
  afterEach(cleanup);

  for (const path of walker.paths) {
    it(path.description, async () => {
      const { calls } = await openPartner();
      await path.test({
        states: {
          loading: () => expect(screen.getByText('Loading the partner profile…')).toBeInTheDocument(),
          viewing: async () => {
            await screen.findByRole('heading', { level: 2, name: T.additionalContacts });
            expect(screen.getByText(samplePartner.email)).toBeInTheDocument();
            expect(screen.getByText(/SERVICING relationship with Bayside Servicing: CONFIRMED/)).toBeInTheDocument();
            // Read only: no Update, no contact actions.
            expect(screen.queryByRole('button', { name: /Update|Edit contact|Remove contact|Add contact/ })).not.toBeInTheDocument();
            expect(calls.calls('relationship').at(-1)?.[0]).toBe(sampleRelationship.id);
          },
          notFound: () => {
            expect(screen.getByRole('alert')).toHaveTextContent(T.relationshipNotFound);
            expect(screen.getByRole('link', { name: T.backToProfile })).toHaveAttribute('href', APP_PATHS.organizationProfile);
          },
          failed: () => expect(screen.getByText(T.loadFailed)).toBeInTheDocument(),
        },
        events: {
          'done: loadPartner': async () => {
            await calls.settle('relationship', { value: sampleRelationship });
            await calls.settle('partnerProfile', { value: samplePartner });
            await screen.findByRole('heading', { level: 2, name: T.additionalContacts });
          },
          'error: loadPartner': async ({ event }) => {
            const { error } = event as unknown as { error: HttpError };
            await calls.settle('relationship', { error });
            await calls.settle('partnerProfile', { error });
            await screen.findByText(error === notFound ? T.relationshipNotFound : T.loadFailed);
          },
          'partner.retry': () => user.click(screen.getByRole('button', { name: 'Try again' })),
        },
      });
    });
  }

  it('walks every transition and asserts every state', () => {
    walker.expectFullCoverage();
    walker.expectEveryStateAsserted();
  });
});
