// The pure parts of the administration bench (scripts/bench-admin.ts): what it asks the API, as
// whom, and that each creation is a new person the contract accepts.
import { describe, expect, it } from 'vitest';
import { newOrganizationUserSchema } from '../../src/contract/organization-users';
import { PATHS } from '../../src/contract/paths';
import { ADMIN_SCENARIOS, adminReadScenarios, createUserScenario, type AdminBenchData } from '../../scripts/bench-admin';

const data: AdminBenchData = {
  organizations: 3_000,
  users: 200_000,
  organization: { id: '00000000-0000-4000-8000-000000000007', name: 'Juniper Mortgage 4', users: 18_211 },
  organizationAdmin: 'ahmed.castillo.u171490@juniper-mortgage-4.example',
  staff: 'admin@registry.test',
  prefixes: ['ada', 'car', 'gar'],
};
const base = 'http://127.0.0.1:1';

describe('administration bench', () => {
  const [list, suggestions, members] = adminReadScenarios(
    base,
    { staff: 'registry_session=s', organizationAdmin: 'registry_session=o' },
    data,
  );

  it('reads the organization list and the suggestions as registry staff, a page of 10 and the suggestions call', () => {
    expect(list?.name).toBe(ADMIN_SCENARIOS.organizationList);
    const listUrl = new URL(list?.groups[0]?.[0]?.url ?? '');
    expect(listUrl.pathname).toBe(PATHS.participants);
    expect(Object.fromEntries(listUrl.searchParams)).toEqual({ limit: '10', offset: '0' });
    expect(suggestions?.groups.map((group) => new URL(group[0]?.url ?? '').pathname)).toEqual(
      data.prefixes.map(() => PATHS.userSuggestions),
    );
    expect(suggestions?.groups.map((group) => Object.fromEntries(new URL(group[0]?.url ?? '').searchParams))).toEqual(
      data.prefixes.map((query) => ({ query })),
    );
    for (const group of [...(list?.groups ?? []), ...(suggestions?.groups ?? [])]) {
      expect(group[0]?.headers).toEqual({ cookie: 'registry_session=s' });
    }
  });

  it("reads the largest organization's users as its ORG_ADMIN, acting for it", () => {
    const request = members?.groups[0]?.[0];
    expect(new URL(request?.url ?? '').pathname).toBe(PATHS.participantUsers(data.organization.id));
    expect(request?.headers).toEqual({ cookie: 'registry_session=o', 'x-participant-id': data.organization.id });
  });

  it('creates a new person per request, each a body the contract accepts, with a same-origin Origin', () => {
    const spec = createUserScenario(ADMIN_SCENARIOS.createUser, base, 'registry_session=o', data, 5, 3, 201);
    const requests = spec.groups.map((group) => group[0]);
    const bodies = requests.map((request) => newOrganizationUserSchema.parse(JSON.parse(request?.body ?? '')));
    expect(new Set(bodies.map((body) => body.email)).size).toBe(3);
    expect(bodies.every((body) => body.email.endsWith('@bench.example'))).toBe(true);
    expect(requests[0]).toMatchObject({ method: 'POST', expectStatus: 201, url: base + PATHS.participantUsers(data.organization.id) });
    expect(requests[0]?.headers).toMatchObject({
      origin: base,
      'x-participant-id': data.organization.id,
      'content-type': 'application/json',
    });
  });
});
