// @vitest-environment jsdom
// The lookup form's street field in the real app: the suggestions of the address-lookup service
// (a fake here) listed in the combobox after typing pauses, chosen with the keyboard to fill street,
// city, state and zip; an empty answer and a failure said in the field's status; a request in
// flight aborted by more typing.
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AddressSuggestion } from '../../src/contract/address-lookup';
import { APP_PATHS } from '../../src/domain/app-paths';
import { ADDRESS_AUTOCOMPLETE_TEXTS as A } from '../../src/domain/servicer-lookup';
import { renderApp } from './support/render-app';

const MAPLE: AddressSuggestion = {
  fullAddress: '1542 Maple Ave, Albany, NY 12203',
  street1: '1542 Maple Ave',
  city: 'Albany',
  state: 'NY',
  zip: '12203',
};
const MAPLE_UNIT: AddressSuggestion = { ...MAPLE, fullAddress: '1542 Maple Ave Apt 2, Albany, NY 12203', street1: '1542 Maple Ave Apt 2' };

const requests = vi.hoisted(
  () => [] as { query: string; signal: AbortSignal | undefined; settle: (answer: AddressSuggestion[] | Error) => void }[],
);
vi.mock('../../src/client/address-lookup', () => ({
  createAddressLookup: () => (query: string, signal?: AbortSignal) =>
    new Promise<AddressSuggestion[]>((resolve, reject) =>
      requests.push({ query, signal, settle: (answer) => (answer instanceof Error ? reject(answer) : resolve(answer)) }),
    ),
}));
// The proof-of-work widget is not what this test is about.
vi.mock('altcha', () => ({}));

const user = userEvent.setup();
const street = () => screen.getByRole('combobox', { name: /^Street/ });
const status = () => within(street().closest('div.flex') as HTMLElement).getByRole('status');
const live = () => requests.filter((request) => !request.signal?.aborted);

beforeAll(async () => {
  await import('../../src/web/screens/servicer-lookup/servicer-lookup-screen');
});

afterEach(() => {
  cleanup();
  requests.length = 0;
});

describe('the street field’s address autocomplete', () => {
  it('lists the suggestions after typing pauses and fills street, city, state and zip with the one chosen by keyboard', async () => {
    renderApp({ path: APP_PATHS.servicerLookup, organizations: [] });
    await screen.findByRole('heading', { level: 1, name: 'Servicer Lookup' });
    await user.type(street(), '1542 Ma');
    await waitFor(() => expect(requests).toHaveLength(1), { timeout: 2000 });
    // Asked once, for what was typed when the typing paused.
    expect(requests[0]?.query).toBe('1542 Ma');
    expect(status()).toHaveTextContent(A.searching);
    await act(async () => requests[0]?.settle([MAPLE, MAPLE_UNIT]));
    const list = await screen.findByRole('listbox', { name: A.listLabel });
    expect(
      within(list)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([MAPLE.fullAddress, MAPLE_UNIT.fullAddress]);
    expect(status()).toHaveTextContent(A.count(2));
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    await waitFor(() => expect(street()).toHaveValue(MAPLE_UNIT.street1));
    expect(screen.getByLabelText(/^City/)).toHaveValue('Albany');
    expect(screen.getByLabelText(/^State/)).toHaveValue('NY');
    expect(screen.getByLabelText(/^Zip/)).toHaveValue('12203');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('says when no address starts so, and when suggestions are unavailable; more typing aborts the request in flight', async () => {
    renderApp({ path: APP_PATHS.servicerLookup, organizations: [] });
    await screen.findByRole('heading', { level: 1, name: 'Servicer Lookup' });
    await user.type(street(), '99999 Nowh');
    await waitFor(() => expect(live()).toHaveLength(1), { timeout: 2000 });
    await user.type(street(), 'e');
    expect(requests[0]?.signal?.aborted).toBe(true);
    await waitFor(() => expect(live()).toHaveLength(1), { timeout: 2000 });
    expect(live()[0]?.query).toBe('99999 Nowhe');
    await act(async () => live()[0]?.settle([]));
    await waitFor(() => expect(status()).toHaveTextContent(A.none));
    await user.type(street(), 're');
    await waitFor(() => expect(live()).toHaveLength(2), { timeout: 2000 });
    await act(async () => live()[1]?.settle(new Error('503')));
    await waitFor(() => expect(status()).toHaveTextContent(A.failed));
    expect(street()).toHaveValue('99999 Nowhere');
  });
});
