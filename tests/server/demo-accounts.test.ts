// The server over the real demo seed: what a person trying the demo accounts gets.
import { describe, expect, it } from 'vitest';
import { figureInfoSchema } from '../../src/contract/identity';
import { userParticipantsSchema } from '../../src/contract/participants';
import { PATHS } from '../../src/contract/paths';
import { usersMeSchema } from '../../src/contract/users';
import { useRouteTest } from './support/route-test';

const server = useRouteTest({ demo: { loans: 20 } });

describe('demo accounts', () => {
  it('admin: registry administrator with 12 organizations, each one selectable', async () => {
    const admin = await server.signIn('admin@registry.test');
    const info = figureInfoSchema.parse((await admin.get(PATHS.figureInfo)).json());
    expect(info.roles['service-dart']).toContain('ROLE_DART_ADMIN');
    const me = usersMeSchema.parse((await admin.get(PATHS.usersMe)).json());
    const list = userParticipantsSchema.parse((await admin.get(PATHS.userParticipants(me.user.id))).json());
    expect(list.length).toBeGreaterThanOrEqual(8);
    expect(list.filter((entry) => entry.isDefault)).toHaveLength(1);
    const last = list.at(-1);
    const switched = await admin.as(last?.participant.id ?? '').get(PATHS.usersMe);
    expect(usersMeSchema.parse(switched.json()).participant?.id).toBe(last?.participant.id);
  });

  it('user: a registry user with a default organization and its profile', async () => {
    const user = await server.signIn('user@registry.test');
    const response = await user.get(PATHS.usersMe);
    expect(response.statusCode).toBe(200);
    const me = usersMeSchema.parse(response.json());
    expect(me.participant?.profileInfo.name).toBeTruthy();
    const list = userParticipantsSchema.parse((await user.get(PATHS.userParticipants(me.user.id))).json());
    expect(list.length).toBeGreaterThanOrEqual(2);
  });

  it('unregistered: a valid identity without a registry user', async () => {
    const unregistered = await server.signIn('unregistered@registry.test');
    expect((await unregistered.get(PATHS.figureInfo)).statusCode).toBe(200);
    const me = await unregistered.get(PATHS.usersMe);
    expect(me.statusCode).toBe(404);
    expect(me.json().message).toBe('User not found.');
  });
});
