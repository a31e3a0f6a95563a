// The client's deactivation call: a multipart body through the one http client, with SPEC section
// 7's field names, the current organization, and no JSON content type forced on it.
import ky from 'ky';
import { describe, expect, it } from 'vitest';
import { createRegistryApi } from '../../src/client/api';
import { createHttpClient } from '../../src/client/http';
import { EMPTY_DEACTIVATION_DRAFT, draftOf } from '../../src/contract/deactivation';
import { HttpError } from '../../src/contract/http-error';
import { PATHS } from '../../src/contract/paths';
import { PARTICIPANT_HEADER } from '../../src/domain/constants';
import { pdfFile, VALID_VALUES } from '../support/deactivation-fixtures';

const loanId = '5f0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f';
const participantId = '00000000-0000-4000-8000-000000000001';

function apiAnswering(status: number, body: unknown) {
  const requests: Request[] = [];
  const failures: HttpError[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  const http = createHttpClient(
    {
      baseUrl: 'http://registry.test',
      session: { participantId: () => participantId, productCallFailed: (error) => failures.push(error) },
    },
    ky.create({ fetch }),
  );
  return { api: createRegistryApi(http), requests, failures };
}

describe('requestDeactivation', () => {
  it('posts the form as multipart with the wire names and the file, and parses the 202', async () => {
    const accepted = { id: '9a0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f', loanId, status: 'SUBMITTED' };
    const { api, requests } = apiAnswering(202, accepted);
    const file = pdfFile(3000, 'instrument.pdf');
    const draft = draftOf({ ...VALID_VALUES, 'address.street2': 'Floor 3', bookNumber: '1042' });
    expect(await api.requestDeactivation(loanId, draft, file)).toEqual(accepted);

    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`http://registry.test${PATHS.loanDeactivate(loanId)}`);
    expect(request?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.headers.get(PARTICIPANT_HEADER)).toBe(participantId);
    const form = await request?.formData();
    expect([...(form?.keys() ?? [])]).toEqual([
      'reason',
      'effectiveDate',
      'assignee',
      'entityType',
      'statePostalCode',
      'address.street1',
      'address.street2',
      'address.city',
      'address.statePostalCode',
      'address.zipCode',
      'bookNumber',
      'securityInstrumentAndAssignment',
    ]);
    expect(form?.get('address.statePostalCode')).toBe('CA');
    expect(form?.get('address.zipCode')).toBe('94607');
    const sent = form?.get('securityInstrumentAndAssignment') as File;
    expect(sent.name).toBe('instrument.pdf');
    expect(sent.size).toBe(3000);
  });

  it('leaves the assignee out for a payoff', async () => {
    const { api, requests } = apiAnswering(202, { id: '9a0c6a2e-8b1d-4c3a-9e7f-1a2b3c4d5e6f', loanId, status: 'SUBMITTED' });
    await api.requestDeactivation(loanId, draftOf({ ...VALID_VALUES, reason: 'payoff' }), pdfFile());
    const form = await requests[0]?.formData();
    expect(form?.has('assignee')).toBe(false);
    expect(form?.get('reason')).toBe('payoff');
  });

  it('raises HttpError with the body, and tells the session', async () => {
    const body = {
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'securityInstrumentAndAssignment: File size cannot be more than 10MB',
    };
    const { api, failures } = apiAnswering(413, body);
    const failure = api.requestDeactivation(loanId, EMPTY_DEACTIVATION_DRAFT, pdfFile());
    await expect(failure).rejects.toBeInstanceOf(HttpError);
    await expect(failure).rejects.toMatchObject({ status: 413, serverMessage: body.message });
    expect(failures.map((error) => error.status)).toEqual([413]);
  });
});
