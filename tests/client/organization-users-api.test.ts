// The client's calls of an organization's users: paths, methods, query and bodies as the
// contract has them, the current organization on every call, answers parsed with the contract.
import ky from 'ky';
import { describe, expect, it } from 'vitest';
import { createRegistryApi } from '../../src/client/api';
import { createHttpClient } from '../../src/client/http';
import { HttpError } from '../../src/contract/http-error';
import { PATHS } from '../../src/contract/paths';
import { PARTICIPANT_HEADER } from '../../src/domain/constants';
import { addedNewUser, INVITATION_LINK, ORGANIZATION_ID, sampleMember, sampleRegistryUser } from '../support/organization-user-fixtures';

const current = '00000000-0000-4000-8000-0000000000aa';

function apiAnswering(status: number, body: unknown) {
  const requests: Request[] = [];
  const failures: HttpError[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    return status === 204
      ? new Response(null, { status })
      : new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  const http = createHttpClient(
    { baseUrl: 'http://registry.test', session: { participantId: () => current, productCallFailed: (error) => failures.push(error) } },
    ky.create({ fetch }),
  );
  return { api: createRegistryApi(http), requests, failures };
}

const member = sampleMember(1);

describe('organization users client', () => {
  it('lists a page of members with the paging, sort and organization', async () => {
    const { api, requests } = apiAnswering(200, { users: [member], totalCount: 1 });
    expect(await api.organizationUsers(ORGANIZATION_ID, { limit: 20, offset: 40, sort: 'email', direction: 'desc' })).toEqual({
      users: [member],
      totalCount: 1,
    });
    const url = new URL(requests[0]!.url);
    expect(url.pathname).toBe(PATHS.participantUsers(ORGANIZATION_ID));
    expect(Object.fromEntries(url.searchParams)).toEqual({ limit: '20', offset: '40', sort: 'email', direction: 'desc' });
    expect(requests[0]!.headers.get(PARTICIPANT_HEADER)).toBe(current);
  });

  it('searches registry users (at most 10) and adds one to the organization', async () => {
    const found = sampleRegistryUser(7);
    const search = apiAnswering(200, { users: [found], totalCount: 1 });
    expect((await search.api.searchUsers({ query: 'ada', limit: 10, offset: 0 })).users).toEqual([found]);
    expect(new URL(search.requests[0]!.url).search).toBe('?query=ada&limit=10&offset=0');
    const suggest = apiAnswering(200, { users: [found] });
    expect((await suggest.api.suggestUsers('ada')).users).toEqual([found]);
    const suggestUrl = new URL(suggest.requests[0]!.url);
    expect(suggestUrl.pathname).toBe(PATHS.userSuggestions);
    expect(suggestUrl.search).toBe('?query=ada');
    expect(suggest.requests[0]!.headers.get(PARTICIPANT_HEADER)).not.toBeNull();

    const add = apiAnswering(201, sampleMember(7));
    expect(await add.api.addExistingUser(found.userId, { participantId: ORGANIZATION_ID, roles: ['CUSTODIAN'] })).toEqual(sampleMember(7));
    expect(add.requests[0]!.method).toBe('POST');
    expect(new URL(add.requests[0]!.url).pathname).toBe(PATHS.userParticipantsV2(found.userId));
    expect(await add.requests[0]!.json()).toEqual({ participantId: ORGANIZATION_ID, roles: ['CUSTODIAN'] });
  });

  it('invites a new person and gets the link back; resends and revokes the invitation', async () => {
    const added = addedNewUser(sampleMember(9, { pending: true }));
    const invite = apiAnswering(201, added);
    const body = { firstName: 'Grace', middleName: '', lastName: 'Hopper', email: 'grace@example.test', roles: ['ORG_ADMIN' as const] };
    expect((await invite.api.addOrganizationUser(ORGANIZATION_ID, body)).invitationLink).toBe(INVITATION_LINK);
    expect(await invite.requests[0]!.json()).toEqual(body);

    const resend = apiAnswering(201, { invitation: added.user.invitation, invitationLink: INVITATION_LINK });
    expect((await resend.api.resendInvitation(ORGANIZATION_ID, member.userId)).invitationLink).toBe(INVITATION_LINK);
    expect(new URL(resend.requests[0]!.url).pathname).toBe(PATHS.participantUserInvitation(ORGANIZATION_ID, member.userId));

    const revoke = apiAnswering(204, null);
    await revoke.api.revokeInvitation(ORGANIZATION_ID, member.userId);
    expect(revoke.requests[0]!.method).toBe('DELETE');
  });

  it('puts the roles array, removes a member, and raises the 409 with its body', async () => {
    const put = apiAnswering(200, member);
    await put.api.updateUserRoles(ORGANIZATION_ID, member.userId, ['ORG_ADMIN', 'TRADER']);
    expect(put.requests[0]!.method).toBe('PUT');
    expect(await put.requests[0]!.json()).toEqual(['ORG_ADMIN', 'TRADER']);

    const refused = apiAnswering(409, { statusCode: 409, error: 'Conflict', message: 'You cannot remove yourself from the organization.' });
    const error = await refused.api.removeOrganizationUser(ORGANIZATION_ID, member.userId).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).serverMessage).toBe('You cannot remove yourself from the organization.');
    expect(refused.requests[0]!.method).toBe('DELETE');
    expect(new URL(refused.requests[0]!.url).pathname).toBe(PATHS.participantUser(ORGANIZATION_ID, member.userId));
  });

  it('refuses an answer the contract does not describe', async () => {
    const { api } = apiAnswering(200, { users: [{ userId: 'not-a-uuid' }], totalCount: 1 });
    await expect(api.organizationUsers(ORGANIZATION_ID, { limit: 10, offset: 0 })).rejects.toThrow();
  });
});
