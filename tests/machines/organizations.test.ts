// The organization machines as actors with fake actors: the form's steps, rules and server
// errors, the list's URL codec and query, and the organization rules of the contract (SPEC 5).
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { organizationFormMachine, selectFormStep, selectOrganizationErrors, type OrganizationSave } from '../../machines/organization-form';
import {
  organizationsQueryOf,
  parseOrganizationsView,
  serializeOrganizationsView,
  type OrganizationsView,
} from '../../machines/organizations-list';
import { HttpError } from '../../src/contract/http-error';
import {
  EMPTY_ORGANIZATION_DRAFT,
  organizationErrors,
  parseOrganizationErrors,
  phoneDigits,
  type OrganizationDraft,
} from '../../src/contract/organizations';
import type { Participant } from '../../src/contract/participants';
import { ORGANIZATION_TEXTS as T } from '../../src/domain/administration-texts';

const NEW_ID = 'b7f1c2d3-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const VALID: OrganizationDraft = {
  participantName: 'Quayside Lending',
  organizationName: 'Quayside Lending LLC',
  code: 'qsl',
  email: 'ops@quayside.test',
  phoneNumber: '(415) 555-0142',
  address: { street: '9 Harbor Road', street2: '', city: 'Oakland', state: 'CA', zip: '94607-1234' },
  grantedLimitedPowerOfAttorney: true,
};

describe('the organization rules (SPEC section 5)', () => {
  it("gives SPEC's messages, and ours where SPEC names a rule without one", () => {
    expect(organizationErrors(EMPTY_ORGANIZATION_DRAFT)).toEqual({
      code: T.codeLength,
      participantName: T.nameRequired,
      organizationName: T.organizationNameRequired,
      email: T.emailRequired,
      phoneNumber: T.phoneRequired,
      'address.street': T.streetRequired,
      'address.city': T.cityRequired,
      'address.state': T.invalidState,
      'address.zip': T.invalidZip,
    });
    expect(organizationErrors(VALID)).toEqual({});
    expect(
      organizationErrors({ ...VALID, email: 'x@', phoneNumber: '555-0142', address: { ...VALID.address, state: 'XX', zip: '1234' } }),
    ).toEqual({ email: T.invalidEmail, phoneNumber: T.invalidPhone, 'address.state': T.invalidState, 'address.zip': T.invalidZip });
  });

  it('takes a phone of 10 digits, or 11 starting with 1', () => {
    expect(phoneDigits('(415) 555-0142')).toBe('4155550142');
    expect(phoneDigits('+1 415 555 0142')).toBe('4155550142');
    expect(phoneDigits('24155550142')).toBeNull();
    expect(phoneDigits('415555014')).toBeNull();
    expect(phoneDigits('415-555-014x')).toBeNull();
  });

  it("reads a server 400's fields back", () => {
    expect(parseOrganizationErrors(`body.code: ${T.codeLength}; body.address.zip: ${T.invalidZip}; body.other: x`)).toEqual({
      code: T.codeLength,
      'address.zip': T.invalidZip,
    });
  });
});

describe('organizations list view', () => {
  it('reads and writes the URL, defaults left out', () => {
    const view: OrganizationsView = {
      page: 2,
      limit: 20,
      query: 'harbor',
      status: 'inactive',
      sort: { column: 'code', direction: 'desc' },
    };
    expect(parseOrganizationsView(serializeOrganizationsView(view))).toEqual(view);
    expect(serializeOrganizationsView(parseOrganizationsView(''))).toBe('');
    expect(parseOrganizationsView('?status=gone&sortBy=email')).toMatchObject({ status: 'active', sort: null });
    expect(organizationsQueryOf(view)).toEqual({
      limit: 20,
      offset: 20,
      status: 'inactive',
      sort: 'code',
      direction: 'desc',
      query: 'harbor',
    });
  });
});

function startForm(save: (input: OrganizationSave) => Promise<Participant>, organizationId: string | null = null) {
  const saves: OrganizationSave[] = [];
  const navigations: string[] = [];
  const actor = createActor(
    organizationFormMachine.provide({
      actors: {
        loadOrganization: fromPromise<Participant, { id: string }>(async () => {
          throw new HttpError(404, '{"message":"Organization not found."}');
        }),
        saveOrganization: fromPromise(async ({ input }) => {
          saves.push(input);
          return save(input);
        }),
      },
      actions: {
        goToList: () => void navigations.push('list'),
        goToAddUsers: (_, { id }) => void navigations.push(`users:${id}`),
        // No app root here: the toasts are not asserted.
        notifyUpdated: () => undefined,
      },
    }),
    { input: { organizationId, newId: NEW_ID } },
  );
  return { actor: actor.start(), saves, navigations };
}

const change = (draft: OrganizationDraft) => ({
  type: 'form.change' as const,
  values: {
    code: draft.code,
    participantName: draft.participantName,
    organizationName: draft.organizationName,
    email: draft.email,
    phoneNumber: draft.phoneNumber,
    'address.street': draft.address.street,
    'address.city': draft.address.city,
    'address.state': draft.address.state,
    'address.zip': draft.address.zip,
  },
});

describe('organization form', () => {
  it('add: form, review, confirm, save with the browser-made id, then the Add users dialog', async () => {
    const { actor, saves, navigations } = startForm(async (input) => ({ id: input.id }) as Participant);
    expect(selectFormStep(actor.getSnapshot())).toBe('form');
    actor.send({ type: 'form.review' });
    expect(selectFormStep(actor.getSnapshot())).toBe('form');
    expect(selectOrganizationErrors(actor.getSnapshot()).code).toBe(T.codeLength);
    actor.send(change(VALID));
    actor.send({ type: 'form.powerOfAttorney', granted: true });
    actor.send({ type: 'form.review' });
    expect(selectFormStep(actor.getSnapshot())).toBe('review');
    expect(saves).toEqual([]);
    actor.send({ type: 'review.confirm' });
    await waitFor(actor, (snapshot) => snapshot.matches('offeringUsers'));
    expect(saves[0]).toMatchObject({ mode: 'add', id: NEW_ID, draft: { code: 'qsl', grantedLimitedPowerOfAttorney: true } });
    actor.send({ type: 'dialog.addUsers' });
    expect(navigations).toEqual([`users:${NEW_ID}`]);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('a 400 naming a field: Something went wrong, then the text under that field back on the form', async () => {
    const { actor } = startForm(async () => {
      throw new HttpError(400, JSON.stringify({ message: `body.code: ${T.codeLength}` }));
    });
    actor.send(change(VALID));
    actor.send({ type: 'form.review' });
    actor.send({ type: 'review.confirm' });
    await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    actor.send({ type: 'review.back' });
    expect(selectOrganizationErrors(actor.getSnapshot())).toEqual({ code: T.codeLength });
    actor.send({ type: 'form.change', values: { code: 'QSM' } });
    expect(selectOrganizationErrors(actor.getSnapshot())).toEqual({});
  });

  it('a 409 naming no field is said as the refusal', async () => {
    const { actor } = startForm(async () => {
      throw new HttpError(409, JSON.stringify({ message: T.codeTaken }));
    });
    actor.send(change(VALID));
    actor.send({ type: 'form.review' });
    actor.send({ type: 'review.confirm' });
    const failed = await waitFor(actor, (snapshot) => snapshot.matches('failed'));
    expect(failed.context.refusal).toBe(T.codeTaken);
  });

  it('edit: an unknown organization is not found', async () => {
    const { actor } = startForm(async () => ({}) as Participant, '00000000-0000-4000-8000-000000000009');
    await waitFor(actor, (snapshot) => snapshot.matches('notFound'));
    expect(selectFormStep(actor.getSnapshot())).toBe('notFound');
  });
});
